// Quotas an account or a client cannot outgrow (docs/decisions/21-trust-and-safety-third-round.md), with the service's defaults:
// 50 keys in use per account and mode (409 key_limit), 10 sign-ups per client address an
// hour (429 too_many_signups), 5 verification mails per email address an hour with resends
// (429 too_many_attempts), the door's in-memory rosters within DOOR_ROSTER_MAX_PEOPLE (least
// recently used dropped). And every per-address limit counts an IPv6 client by its /64: the
// server runs behind one trusted proxy hop here, so a test can speak from any address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_LIVE_KEYS_PER_MODE } from '../../src/modules/keys/keys.service.js';
import { LOGIN_PAIR_LIMIT } from '../../src/modules/accounts/accounts.service.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { DEFAULT_LIMITS } from '../helpers/limits.js';
import { call, createKey, organiser, signup, uniqueEmail, type Reply } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { apiKeysOf, jobsOf, userByEmail } from '../helpers/rows.js';

const HOUR = 3_600_000;
const PASSWORD = 'correct horse battery';
/** Requests as if from `address`, through the one proxy hop the server trusts. */
const from = (address: string) => ({ 'x-forwarded-for': address });
/** `count` different addresses in one IPv6 /64. */
const inOne64 = (prefix: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${prefix}:${(i + 1).toString(16)}:${(i * 7 + 3).toString(16)}:0:${(i + 11).toString(16)}`,
  );

function assertRefused(r: Reply, status: number, code: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.code, code, r.text);
  assert.equal(typeof r.body.error, 'string');
  // Unpaid bookings free their place when paid or lapsed, not at a set time: no Retry-After.
  if (status === 429 && code !== 'too_many_pending')
    assert.ok(Number(r.headers.get('retry-after')) > 0, 'Retry-After');
}

describe('quotas with the default limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      env: { ...DEFAULT_LIMITS, RATE_LIMIT_PER_MINUTE: '1000000', TRUST_PROXY: '1' },
    });
  });
  after(async () => {
    await server.close();
  });

  it('the defaults: 10 sign-ups an hour per address, 5 verification mails an hour per address, account requests 3 × the per-key limit', () => {
    const c = server.deps.config;
    assert.equal(c.signupLimitPerHour, 10);
    assert.equal(c.verifyMailLimitPerHour, 5);
    assert.equal(c.rateLimitPerAccountMinute, 3_000_000);
    assert.equal(c.doorRosterMaxPeople, 500_000);
  });

  it(`at most ${MAX_LIVE_KEYS_PER_MODE} keys in use per account and mode: one more is 409 key_limit; the other mode and a revoked key's place are free`, async () => {
    const org = await organiser(server.url);
    const made = [org.keyId];
    for (let i = 1; i < MAX_LIVE_KEYS_PER_MODE; i++)
      made.push((await createKey(server.url, org.token, { class: i % 2 === 0 ? 'full' : 'checkout' })).keyId);
    const over = await call(server.url, 'POST', '/dashboard/api/keys', {
      token: org.token,
      body: { mode: 'test', class: 'full' },
    });
    assertRefused(over, 409, 'key_limit');
    assert.equal(over.body.limit, MAX_LIVE_KEYS_PER_MODE);
    // Nothing was written by the refusal.
    const count = async () => (await apiKeysOf(server, org.userId)).length;
    assert.equal(await count(), MAX_LIVE_KEYS_PER_MODE);
    // The dashboard's form keeps the same cap.
    const dash = new DashboardClient(server.url);
    const page = await dash.get('/dashboard/login');
    assert.equal(
      (
        await dash.post('/dashboard/login', {
          _csrf: DashboardClient.csrf(page.text),
          email: org.email,
          password: PASSWORD,
        })
      ).status,
      303,
    );
    const developers = await dash.get('/dashboard/developers');
    const form = await dash.post('/dashboard/developers/keys', {
      _csrf: DashboardClient.csrf(developers.text),
      mode: 'test',
      class: 'full',
      name: 'one too many',
    });
    assert.equal(form.status, 303, form.text.slice(0, 300));
    assert.match((await dash.get(form.location!)).text, /as many as it may; revoke one/);
    assert.equal(await count(), MAX_LIVE_KEYS_PER_MODE);
    // Live mode has its own fifty.
    assert.equal(
      (
        await call(server.url, 'POST', '/dashboard/api/keys', {
          token: org.token,
          body: { mode: 'live', class: 'full' },
        })
      ).status,
      201,
    );
    // Revoking frees places; creations racing for them cannot pass the cap together.
    for (const id of made.slice(0, 3))
      assert.equal(
        (await call(server.url, 'DELETE', `/dashboard/api/keys/${id}`, { token: org.token })).status,
        200,
      );
    const race = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(server.url, 'POST', '/dashboard/api/keys', {
          token: org.token,
          body: { mode: 'test', class: 'full' },
        }),
      ),
    );
    assert.deepEqual(race.map((r) => r.status).sort(), [201, 201, 201, 409, 409, 409, 409, 409]);
    for (const r of race.filter((x) => x.status === 409)) assert.equal(r.body.code, 'key_limit');
    const live = (await apiKeysOf(server, org.userId)).filter(
      (k) => k.mode === 'test' && k.revoked_at === null,
    );
    assert.equal(live.length, MAX_LIVE_KEYS_PER_MODE);
  });

  it('10 sign-ups an hour from one client address, the /64 of an IPv6 client, over the API and the dashboard form together', async () => {
    const body = () => ({ email: uniqueEmail('many'), password: PASSWORD, name: 'Many' });
    const addresses = inOne64('2001:db8:5:6', 11);
    for (const address of addresses.slice(0, 9))
      assert.equal(
        (await call(server.url, 'POST', '/auth/signup', { body: body(), headers: from(address) })).status,
        201,
      );
    // The tenth by the dashboard's form.
    const dash = new DashboardClient(server.url);
    const page = await dash.get('/dashboard/signup');
    const tenth = await dash.post(
      '/dashboard/signup',
      { _csrf: DashboardClient.csrf(page.text), ...body() },
      from(addresses[9]!),
    );
    assert.equal(tenth.status, 303, tenth.text.slice(0, 300));
    assertRefused(
      await call(server.url, 'POST', '/auth/signup', { body: body(), headers: from(addresses[10]!) }),
      429,
      'too_many_signups',
    );
    const again = new DashboardClient(server.url);
    const formPage = await again.get('/dashboard/signup');
    const refusedForm = await again.post(
      '/dashboard/signup',
      { _csrf: DashboardClient.csrf(formPage.text), ...body() },
      from(addresses[0]!),
    );
    assert.equal(refusedForm.status, 429);
    assert.ok(Number(refusedForm.res.headers.get('retry-after')) > 0);
    // A refused sign-up made no account.
    const emailRefused = body();
    assert.equal(
      (await call(server.url, 'POST', '/auth/signup', { body: emailRefused, headers: from(addresses[5]!) }))
        .status,
      429,
    );
    assert.equal(await userByEmail(server, emailRefused.email), undefined);
    // Another /64 of the same /48 is another client; IPv4 clients are counted alone.
    assert.equal(
      (await call(server.url, 'POST', '/auth/signup', { body: body(), headers: from('2001:db8:5:7::1') }))
        .status,
      201,
    );
    // The next hour lets the address in again.
    server.clock.advance(HOUR);
    assert.equal(
      (await call(server.url, 'POST', '/auth/signup', { body: body(), headers: from(addresses[10]!) }))
        .status,
      201,
    );
  });

  it('an IPv4 client written as IPv6 is the same client', async () => {
    server.clock.advance(HOUR);
    const body = () => ({ email: uniqueEmail('v4'), password: PASSWORD, name: 'Four' });
    for (let i = 0; i < 10; i++)
      assert.equal(
        (
          await call(server.url, 'POST', '/auth/signup', {
            body: body(),
            headers: from(i % 2 === 0 ? '198.51.100.23' : '::ffff:198.51.100.23'),
          })
        ).status,
        201,
      );
    assertRefused(
      await call(server.url, 'POST', '/auth/signup', { body: body(), headers: from('198.51.100.23') }),
      429,
      'too_many_signups',
    );
    assertRefused(
      await call(server.url, 'POST', '/auth/signup', { body: body(), headers: from('::ffff:c633:6417') }),
      429,
      'too_many_signups',
    );
  });

  it('5 verification mails an hour to one address: the sign-up’s own and four resends', async () => {
    server.clock.advance(HOUR);
    const r = await call(server.url, 'POST', '/auth/signup', {
      body: { email: uniqueEmail('mails'), password: PASSWORD, name: 'Mails' },
      headers: from('203.0.113.50'),
    });
    assert.equal(r.status, 201);
    const token = r.body.idToken as string;
    for (let i = 0; i < 4; i++)
      assert.equal((await call(server.url, 'POST', '/auth/verify/resend', { token })).status, 202);
    assertRefused(await call(server.url, 'POST', '/auth/verify/resend', { token }), 429, 'too_many_attempts');
    const jobs = await jobsOf(server, 'account.verify_email', { userId: r.body.userId });
    assert.equal(jobs.length, 5, 'five mails queued, no sixth');
    server.clock.advance(HOUR);
    assert.equal((await call(server.url, 'POST', '/auth/verify/resend', { token })).status, 202);
  });
});

describe('every per-address limit counts an IPv6 client by its /64', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '5' } });
  });
  after(async () => {
    await server.close();
  });

  it('requests without a key: five from one /64, whatever the addresses; the next /64 has its own', async () => {
    server.clock.advance(60_000);
    const addresses = inOne64('2001:db8:aa:1', 6);
    for (const a of addresses.slice(0, 5))
      assert.equal((await call(server.url, 'GET', '/healthz', { headers: from(a) })).status, 200);
    assertRefused(
      await call(server.url, 'GET', '/healthz', { headers: from(addresses[5]!) }),
      429,
      'rate_limited',
    );
    assert.equal(
      (await call(server.url, 'GET', '/healthz', { headers: from('2001:db8:aa:2::1') })).status,
      200,
    );
  });

  it('bad webhook signatures: twenty from one /64 a minute, then 429', async () => {
    server.clock.advance(60_000);
    const addresses = inOne64('2001:db8:bb:1', 21);
    for (const a of addresses.slice(0, 20)) {
      const r = await call(server.url, 'POST', '/webhooks/razorpay', {
        raw: '{"event":"payment.captured"}',
        headers: { ...from(a), 'content-type': 'application/json', 'x-razorpay-signature': 'f'.repeat(64) },
      });
      assert.equal(r.status, 400, r.text);
    }
    const over = await call(server.url, 'POST', '/webhooks/razorpay', {
      raw: '{}',
      headers: {
        ...from(addresses[20]!),
        'content-type': 'application/json',
        'x-razorpay-signature': 'f'.repeat(64),
      },
    });
    assertRefused(over, 429, 'rate_limited');
  });

  it('sign-in failures: ten for an account from one /64, then 429 for that /64 only', async () => {
    // The failures are counted in fixed 15-minute windows; start at the beginning of one, so the
    // minutes this test moves the clock never carry it into the next (the clock starts at the real time).
    const window = LOGIN_PAIR_LIMIT.windowMs;
    server.clock.advance(window - (server.clock.now().getTime() % window));
    const a = await signup(server.url);
    server.clock.advance(60_000);
    const addresses = inOne64('2001:db8:cc:1', 11);
    for (const [i, address] of addresses.slice(0, 10).entries()) {
      if (i === 5) server.clock.advance(60_000); // the five requests a minute of the address
      assert.equal(
        (
          await call(server.url, 'POST', '/auth/login', {
            body: { email: a.email, password: 'wrong password!' },
            headers: from(address),
          })
        ).status,
        401,
      );
    }
    server.clock.advance(60_000);
    assertRefused(
      await call(server.url, 'POST', '/auth/login', {
        body: { email: a.email, password: PASSWORD },
        headers: from(addresses[10]!),
      }),
      429,
      'too_many_attempts',
    );
    assert.equal(
      (
        await call(server.url, 'POST', '/auth/login', {
          body: { email: a.email, password: PASSWORD },
          headers: from('2001:db8:cc:2::1'),
        })
      ).status,
      200,
    );
  });

  it('unpaid bookings: twenty per event from one /64, then 429 too_many_pending', {
    timeout: 120_000,
  }, async () => {
    server.clock.advance(60_000);
    const org = await organiser(server.url);
    const pk = await createKey(server.url, org.token, { class: 'checkout' });
    const eventId = await createEvent(keyApi(server.url, org.key), {
      title: 'Paid night',
      startDate: '2027-02-01',
      price: 100,
    });
    const book = (address: string) =>
      call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
        key: pk.key,
        body: { name: 'Buyer', email: uniqueEmail('pending') },
        headers: from(address),
      });
    const addresses = inOne64('2001:db8:dd:1', 21);
    for (const [i, address] of addresses.slice(0, 20).entries()) {
      if (i % 5 === 0) server.clock.advance(60_000); // the key's five requests a minute
      const r = await book(address);
      assert.equal(r.status, 201, r.text);
      assert.ok(r.body.orderId, 'a booking waiting for payment');
    }
    server.clock.advance(60_000);
    assertRefused(await book(addresses[20]!), 429, 'too_many_pending');
    assert.equal((await book('2001:db8:dd:2::1')).status, 201, 'another /64');
  });
});

describe('door rosters in memory stay within DOOR_ROSTER_MAX_PEOPLE', () => {
  let server: TestServer;
  let org: Awaited<ReturnType<typeof organiser>>;
  before(async () => {
    server = await startServer({ env: { DOOR_ROSTER_MAX_PEOPLE: '5' } });
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  /** An event with one team booking of `people` people; answers the event and the booking. */
  async function teamEvent(people: number): Promise<{ eventId: string; registrationId: string }> {
    const eventId = await createEvent(keyApi(server.url, org.key), {
      title: 'Team day',
      startDate: '2027-03-01',
      maxTeamSize: 10,
    });
    const teamMembers = Array.from({ length: people - 1 }, (_, i) => ({
      name: `Member ${i + 1}`,
      email: uniqueEmail(`m${i}`),
    }));
    const r = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'Lead', email: uniqueEmail('lead'), teamMembers },
    });
    assert.equal(r.status, 201, r.text);
    return { eventId, registrationId: r.body.registrationId };
  }
  const rosters = () => server.deps.door.rosters;
  /** A door lookup of the booking, then every roster read it set off. */
  async function scan(e: { eventId: string; registrationId: string }): Promise<void> {
    const r = await call(
      server.url,
      'GET',
      `/api/v1/events/${e.eventId}/check-in?registrationId=${e.registrationId}`,
      { key: org.key },
    );
    assert.equal(r.status, 200, r.text);
    await rosters().settled();
  }

  it('a roster that would take the rosters past the bound drops the least recently used; one larger than the bound alone is not kept', {
    timeout: 60_000,
  }, async () => {
    const a = await teamEvent(3);
    const b = await teamEvent(3);
    const c = await teamEvent(6);
    // A lookup builds a roster once the door's LISTEN connection is up.
    await rosters().whenListening();
    await scan(a);
    assert.deepEqual(rosters().held(), [a.eventId]);
    assert.equal(rosters().people, 3);
    await scan(b);
    assert.deepEqual(
      rosters().held(),
      [b.eventId],
      'A was used least recently: dropped to keep 6 people within 5',
    );
    assert.equal(rosters().people, 3);
    await scan(a);
    assert.deepEqual(rosters().held(), [a.eventId], 'built again at its next scan; B dropped');
    // Six people alone are more than the bound: not kept, A stays, and the door still answers (from the database).
    await scan(c);
    assert.deepEqual(rosters().held(), [a.eventId]);
    assert.equal(rosters().people, 3);
    const builds = async () => JSON.stringify((await rosters().metrics.refreshes.get()).values);
    const before = await builds();
    await scan(c);
    assert.equal(await builds(), before, 'not built again at once');
    assert.deepEqual(rosters().held(), [a.eventId]);
  });
});
