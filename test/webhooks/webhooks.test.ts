import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deliver } from '../../src/modules/webhooks/delivery.js';
import { DELIVERY_TIMEOUT_MS, deliveryJob } from '../../src/modules/webhooks/webhooks.service.js';
import { seal } from '../../src/lib/secret-box.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';

/** What a receiver does: the verification helper of docs/guides/webhooks.md, in test form. */
function verify(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  nowSeconds: number,
): boolean {
  const timestamp = Number(headers['x-service-timestamp']);
  const given = String(headers['x-service-signature'] ?? '').replace(/^sha256=/, '');
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

describe('webhook configuration', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });
  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  it('returns the secret once, never on read, and rotates it', async () => {
    assert.deepEqual((await api('GET', '/api/v1/webhooks')).body, { success: true, data: null });
    assert.equal(
      (await api('PUT', '/api/v1/webhooks', { enabled: true })).status,
      400,
      'url needed the first time',
    );
    const created = await api('PUT', '/api/v1/webhooks', { url: 'https://hooks.example.in/ticketing' });
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(created.body.data, {
      url: 'https://hooks.example.in/ticketing',
      enabled: true,
      secretSet: true,
      events: ['registration.confirmed'],
    });
    const read = await api('GET', '/api/v1/webhooks');
    assert.equal('secret' in read.body, false);
    assert.equal(read.text.includes(created.body.secret), false);
    assert.equal(read.body.data.secretSet, true);
    const toggled = await api('PUT', '/api/v1/webhooks', { enabled: false });
    assert.equal(toggled.body.data.enabled, false);
    assert.equal(
      toggled.body.data.url,
      'https://hooks.example.in/ticketing',
      'pausing keeps the configuration',
    );
    assert.equal('secret' in toggled.body, false);
    const rotated = await api('PUT', '/api/v1/webhooks', {
      rotateSecret: true,
      events: ['registration.confirmed', 'subscription.authenticated'],
    });
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, created.body.secret);
    assert.deepEqual(rotated.body.data.events, ['registration.confirmed', 'subscription.authenticated']);
    const row = await server.deps.db
      .selectFrom('webhook_configs')
      .selectAll()
      .where('account_id', '=', org.userId)
      .executeTakeFirstOrThrow();
    assert.equal(JSON.stringify(row).includes(rotated.body.secret), false, 'stored sealed, never in clear');
    assert.deepEqual((await api('DELETE', '/api/v1/webhooks')).body, { success: true, data: null });
    assert.equal((await api('GET', '/api/v1/webhooks')).body.data, null);
  });

  it('refuses a caller-supplied secret, bad URLs and unknown event types with 400', async () => {
    for (const body of [
      { url: 'https://hooks.example.in/x', secret: 'mine' },
      { url: 'http://hooks.example.in/x' },
      { url: 'https://127.0.0.1/x' },
      { url: 'https://[::1]/x' },
      { url: 'https://localhost/x' },
      { url: 'https://192.168.0.10/x' },
      { url: 'https://hooks.example.in/x', events: ['payment.succeeded'] },
      { url: 'https://hooks.example.in/x', events: ['registration.checked_in'] },
    ]) {
      const r = await api('PUT', '/api/v1/webhooks', body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    assert.equal((await api('GET', '/api/v1/webhooks')).body.data, null, 'nothing stored');
  });

  it('scopes the configuration to the key’s mode', async () => {
    await api('PUT', '/api/v1/webhooks', { url: 'https://hooks.example.in/test' });
    const live = await call(server.url, 'POST', '/dashboard/api/keys', {
      token: org.token,
      body: { mode: 'live', class: 'full' },
    });
    const r = await call(server.url, 'GET', '/api/v1/webhooks', { key: live.body.key });
    assert.equal(r.body.data, null);
  });
});

describe('webhook delivery', () => {
  let server: TestServer;
  let receiver: Receiver;
  let org: Account & KeyInfo;
  before(async () => {
    server = await startServer({ isolatedDatabase: true, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver();
    org = await organiser(server.url);
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const event = (fields: Record<string, unknown> = {}) => createEvent(api, { title: 'Hooked', ...fields });
  async function deliveries() {
    return (await api('GET', '/api/v1/webhooks/deliveries')).body.data as any[];
  }
  const until = (n: number) => drainJobs(server, async () => receiver.received.length >= n);

  it('delivers a signed registration.confirmed that a receiver can verify; rotation stops the old secret', async () => {
    const secret = (await api('PUT', '/api/v1/webhooks', { url: `${receiver.url}/hook` })).body
      .secret as string;
    const eventId = await event({ maxTeamSize: 3 });
    const reg = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Primary',
      email: uniqueEmail('primary'),
      teamMembers: [
        { name: 'M1', email: uniqueEmail('m1') },
        { name: 'M2', email: uniqueEmail('m2') },
      ],
    });
    assert.equal(reg.status, 201);
    await until(1);
    assert.equal(receiver.received.length, 1, 'one delivery for a team booking');
    const got = receiver.received[0]!;
    assert.equal(got.path, '/hook');
    assert.equal(got.headers['content-type'], 'application/json');
    const now = Math.floor(server.clock.now().getTime() / 1000);
    assert.ok(verify(secret, got.headers, got.body, now), 'signature verifies');
    assert.match(String(got.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    const body = JSON.parse(got.body);
    assert.equal(body.type, 'registration.confirmed');
    assert.equal(body.mode, 'test');
    assert.equal(body.id, got.headers['x-service-event-id']);
    assert.ok(Date.parse(body.createdAt) > 0);
    assert.equal(body.data.registrationId, reg.body.registrationId);
    assert.equal(body.data.name, 'Primary');
    assert.equal(body.data.eventTitle, 'Hooked');
    assert.equal(body.data.ticketType, 'General');
    assert.equal(body.data.quantity, 3);
    assert.equal(verify('whsec_wrong', got.headers, got.body, now), false);
    assert.equal(verify(secret, got.headers, got.body.replace('Primary', 'Forged'), now), false);

    const list = await deliveries();
    assert.equal(list[0].statusCode, 200);
    assert.equal(list[0].eventId, body.id);
    assert.equal(list[0].ok, true);

    const rotated = (await api('PUT', '/api/v1/webhooks', { rotateSecret: true })).body.secret as string;
    await api('POST', `/api/v1/events/${eventId}/register`, { name: 'Second', email: uniqueEmail('s') });
    await until(2);
    const second = receiver.received[1]!;
    assert.ok(verify(rotated, second.headers, second.body, now));
    assert.equal(
      verify(secret, second.headers, second.body, now),
      false,
      'the old secret no longer verifies',
    );
  });

  it('sends nothing while paused, and again when re-enabled', async () => {
    await api('PUT', '/api/v1/webhooks', { url: `${receiver.url}/hook`, enabled: false });
    const before = receiver.received.length;
    const eventId = await event();
    await api('POST', `/api/v1/events/${eventId}/register`, { name: 'Paused', email: uniqueEmail('paused') });
    await server.deps.jobs.runOnce();
    assert.equal(receiver.received.length, before);
    await api('PUT', '/api/v1/webhooks', { enabled: true });
    await api('POST', `/api/v1/events/${eventId}/register`, { name: 'Back', email: uniqueEmail('back') });
    await until(before + 1);
    assert.equal(JSON.parse(receiver.received.at(-1)!.body).data.name, 'Back');
  });

  it('does not follow a redirect', async () => {
    await api('PUT', '/api/v1/webhooks', { url: `${receiver.url}/moved`, enabled: true });
    receiver.behave({ redirectTo: `${receiver.url}/elsewhere` });
    const before = receiver.received.length;
    const eventId = await event();
    await api('POST', `/api/v1/events/${eventId}/register`, { name: 'R', email: uniqueEmail('r') });
    await drainJobs(server, async () => (await deliveries()).some((d) => d.statusCode === 302));
    assert.equal(receiver.received.length, before + 1);
    assert.ok(receiver.received.every((r) => r.path !== '/elsewhere'));
    receiver.behave({});
  });

  it('cuts a slow receiver at 5 seconds on the delivery’s timer and records the timeout', async (t) => {
    await api('PUT', '/api/v1/webhooks', { url: `${receiver.url}/slow`, enabled: true });
    const before = receiver.received.length;
    // The delivery's deadline is a setTimeout, driven here by the test runner's mock timers
    // (the receiver's 8 s delay is one too, and never comes).
    t.mock.timers.enable({ apis: ['setTimeout'] });
    receiver.behave({ delayMs: 8000 });
    const payload = {
      eventId: 'evt_slow',
      createdAt: server.clock.now().toISOString(),
      accountId: org.userId,
      mode: 'test' as const,
      type: 'registration.confirmed' as const,
      data: {},
    };
    const job = settles(
      deliveryJob(
        { db: server.deps.db, clock: server.deps.clock, ids: server.deps.ids, config: server.deps.config },
        payload,
      ),
    );
    await waitFor(() => receiver.received.length > before, 'the receiver got the delivery');
    assert.equal(DELIVERY_TIMEOUT_MS, 5000);
    t.mock.timers.tick(DELIVERY_TIMEOUT_MS - 1);
    await turns();
    assert.equal(job.done, false, 'still waiting 1 ms before the timeout');
    t.mock.timers.tick(1);
    // Then the delivery is recorded (a database round trip; the next test pins the instant).
    await job.promise;
    t.mock.timers.reset();
    receiver.behave({});
    const d = (await deliveries()).find((x) => x.eventId === 'evt_slow');
    assert.ok(d, 'the delivery is recorded');
    assert.equal(d.error, 'timeout after 5000 ms');
    assert.equal(d.statusCode, null);
    assert.equal(d.ok, false);
  });
});

describe('one delivery to a receiver that never answers', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
  });

  it('gives up at its timeout by its own timer, and measures the time on the clock it is given', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    receiver.behave({ delayMs: 60_000 });
    const result = settles(
      deliver({
        url: `${receiver.url}/never`,
        body: '{}',
        headers: {},
        timeoutMs: 5000,
        allowPrivate: true,
        now: () => Date.now(),
      }),
    );
    await waitFor(() => receiver.received.length === 1, 'the receiver got the request');
    t.mock.timers.tick(4999);
    await turns();
    assert.equal(result.done, false, 'still waiting 1 ms before the timeout');
    t.mock.timers.tick(1);
    await turns();
    assert.equal(result.done, true, 'given up at the timeout');
    assert.deepEqual(await result.promise, {
      statusCode: null,
      error: 'timeout after 5000 ms',
      durationMs: 5000,
    });
  });
});

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
/** Waits for observable state (a request reaching the receiver), for at most 10 s. */
async function waitFor(cond: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await turns(1);
  }
}

describe('webhook delivery refusals with private URLs not allowed', () => {
  let server: TestServer;
  let receiver: Receiver;
  let org: Account & KeyInfo;
  let dns: DnsServer;
  before(async () => {
    // A public-looking name that the local DNS server points at loopback.
    dns = await startDnsServer({
      'hooks.sneaky-organiser.in': { a: ['127.0.0.1'] },
      'v6.sneaky-organiser.in': { aaaa: ['::1'] },
    });
    server = await startServer({ isolatedDatabase: true, env: { DNS_SERVERS: dns.address } });
    receiver = await startReceiver();
    org = await organiser(server.url);
  });
  after(async () => {
    await receiver.close();
    await server.close();
    await dns.close();
  });

  it('refuses a configured name that resolves to loopback at delivery time', async () => {
    for (const host of ['hooks.sneaky-organiser.in', 'v6.sneaky-organiser.in']) {
      // Port 443: other ports are refused when the URL is configured.
      const put = await call(server.url, 'PUT', '/api/v1/webhooks', {
        key: org.key,
        body: { url: `https://${host}/hook` },
      });
      assert.equal(put.status, 200, 'the name looks public when configured');
      const eventId = await createEvent(keyApi(server.url, org.key), {
        title: 'x',
        description: 'y',
        startDate: '2026-12-01',
      });
      await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
        key: org.key,
        body: { name: 'N', email: uniqueEmail('n') },
      });
      const list = async () =>
        (await call(server.url, 'GET', '/api/v1/webhooks/deliveries', { key: org.key })).body.data as any[];
      await drainJobs(server, async () => (await list()).some((d) => d.url.includes(host)));
      const d = (await list()).find((x) => x.url.includes(host));
      assert.equal(d.statusCode, null);
      assert.match(d.error, /^refused: .* non-public address/);
    }
    assert.equal(receiver.received.length, 0, 'no traffic reached the receiver');
  });

  // A URL that was public when configured can point inside by delivery time; the
  // check happens again at delivery. Write such configurations straight to the table.
  for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
    it(`refuses to deliver to ${host} and records the refusal`, async () => {
      await server.deps.db
        .insertInto('webhook_configs')
        .values({
          account_id: org.userId,
          mode: 'test',
          url: `https://${host}:${receiver.port}/hook`,
          enabled: true,
          events: JSON.stringify(['registration.confirmed']),
          secret_sealed: seal(server.deps.config.secretsKey, 'whsec_test'),
          created_at: new Date(),
          updated_at: new Date(),
        })
        .onConflict((oc) =>
          oc.columns(['account_id', 'mode']).doUpdateSet({ url: `https://${host}:${receiver.port}/hook` }),
        )
        .execute();
      const eventId = await createEvent(keyApi(server.url, org.key), {
        title: 'x',
        description: 'y',
        startDate: '2026-12-01',
      });
      await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
        key: org.key,
        body: { name: 'N', email: uniqueEmail('n') },
      });
      const list = async () =>
        (await call(server.url, 'GET', '/api/v1/webhooks/deliveries', { key: org.key })).body.data as any[];
      await drainJobs(server, async () => (await list()).some((d) => d.url.includes(host)));
      const d = (await list()).find((x) => x.url.includes(host));
      assert.equal(d.statusCode, null);
      assert.match(d.error, /^refused/);
      assert.equal(receiver.received.length, 0, 'no traffic reached the receiver');
    });
  }
});
