// Idempotency keys (docs/decisions/19-developers-and-operators.md): a POST under /api/v1 with Idempotency-Key acts
// once, on one instance or several; replays answer the stored answer; another request under
// the same key is 422; a request still running is 409; 5xx answers are not kept; keys live
// 24 hours by the injected clock.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('Idempotency-Key on POST /api/v1', () => {
  let one: TestServer;
  let two: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    one = await startServer({ isolatedDatabase: true, env: { STAFF_EMAILS: staffEmail } });
    // A second instance on the same database, as behind a load balancer.
    two = await startServer({ shareDatabaseWith: one });
    org = await organiser(one.url);
    const staff = await signup(one.url, { email: staffEmail });
    await call(one.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await two.close();
    await one.close();
  });

  const post = (server: TestServer, path: string, body: unknown, key?: string) =>
    call(server.url, 'POST', path, {
      key: org.key,
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  async function freeEvent(): Promise<string> {
    const r = await post(one, '/api/v1/events', {
      title: 'Meetup',
      description: 'x',
      startDate: '2027-02-01',
      capacity: 50,
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(
      (
        await call(one.url, 'PATCH', `/api/v1/events/${r.body.data.id}`, {
          key: org.key,
          body: { status: 'published' },
        })
      ).status,
      200,
    );
    return r.body.data.id;
  }
  const count = async (eventId: string) =>
    (await call(one.url, 'GET', `/api/v1/events/${eventId}/registrations`, { key: org.key })).body
      .count as number;

  it('a retried registration acts once and replays the same answer, on either instance', async () => {
    const eventId = await freeEvent();
    const key = randomUUID();
    const body = { name: 'Asha', email: uniqueEmail('asha') };
    const first = await post(one, `/api/v1/events/${eventId}/register`, body, key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await post(
      two,
      `/api/v1/events/${eventId}/register`,
      { email: body.email, name: body.name },
      key,
    );
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body, 'the stored answer, key order of the body notwithstanding');
    assert.equal(await count(eventId), 1, 'one booking');
    // Without a key, the same body books again: keys are opt-in.
    assert.equal(
      (await post(one, `/api/v1/events/${eventId}/register`, { name: 'Asha', email: uniqueEmail('asha2') }))
        .status,
      201,
    );
    assert.equal(await count(eventId), 2);
  });

  it('the same key with another body is 422 idempotency_key_reused and changes nothing', async () => {
    const eventId = await freeEvent();
    const key = randomUUID();
    assert.equal(
      (await post(one, `/api/v1/events/${eventId}/register`, { name: 'A', email: uniqueEmail('a') }, key))
        .status,
      201,
    );
    const other = await post(
      two,
      `/api/v1/events/${eventId}/register`,
      { name: 'B', email: uniqueEmail('b') },
      key,
    );
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body.code, 'idempotency_key_reused');
    assert.equal(await count(eventId), 1);
  });

  it('concurrent duplicates across two processes act once; none fails', async () => {
    const eventId = await freeEvent();
    const key = randomUUID();
    const body = { name: 'Ravi', email: uniqueEmail('ravi') };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(i % 2 === 0 ? one : two, `/api/v1/events/${eventId}/register`, body, key),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      `statuses ${statuses.join(',')}`,
    );
    for (const a of answers.filter((x) => x.status === 409))
      assert.equal(a.body.code, 'idempotency_key_in_flight');
    const created = answers.filter((a) => a.status === 201);
    assert.ok(created.length >= 1);
    for (const a of created) assert.equal(a.body.registrationId, created[0]!.body.registrationId);
    assert.equal(await count(eventId), 1, 'one booking for twelve requests');
    const later = await post(two, `/api/v1/events/${eventId}/register`, body, key);
    assert.deepEqual(
      [later.status, later.headers.get('idempotent-replayed'), later.body.registrationId],
      [201, 'true', created[0]!.body.registrationId],
    );
  });

  it('a checkout key never replays a full key’s answer under the same key: 422', async () => {
    const eventId = await freeEvent();
    const key = randomUUID();
    const body = { name: 'Lata', email: uniqueEmail('lata') };
    assert.equal((await post(one, `/api/v1/events/${eventId}/register`, body, key)).status, 201);
    const checkout = (await createKey(one.url, org.token, { class: 'checkout' })).key;
    const r = await call(one.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: checkout,
      body,
      headers: { 'idempotency-key': key },
    });
    assert.deepEqual([r.status, r.body.code], [422, 'idempotency_key_reused']);
  });

  it('a malformed key is 400 and nothing is done', async () => {
    const eventId = await freeEvent();
    const long = await post(
      one,
      `/api/v1/events/${eventId}/register`,
      { name: 'A', email: uniqueEmail('a') },
      'x'.repeat(256),
    );
    assert.deepEqual(
      [long.status, long.body.code],
      [400, 'invalid_request'],
      'longer than the documented 255',
    );
    assert.match(long.body.error, /idempotency-key/);
    const spaced = await post(
      one,
      `/api/v1/events/${eventId}/register`,
      { name: 'A', email: uniqueEmail('a') },
      'two words',
    );
    assert.deepEqual([spaced.status, spaced.body.code], [400, 'invalid_idempotency_key']);
    assert.equal(await count(eventId), 0);
  });

  it('a refused request keeps nothing under its key: the retry runs again', async () => {
    const eventId = await freeEvent();
    const key = randomUUID();
    const refused = await post(
      one,
      `/api/v1/events/${eventId}/register`,
      { name: 'A', email: 'not-an-address' },
      key,
    );
    assert.deepEqual(
      [refused.status, refused.body.code],
      [400, 'undeliverable_email'],
      'refused by the service, after the key was taken',
    );
    const rows = await one.deps.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', key)
      .execute();
    assert.deepEqual(rows, [], 'no row left by a refusal');
    const again = await post(
      two,
      `/api/v1/events/${eventId}/register`,
      { name: 'A', email: 'not-an-address' },
      key,
    );
    assert.deepEqual([again.status, again.headers.get('idempotent-replayed')], [400, null]);
    // The key is free for the corrected request.
    assert.equal(
      (await post(one, `/api/v1/events/${eventId}/register`, { name: 'A', email: uniqueEmail('a') }, key))
        .status,
      201,
    );
  });

  it('a key is kept 24 hours by the service’s clock, then free for another request', async () => {
    const eventId = await freeEvent();
    const key = randomUUID();
    assert.equal(
      (await post(one, `/api/v1/events/${eventId}/register`, { name: 'A', email: uniqueEmail('a') }, key))
        .status,
      201,
    );
    one.clock.advance(23 * 3_600_000);
    assert.equal(
      (await post(one, `/api/v1/events/${eventId}/register`, { name: 'B', email: uniqueEmail('b') }, key))
        .status,
      422,
    );
    one.clock.advance(2 * 3_600_000);
    const fresh = await post(
      one,
      `/api/v1/events/${eventId}/register`,
      { name: 'B', email: uniqueEmail('b') },
      key,
    );
    assert.equal(fresh.status, 201, fresh.text);
    assert.equal(fresh.headers.get('idempotent-replayed'), null);
  });
});

describe('Idempotency-Key and gateway failures', () => {
  const creds = { keyId: 'rzp_live_Idempotency001', keySecret: 'idempotencysecret00000001' };
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      isolatedDatabase: true,
      env: { ...gatewayEnv(rzp, creds), RAZORPAY_TIMEOUT_MS: '1500', STAFF_EMAILS: staffEmail },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await server.close();
    await rzp.close();
  });

  it('a request still running is 409; its 502 is not kept, so the retry runs again and books once', async () => {
    const eventId = await createEvent(
      keyApi(server.url, org.key),
      { title: 'Paid', startDate: '2027-02-01', price: 300 },
      { publish: true },
    );
    /** A booking's step 1 sent with an idempotency key. */
    const registerOnce = (key: string, body: unknown) =>
      call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
        key: org.key,
        body,
        headers: { 'idempotency-key': key },
      });
    const key = randomUUID();
    const body = { name: 'Meera', email: uniqueEmail('meera') };
    // The gateway holds the order's answer far past the service's timeout.
    rzp.fail(/POST \/v1\/orders/, { delayMs: 600_000 });
    const seen = rzp.requests.length;
    const running = registerOnce(key, body);
    // Wait until the first request is at the gateway (an event, not a timer race).
    while (!rzp.requests.slice(seen).some((q) => q.method === 'POST' && q.path === '/v1/orders'))
      await new Promise((r) => setImmediate(r));
    const duplicate = await registerOnce(key, body);
    assert.equal(duplicate.status, 409, duplicate.text);
    assert.equal(duplicate.body.code, 'idempotency_key_in_flight');
    assert.ok(duplicate.headers.get('retry-after'));
    const first = await running;
    assert.equal(first.status, 502, first.text);
    const retried = await registerOnce(key, body);
    assert.equal(retried.status, 201, retried.text);
    assert.equal(retried.headers.get('idempotent-replayed'), null, 'the 502 was not kept: the retry ran');
    const replay = await registerOnce(key, body);
    assert.deepEqual([replay.status, replay.body.orderId], [201, retried.body.orderId]);
  });
});
