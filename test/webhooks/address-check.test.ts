import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { embeddedIPv4, isPublicAddress } from '../../src/modules/webhooks/address-check.js';
import { validateUrl } from '../../src/modules/webhooks/webhooks.service.js';

describe('webhook address check (no traffic is sent)', () => {
  const refused = [
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '192.0.0.8',
    '192.0.2.10',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::abcd%eth0'.split('%')[0]!,
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '100::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '2002:0a00:0001::1',
    '2002:7f00:0001::',
    '::127.0.0.1',
  ];
  for (const ip of refused) {
    it(`refuses ${ip}`, () => assert.equal(isPublicAddress(ip), false));
  }
  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ];
  for (const ip of allowed) {
    it(`allows ${ip}`, () => assert.equal(isPublicAddress(ip), true));
  }
  it('refuses what is not an address', () => {
    assert.equal(isPublicAddress('localhost'), false);
    assert.equal(isPublicAddress('999.1.1.1'), false);
  });
  it('finds the IPv4 address inside mapped and translated IPv6 forms', () => {
    assert.equal(embeddedIPv4('::ffff:7f00:1'), '127.0.0.1');
    assert.equal(embeddedIPv4('::ffff:10.1.2.3'), '10.1.2.3');
    assert.equal(embeddedIPv4('64:ff9b::a00:1'), '10.0.0.1');
    assert.equal(embeddedIPv4('2002:c0a8:0101::1'), '192.168.1.1');
    assert.equal(embeddedIPv4('2606:4700::1'), undefined);
  });
  it('validates configured URLs: https and a public host', () => {
    assert.equal(validateUrl('https://hooks.example.in/x', false), 'https://hooks.example.in/x');
    for (const bad of [
      'http://hooks.example.in/x',
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://localhost/x',
      'https://10.0.0.5/x',
      'https://user:pw@hooks.example.in/',
      'ftp://x.in/',
      'https://intranet/x',
      'not a url',
    ]) {
      assert.throws(() => validateUrl(bad, false), /url/, bad);
    }
    assert.equal(validateUrl('http://127.0.0.1:9999/x', true), 'http://127.0.0.1:9999/x');
  });
});
