import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/shared/clock.js';
import { checkSyntax, createEmailChecker } from '../../src/modules/mail/email-check.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { call, organiser } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const zones = {
  'good.in': { mx: [{ priority: 10, exchange: 'mx.good.in' }] },
  'nomx.in': { a: ['192.0.2.10'] },
  'nullmx.in': { mx: [{ priority: 0, exchange: '' }] },
  'servfail.in': { servfail: true },
  'slow.in': { silent: true },
};

describe('email deliverability check', () => {
  let dns: DnsServer;
  before(async () => {
    dns = await startDnsServer(zones);
  });
  after(async () => {
    await dns.close();
  });
  const checker = (clock = new ManualClock(), dnsCheck = true) => createEmailChecker({ dnsServers: [dns.address], dnsCheck, clock, timeoutMs: 300 });

  it('refuses bad syntax and reserved domains without asking DNS', async () => {
    const c = checker();
    const before = dns.queries.length;
    for (const bad of ['plain', '@good.in', 'a@', 'a b@good.in', 'a@good', 'a@-x.in', 'a@good..in', 'a@1.2.3.4']) {
      const v = await c.check(bad);
      assert.equal(v.ok, false, bad);
      assert.equal(!v.ok && v.reason, 'syntax', bad);
    }
    for (const reserved of ['a@x.invalid', 'a@shop.example', 'a@host.localhost', 'a@site.test', 'a@invalid']) {
      const v = await c.check(reserved);
      assert.equal(v.ok, false, reserved);
    }
    assert.equal(dns.queries.length, before, 'no DNS traffic for these');
  });

  it('accepts a domain with MX, and one with only an address record (implicit MX)', async () => {
    const c = checker();
    assert.deepEqual(await c.check('Asha@Good.IN'), { ok: true, email: 'asha@good.in' });
    assert.equal((await c.check('x@nomx.in')).ok, true);
  });

  it('refuses a domain that does not exist and a null MX', async () => {
    const c = checker();
    const nx = await c.check('x@nosuch.in');
    assert.deepEqual([nx.ok, !nx.ok && nx.reason], [false, 'no_such_domain']);
    const nullMx = await c.check('x@nullmx.in');
    assert.deepEqual([nullMx.ok, !nullMx.ok && nullMx.reason], [false, 'null_mx']);
  });

  it('accepts when DNS fails or does not answer: that proves nothing', async () => {
    const c = checker();
    assert.equal((await c.check('x@servfail.in')).ok, true);
    const started = Date.now();
    assert.equal((await c.check('x@slow.in')).ok, true);
    assert.ok(Date.now() - started < 2000, 'bounded by the timeout');
  });

  it('caches answers per domain until the TTL passes', async () => {
    const clock = new ManualClock();
    const c = checker(clock);
    await c.check('a@good.in');
    const asked = dns.queries.filter((q) => q.name === 'good.in').length;
    await c.check('b@good.in');
    assert.equal(dns.queries.filter((q) => q.name === 'good.in').length, asked, 'served from the cache');
    clock.advance(11 * 60_000);
    await c.check('c@good.in');
    assert.ok(dns.queries.filter((q) => q.name === 'good.in').length > asked, 'asked again after the TTL');
  });

  it('keeps only the syntax and reserved-domain checks when EMAIL_DNS_CHECK is false', async () => {
    const c = checker(new ManualClock(), false);
    assert.equal((await c.check('x@nosuch.in')).ok, true);
    assert.equal((await c.check('x@site.test')).ok, false);
    assert.equal(checkSyntax('nope').ok, false);
  });
});

describe('registration refuses undeliverable emails through the configured DNS', () => {
  let dns: DnsServer;
  let server: TestServer;
  before(async () => {
    dns = await startDnsServer(zones);
    server = await startServer({ env: { EMAIL_DNS_CHECK: 'true', DNS_SERVERS: dns.address } });
  });
  after(async () => {
    await server.close();
    await dns.close();
  });

  it('answers 400 for NXDOMAIN and null MX, and accepts a good domain and a DNS timeout', async () => {
    const org = await organiser(server.url);
    const eventId = (await call(server.url, 'POST', '/api/v1/events', { key: org.key, body: { title: 'DNS', description: 'x', startDate: '2026-12-01', maxTeamSize: 2 } })).body.data.id;
    const reg = (email: string) => call(server.url, 'POST', `/api/v1/events/${eventId}/register`, { key: org.key, body: { name: 'N', email } });
    for (const email of ['x@nosuch.in', 'x@nullmx.in']) {
      const r = await reg(email);
      assert.equal(r.status, 400, email);
      assert.equal(r.body.code, 'undeliverable_email');
    }
    assert.equal((await reg('x@good.in')).status, 201);
    assert.equal((await reg('y@slow.in')).status, 201);
    const member = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'N', email: 'z@good.in', teamMembers: [{ name: 'M', email: 'm@nosuch.in' }] },
    });
    assert.equal(member.status, 400, 'each team member’s email is checked too');
    assert.equal(member.body.code, 'undeliverable_email');
    assert.match(member.body.error, /teamMembers\[0\]\.email/);
  });
});
