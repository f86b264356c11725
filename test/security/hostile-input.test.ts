// Trust and safety points outside the booking modules: the email form that is mailed
// is the form that was checked, webhook hosts in every IPv6 spelling, TRUST_PROXY,
// and ticket ids kept out of the logs.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger, redactPath } from '../../src/lib/logger.js';
import { checkSyntax, MAX_EMAIL_LENGTH } from '../../src/modules/mail/email-check.js';
import { embeddedIPv4, isPublicAddress } from '../../src/modules/webhooks/address-check.js';
import { validateUrl } from '../../src/modules/webhooks/webhooks.service.js';
import { call, organiser } from '../helpers/http.js';
import { watchScans } from '../helpers/scan-watch.js';
import { startServer, testEnv, type TestServer } from '../helpers/server.js';

describe('email syntax: only plain local@domain', () => {
  it('refuses quoted local parts, comments, display names and lists', () => {
    for (const email of [
      '"victim@other.in"@good.in',
      '"a b"@good.in',
      '"a"@good.in',
      'a(comment)@good.in',
      '(comment)a@good.in',
      'Asha <asha@good.in>',
      '<asha@good.in>',
      'asha@good.in, evil@other.in',
      'asha@good.in;evil@other.in',
      'asha@good.in evil@other.in',
      'a@b@good.in',
      'asha@good.in\nBcc: evil@other.in',
    ]) {
      const v = checkSyntax(email);
      assert.equal(v.ok, false, JSON.stringify(email));
    }
    assert.deepEqual(checkSyntax('Asha.Rao+tix@Good.in'), { ok: true, email: 'asha.rao+tix@good.in' });
  });

  it(`refuses more than ${MAX_EMAIL_LENGTH} bytes, and a megabyte of input without reading it`, () => {
    assert.equal(MAX_EMAIL_LENGTH, 254);
    const longest = `a@${'abcdefghi.'.repeat(25)}in`;
    assert.equal(longest.length, 254);
    assert.equal(checkSyntax(longest).ok, true);
    assert.equal(checkSyntax(`a${longest}`).ok, false);
    for (const hostile of [
      'a'.repeat(1 << 20) + '@good.in',
      'a.'.repeat(1 << 19) + '@good.in',
      '"' + '\\"'.repeat(1 << 19),
      'a@' + 'b.'.repeat(1 << 19) + '!',
      '\u0661'.repeat(1 << 20),
    ]) {
      // Work counted, not timed: no regular expression and no string scan reads more than
      // the length cap (MAX_EMAIL_LENGTH + 64 UTF-16 units), so no input costs more.
      const watch = watchScans();
      let verdict;
      try {
        verdict = checkSyntax(hostile);
      } finally {
        watch.stop();
      }
      assert.equal(verdict.ok, false);
      assert.ok(watch.longest() <= MAX_EMAIL_LENGTH + 64, `read a string of ${watch.longest()} characters`);
    }
    // The watch does see what the check reads: an address at the cap is read whole.
    const watch = watchScans();
    try {
      checkSyntax(longest);
    } finally {
      watch.stop();
    }
    assert.equal(watch.longest(), longest.length);
  });
});

describe('webhook addresses in every IPv6 spelling', () => {
  const loopback = [
    '::7f00:1',
    '::ffff:0:7f00:1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:127.0.0.1',
    '0:0:0:0:0:0:127.0.0.1',
    '::0:7f00:1',
    '0::ffff:7f00:1',
    '0000:0000:0000:0000:0000:FFFF:7F00:0001',
    '::ffff:0:127.0.0.1',
    '0:0:0:0:0:0:0:1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
  ];
  for (const ip of loopback) {
    it(`${ip} is loopback`, () => {
      assert.equal(isPublicAddress(ip), false);
      assert.equal(embeddedIPv4(ip) ?? '127.0.0.1', embeddedIPv4(ip) === '0.0.0.1' ? '0.0.0.1' : '127.0.0.1');
    });
  }
  it('private and metadata addresses hidden the same ways are refused', () => {
    for (const ip of [
      '::a9fe:a9fe',
      '::ffff:0:a9fe:a9fe',
      '0:0:0:0:0:ffff:169.254.169.254',
      '::a00:1',
      '::ffff:0:c0a8:101',
      '0:0:0:0:0:0:0:0',
    ]) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
    for (const ip of ['::ffff:8.8.8.8', '0:0:0:0:0:ffff:808:808', '2606:4700:4700::1111'])
      assert.equal(isPublicAddress(ip), true, ip);
  });
  it('a configured URL is refused for those hosts and for ports other than 80 and 443', () => {
    for (const bad of [
      'https://[::7f00:1]/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[0:0:0:0:0:ffff:127.0.0.1]/x',
      'https://hooks.example.in:8443/x',
      'https://hooks.example.in:25/x',
      'https://hooks.example.in:6379/x',
    ]) {
      assert.throws(() => validateUrl(bad, false), /url/, bad);
    }
    for (const good of [
      'https://hooks.example.in/x',
      'https://hooks.example.in:443/x',
      'https://hooks.example.in:80/x',
    ])
      assert.doesNotThrow(() => validateUrl(good, false), good);
    assert.doesNotThrow(
      () => validateUrl('http://127.0.0.1:9999/x', true),
      'WEBHOOK_ALLOW_PRIVATE_URLS=true allows any port',
    );
  });
});

describe('TRUST_PROXY', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trust-'));
  const load = (v: string) => loadConfig(testEnv(dir, { TRUST_PROXY: v }));
  it('"true" (trust every X-Forwarded-For) is a config error naming the variable', () => {
    for (const v of ['true', 'TRUE', 'yes', '*', 'all']) {
      assert.throws(
        () => load(v),
        (err: Error) => err instanceof ConfigError && /^TRUST_PROXY /.test(err.message),
        v,
      );
    }
    for (const v of ['10.0.0.0/33', 'proxy.internal', '1.2.3.4/8/9', 'maybe'])
      assert.throws(() => load(v), /TRUST_PROXY/, v);
  });
  it('takes a hop count or a list of addresses and CIDRs', () => {
    assert.equal(load('2').trustProxy, 2);
    assert.equal(load('false').trustProxy, false);
    assert.deepEqual(load('10.0.0.0/8, 192.168.1.7,::1, fd00::/8').trustProxy, [
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
    ]);
  });

  async function bucketsSeen(trust: string): Promise<number> {
    // Each distinct client address has a per-minute budget of its own: count the 429s.
    const server = await startServer({ env: { TRUST_PROXY: trust, RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      let limited = 0;
      for (let i = 0; i < 4; i++) {
        const r = await call(server.url, 'GET', '/api/v1/me', {
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        if (r.status === 429) limited++;
      }
      return limited;
    } finally {
      await server.close();
    }
  }
  it('an untrusted peer cannot choose its address; a trusted proxy’s X-Forwarded-For is used', async () => {
    assert.equal(await bucketsSeen('10.0.0.0/8'), 2, 'the loopback peer is no trusted proxy');
    assert.equal(await bucketsSeen('127.0.0.1'), 0, 'each forwarded address counted on its own');
    assert.equal(await bucketsSeen('1'), 0, 'one hop: the forwarded address');
  });
});

describe('ticket ids are kept out of the logs', () => {
  const lines: string[] = [];
  let server: TestServer;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logs-'));
    const logger = createLogger(
      loadConfig(testEnv(dir, { LOG_LEVEL: 'info' })),
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    server = await startServer({ logger, dataDir: dir });
  });
  after(async () => {
    await server.close();
  });

  it('replaces registration and ticket ids in logged paths', async () => {
    const org = await organiser(server.url);
    const ids = ['reg_AbC-123_xyzXYZ0987654', 'tkt_ZZtop-77_abcdefghijkl'];
    for (const id of ids) {
      await call(server.url, 'GET', `/api/v1/events/ev_x/registrations/${id}`, { key: org.key });
      await call(
        server.url,
        'GET',
        `/api/v1/events/ev_x/registrations/${encodeURIComponent(id).replace('r', '%72').replace('t', '%74')}`,
        { key: org.key },
      );
      await call(server.url, 'GET', `/api/v1/events/ev_x/check-in?registrationId=${id}`, { key: org.key });
    }
    const text = lines.join('');
    assert.ok(text.includes('/registrations/reg_[redacted]'), text.slice(0, 2000));
    for (const id of ids) assert.ok(!text.includes(id.slice(4)), `${id} in the log`);
    assert.equal(
      redactPath('/api/v1/events/ev_1/registrations/reg_abc/transfer?x=1'),
      '/api/v1/events/ev_1/registrations/reg_[redacted]/transfer',
    );
    assert.equal(redactPath('/api/v1/events/ev_1'), '/api/v1/events/ev_1');
  });
});
