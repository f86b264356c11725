// Who a client is for every per-address limit (src/http/client-address.ts): an IPv4 address
// is one client, an IPv6 client is its /64, an IPv4 address written as IPv6 is the IPv4 address.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { addressKey, addressMatcher, isLoopbackHost } from '../../src/http/client-address.js';
import { ConnectionGate } from '../../src/http/connection-gate.js';

describe('addressKey', () => {
  it('an IPv4 address is its own key', () => {
    assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
    assert.notEqual(addressKey('203.0.113.7'), addressKey('203.0.113.8'));
  });

  it('an IPv4-mapped IPv6 address is the IPv4 address, in either spelling', () => {
    assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(addressKey('::FFFF:203.0.113.7'), '203.0.113.7');
    assert.equal(addressKey('::ffff:cb00:7107'), '203.0.113.7');
  });

  it('every address of one IPv6 /64 shares a key; the next /64 has its own', () => {
    const a = addressKey('2001:db8:1:2:3:4:5:6');
    assert.equal(a, '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2::1'), a);
    assert.equal(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), a, 'written out in full');
    assert.equal(addressKey('2001:DB8:1:2:AAAA::'), a, 'upper case');
    assert.notEqual(addressKey('2001:db8:1:3::1'), a);
    assert.notEqual(addressKey('2001:db8:1:1:ffff:ffff:ffff:ffff'), a);
  });

  it('a zone index does not make a new client', () => {
    assert.equal(addressKey('fe80::1%eth0'), addressKey('fe80::2'));
  });

  it('what is no address keeps its own key and never shares one with a real client', () => {
    assert.equal(addressKey(undefined), 'unknown');
    assert.equal(addressKey(''), 'unknown');
    assert.equal(addressKey('not:an:address'), 'not:an:address');
  });
});

describe('addressMatcher (the proxies TRUST_PROXY names)', () => {
  const m = addressMatcher(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32']);
  it('matches addresses and CIDRs of either family, IPv4-mapped addresses as IPv4', () => {
    assert.equal(m('10.1.2.3'), true);
    assert.equal(m('::ffff:10.1.2.3'), true);
    assert.equal(m('192.0.2.1'), true);
    assert.equal(m('192.0.2.2'), false);
    assert.equal(m('2001:db8:ffff::1'), true);
    assert.equal(m('2001:db9::1'), false);
    assert.equal(m(undefined), false);
    assert.equal(m('nonsense'), false);
  });
});

describe('isLoopbackHost (HOST that no other machine can reach)', () => {
  it('127.0.0.0/8, ::1 and localhost are; any other address is not', () => {
    for (const h of ['127.0.0.1', '127.4.5.6', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.in', '2001:db8::1'])
      assert.equal(isLoopbackHost(h), false, h);
  });
});

describe('ConnectionGate', () => {
  class FakeSocket extends EventEmitter {
    destroyed = false;
    constructor(readonly remoteAddress: string) {
      super();
    }
    destroy() {
      this.destroyed = true;
      this.emit('close');
      return this;
    }
  }
  const arrive = (gate: ConnectionGate, address: string) => {
    const s = new FakeSocket(address);
    return { s, admitted: gate.admit(s as unknown as Socket) };
  };

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    const gate = new ConnectionGate({ maxConnections: 100, maxPerAddress: 2 });
    assert.equal(arrive(gate, '2001:db8:1:2::1').admitted, true);
    assert.equal(arrive(gate, '2001:db8:1:2::ffff').admitted, true);
    assert.equal(arrive(gate, '2001:db8:1:2:9:9:9:9').admitted, false, 'a third address of the same /64');
    assert.equal(arrive(gate, '2001:db8:1:3::1').admitted, true, 'the next /64');
    assert.equal(arrive(gate, '198.51.100.4').admitted, true);
    assert.equal(arrive(gate, '::ffff:198.51.100.4').admitted, true);
    assert.equal(
      arrive(gate, '198.51.100.4').admitted,
      false,
      'the IPv4 client, however written, has had its two',
    );
    assert.equal(gate.open, 5);
  });

  it('a closed connection frees its place, in the total and for its address', () => {
    const gate = new ConnectionGate({ maxConnections: 2, maxPerAddress: 1 });
    const a = arrive(gate, '198.51.100.1');
    assert.equal(arrive(gate, '198.51.100.1').admitted, false);
    assert.equal(arrive(gate, '198.51.100.2').admitted, true);
    assert.equal(arrive(gate, '198.51.100.3').admitted, false, 'the total is reached');
    a.s.emit('close');
    assert.equal(gate.open, 1);
    assert.equal(gate.openFrom('198.51.100.1'), 0);
    assert.equal(arrive(gate, '198.51.100.1').admitted, true);
  });

  it('a refused connection is closed and never counted', () => {
    const gate = new ConnectionGate({ maxConnections: 1, maxPerAddress: 5 });
    arrive(gate, '198.51.100.1');
    const refused = arrive(gate, '198.51.100.2');
    assert.equal(refused.admitted, false);
    assert.equal(refused.s.destroyed, true);
    assert.equal(gate.open, 1);
  });

  it('proxies are held to the total only', () => {
    const gate = new ConnectionGate({
      maxConnections: 3,
      maxPerAddress: 1,
      sharedAddress: addressMatcher(['10.0.0.1']),
    });
    for (let i = 0; i < 3; i++) assert.equal(arrive(gate, '10.0.0.1').admitted, true);
    assert.equal(arrive(gate, '10.0.0.1').admitted, false);
  });
});
