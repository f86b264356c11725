import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { checkSyntax, createEmailChecker, type EmailVerdict } from '../../src/modules/mail/email-check.js';
import { startDnsServer, type DnsServer, type Zone } from '../helpers/dns-server.js';
import { call, organiser } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MX = 15;
const A = 1;
const AAAA = 28;

const zones: Record<string, Zone> = {
  'good.in': { mx: [{ priority: 10, exchange: 'mx.good.in' }] },
  'nomx.in': { a: ['192.0.2.10'] },
  'v6only.in': { aaaa: ['2001:db8::10'] },
  'nomail.in': {}, // the name exists, with no MX, A or AAAA
  'nullmx.in': { mx: [{ priority: 0, exchange: '.' }] },
  'dotmx10.in': { mx: [{ priority: 10, exchange: '.' }] },
  'nullplus.in': {
    mx: [
      { priority: 0, exchange: '.' },
      { priority: 10, exchange: 'mx.nullplus.in' },
    ],
  },
  'xn--mnchen-3ya.in': { mx: [{ priority: 10, exchange: 'mx.xn--mnchen-3ya.in' }] }, // münchen.in
  'servfail.in': { servfail: true },
  'slow.in': { silent: true },
  // nosuch.in is absent: NXDOMAIN
};

const TIMEOUT_MS = 300;

const refusal = (v: EmailVerdict) => (v.ok ? 'accepted' : v.reason);

/** A promise and whether it has settled yet. */
function settles<T>(promise: Promise<T>): { promise: Promise<T>; done: boolean } {
  const s = { promise, done: false };
  promise.then(
    () => (s.done = true),
    () => (s.done = true),
  );
  return s;
}
/** Lets pending I/O callbacks and promise chains run (setImmediate is not mocked). */
async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}
/** Waits for observable state (a query reaching the DNS server), for at most 10 s. */
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await turns(1);
  }
}

describe('email deliverability check', () => {
  let dns: DnsServer;
  before(async () => {
    dns = await startDnsServer(zones);
  });
  after(async () => {
    await dns.close();
  });
  const checker = (o: { clock?: ManualClock; dnsCheck?: boolean; cacheTtlMs?: number } = {}) =>
    createEmailChecker({
      dnsServers: [dns.address],
      dnsCheck: o.dnsCheck ?? true,
      clock: o.clock ?? new ManualClock(),
      timeoutMs: TIMEOUT_MS,
      ...(o.cacheTtlMs === undefined ? {} : { cacheTtlMs: o.cacheTtlMs }),
    });
  const asked = (name: string, type?: number) =>
    dns.queries.filter((q) => q.name === name && (type === undefined || q.type === type)).length;

  const badSyntax = [
    '',
    '   ',
    'plain',
    '@good.in',
    'a@',
    'a@@good.in',
    'a b@good.in',
    '.a@good.in',
    'a..b@good.in',
    'a.@good.in',
    'a@good', // not fully qualified
    'a@-x.in',
    'a@x-.in',
    'a@good..in',
    'a@.good.in',
    'a@goo_d.in',
    'a@1.2.3.4',
    'a@[192.0.2.1]',
    `${'l'.repeat(65)}@good.in`,
    `a@${'d'.repeat(64)}.in`,
    `ab@${'abcdefghi.'.repeat(25)}abc`, // 256 characters in all, over the 254 a path allows
  ];
  const reserved = [
    'a@x.invalid',
    'a@shop.example',
    'a@host.localhost',
    'a@site.test',
    'a@deep.sub.site.test',
    'a@SITE.TEST',
    'a@site.test.',
    'a@invalid',
    'a@example',
    'a@localhost',
    'a@test',
  ];

  it('refuses bad syntax and reserved domains, each for its reason, without asking DNS', async () => {
    const c = checker();
    const start = dns.queries.length;
    for (const bad of badSyntax) assert.equal(refusal(await c.check(bad)), 'syntax', JSON.stringify(bad));
    for (const r of reserved) assert.equal(refusal(await c.check(r)), 'reserved_domain', r);
    assert.equal(dns.queries.length, start, 'no DNS traffic for these');
    // The same checker does reach the server, so the silence above means something.
    assert.equal(refusal(await c.check('a@good.in')), 'accepted');
    assert.ok(dns.queries.length > start);
  });

  it('refuses only the TLDs the rule names: example.com and .local are left to DNS', () => {
    for (const email of [
      'a@example.com',
      'a@example.net',
      'a@example.org',
      'a@testing.in',
      'a@test.in',
      'a@printer.local',
    ]) {
      assert.equal(refusal(checkSyntax(email)), 'accepted', email);
    }
  });

  it('normalises what it accepts: trimmed, lowercased, no trailing root dot; international addresses allowed', () => {
    assert.deepEqual(checkSyntax('  Asha.Rao+Tix@Good.IN.  '), { ok: true, email: 'asha.rao+tix@good.in' });
    // A quoted local part is refused: the address checked must be the address mailed.
    assert.equal(refusal(checkSyntax('"asha rao"@good.in')), 'syntax');
    assert.deepEqual(checkSyntax('ASHA@MÜNCHEN.in'), { ok: true, email: 'asha@münchen.in' });
    assert.deepEqual(checkSyntax('आशा@good.in'), { ok: true, email: 'आशा@good.in' });
    const longest = `a@${'abcdefghi.'.repeat(25)}in`; // 254 characters: the limit
    assert.deepEqual(checkSyntax(longest), { ok: true, email: longest });
  });

  it('accepts a domain with an MX record', async () => {
    const c = checker();
    const before = asked('good.in', MX);
    assert.deepEqual(await c.check(' Asha@Good.IN '), { ok: true, email: 'asha@good.in' });
    assert.equal(asked('good.in', MX), before + 1, 'the MX was asked');
  });

  it('looks an international domain up by its ASCII form', async () => {
    const c = checker();
    assert.deepEqual(await c.check('a@München.in'), { ok: true, email: 'a@münchen.in' });
    assert.equal(asked('xn--mnchen-3ya.in', MX), 1);
  });

  it('accepts a domain without MX that has an address record (implicit MX, RFC 5321 §5.1)', async () => {
    const c = checker();
    const beforeA = asked('nomx.in', A) + asked('nomx.in', AAAA);
    assert.equal(refusal(await c.check('x@nomx.in')), 'accepted');
    assert.ok(asked('nomx.in', A) + asked('nomx.in', AAAA) > beforeA, 'the address records were asked');
    assert.equal(refusal(await c.check('x@v6only.in')), 'accepted', 'an AAAA record alone is enough');
  });

  it('refuses a name that exists with no MX, A or AAAA: there is no host to deliver to', async () => {
    const v = await checker().check('x@nomail.in');
    assert.equal(refusal(v), 'no_such_domain');
    assert.match((v as { message: string }).message, /no mail server/);
  });

  it('refuses a domain that does not exist', async () => {
    const v = await checker().check('x@nosuch.in');
    assert.equal(refusal(v), 'no_such_domain');
    assert.match((v as { message: string }).message, /nosuch\.in does not exist/);
  });

  it('refuses a null MX, and only a lone one of preference 0 (RFC 7505)', async () => {
    const c = checker();
    assert.equal(refusal(await c.check('x@nullmx.in')), 'null_mx');
    assert.equal(refusal(await c.check('x@dotmx10.in')), 'accepted', '"." at preference 10 is no null MX');
    assert.equal(refusal(await c.check('x@nullplus.in')), 'accepted', 'another MX may still take the mail');
  });

  it('accepts on SERVFAIL, and asks again next time', async () => {
    const c = checker();
    const before = asked('servfail.in', MX);
    assert.deepEqual(await c.check('x@servfail.in'), { ok: true, email: 'x@servfail.in' });
    assert.equal(asked('servfail.in', MX), before + 1);
    assert.equal(refusal(await c.check('y@servfail.in')), 'accepted');
    assert.equal(asked('servfail.in', MX), before + 2, 'a failure is not cached');
  });

  // The deadline is the checker's own timer, driven here by the test runner's mock timers;
  // the resolver's own timeout (the same number of milliseconds, real time) is long enough
  // that it never answers first. The silent servers hold the queries until the test ends
  // their silence, so no resolver is left waiting once a test is over.
  const DEADLINE_MS = 60_000;

  it('accepts when the server never answers, at its deadline and not before, and asks again next time', async (t) => {
    const slow = await startDnsServer({ 'slow.in': { silent: true } });
    try {
      t.mock.timers.enable({ apis: ['setTimeout'] });
      const c = createEmailChecker({
        dnsServers: [slow.address],
        dnsCheck: true,
        clock: new ManualClock(),
        timeoutMs: DEADLINE_MS,
      });
      for (const [n, email] of [
        [1, 'x@slow.in'],
        [2, 'y@slow.in'],
      ] as const) {
        const check = settles(c.check(email));
        await until(() => slow.queries.length === n, `query ${n} was sent (a timeout is not cached)`);
        t.mock.timers.tick(DEADLINE_MS - 1);
        await turns();
        assert.equal(check.done, false, `check ${n} still waits 1 ms before the deadline`);
        t.mock.timers.tick(1);
        await turns();
        assert.equal(check.done, true, `check ${n} answered at the deadline`);
        assert.deepEqual(await check.promise, { ok: true, email }, 'a timeout proves nothing: accepted');
      }
    } finally {
      await slow.endSilence();
      await slow.close();
    }
  });

  it('holds its own deadline when the resolver would retry across several silent servers', async (t) => {
    // c-ares spends its timeout on each server in turn (3 min for three at 60 s): the check
    // must not wait for that.
    const silent = await Promise.all([1, 2, 3].map(() => startDnsServer({ 'slow.in': { silent: true } })));
    try {
      t.mock.timers.enable({ apis: ['setTimeout'] });
      const c = createEmailChecker({
        dnsServers: silent.map((s) => s.address),
        dnsCheck: true,
        clock: new ManualClock(),
        timeoutMs: DEADLINE_MS,
      });
      const check = settles(c.check('x@slow.in'));
      await until(() => silent.some((s) => s.queries.length > 0), 'a server was asked');
      t.mock.timers.tick(DEADLINE_MS);
      await turns();
      assert.equal(check.done, true, 'answered at its own deadline, with servers left to try');
      assert.equal(refusal(await check.promise), 'accepted');
    } finally {
      await Promise.all(silent.map((s) => s.endSilence()));
      await Promise.all(silent.map((s) => s.close()));
    }
  });

  it('caches an accepted domain for 10 minutes by the injected clock', async () => {
    const clock = new ManualClock();
    const c = checker({ clock });
    await c.check('a@good.in');
    const afterFirst = asked('good.in');
    assert.deepEqual(await c.check('b@good.in'), { ok: true, email: 'b@good.in' });
    clock.advance(10 * 60_000 - 1);
    await c.check('c@good.in');
    assert.equal(asked('good.in'), afterFirst, 'served from the cache until the TTL');
    clock.advance(1);
    await c.check('d@good.in');
    assert.equal(asked('good.in'), afterFirst + 1, 'asked again once the TTL has passed');
  });

  it('caches refusals too, for the configured TTL', async () => {
    const clock = new ManualClock();
    const c = checker({ clock, cacheTtlMs: 60_000 });
    assert.equal(refusal(await c.check('a@nosuch.in')), 'no_such_domain');
    assert.equal(refusal(await c.check('a@nullmx.in')), 'null_mx');
    const nx = asked('nosuch.in');
    const nullMx = asked('nullmx.in');
    clock.advance(59_999);
    assert.equal(refusal(await c.check('b@nosuch.in')), 'no_such_domain');
    assert.equal(refusal(await c.check('b@nullmx.in')), 'null_mx');
    assert.deepEqual([asked('nosuch.in'), asked('nullmx.in')], [nx, nullMx], 'served from the cache');
    clock.advance(1);
    await c.check('c@nosuch.in');
    assert.equal(asked('nosuch.in'), nx + 1, 'asked again once the TTL has passed');
  });

  it('asks once for several checks of one domain at the same time', async () => {
    const c = checker();
    const before = asked('good.in', MX);
    const all = await Promise.all(['a', 'b', 'c'].map((u) => c.check(`${u}@good.in`)));
    assert.deepEqual(all.map(refusal), ['accepted', 'accepted', 'accepted']);
    assert.equal(asked('good.in', MX), before + 1);
  });

  it('keeps only the syntax and reserved-domain checks when EMAIL_DNS_CHECK is false', async () => {
    const c = checker({ dnsCheck: false });
    const start = dns.queries.length;
    assert.deepEqual(await c.check('X@NoSuch.in'), { ok: true, email: 'x@nosuch.in' });
    assert.equal(refusal(await c.check('x@nullmx.in')), 'accepted');
    assert.equal(refusal(await c.check('x@site.test')), 'reserved_domain');
    assert.equal(refusal(await c.check('x@localhost')), 'reserved_domain');
    assert.equal(refusal(await c.check('not an email')), 'syntax');
    assert.equal(dns.queries.length, start, 'no DNS traffic at all');
  });

  it('refuses a DNS server that is not an IP address when it is built, not on first use', () => {
    const build = (s: string) => () =>
      createEmailChecker({ dnsServers: [s], dnsCheck: true, clock: new ManualClock() });
    assert.throws(build('dns.example.in:53'), /DNS_SERVERS holds "dns\.example\.in:53"/);
    assert.doesNotThrow(build('127.0.0.1:5353'));
    assert.doesNotThrow(build('[::1]:5353'));
    assert.doesNotThrow(build('192.0.2.53'));
  });
});

describe('registration refuses undeliverable emails through the configured DNS', () => {
  let dns: DnsServer;
  let server: TestServer;
  before(async () => {
    dns = await startDnsServer(zones);
    // The canary is a domain this DNS server knows: it answers NXDOMAIN for every other name.
    server = await startServer({
      env: { EMAIL_DNS_CHECK: 'true', DNS_SERVERS: dns.address, EMAIL_DNS_CANARY: 'good.in' },
    });
  });
  after(async () => {
    await server.close();
    await dns.close();
  });

  it('answers 400 for NXDOMAIN and null MX, and accepts a good domain and a DNS timeout', async () => {
    const org = await organiser(server.url);
    const eventId = await createEvent(keyApi(server.url, org.key), { title: 'DNS', startDate: '2026-12-01' });
    const reg = (email: string) =>
      call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
        key: org.key,
        body: { name: 'N', email },
      });
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
  });
});
