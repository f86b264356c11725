// The authorisation matrix of the spec's Authentication 6–8, row by row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createKey, organiser, signup, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';

describe('authorisation matrix', () => {
  let server: TestServer;
  let owner: Account & KeyInfo;
  let eventId: string;

  before(async () => {
    server = await startServer();
    owner = await organiser(server.url);
    eventId = await createEvent(keyApi(server.url, owner.key), { title: 'Private', startDate: '2026-12-01' });
  });
  after(async () => {
    await server.close();
  });

  const get = (path: string, options: Parameters<typeof call>[3] = {}) =>
    call(server.url, 'GET', path, options);

  it('missing x-api-key: 401', async () => {
    const r = await get(`/api/v1/events/${eventId}`);
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'missing_api_key');
  });

  it('unrecognised key: 401', async () => {
    for (const key of ['sk_test_' + 'A'.repeat(32), 'nonsense', 'pk_live_' + 'b'.repeat(32)]) {
      const r = await get(`/api/v1/events/${eventId}`, { key });
      assert.equal(r.status, 401, key);
      assert.equal(r.body.code, 'invalid_api_key');
    }
  });

  it('revoked key: 403, at once', async () => {
    const k = await createKey(server.url, owner.token);
    assert.equal((await get('/api/v1/me', { key: k.key })).status, 200);
    assert.equal(
      (await call(server.url, 'DELETE', `/dashboard/api/keys/${k.keyId}`, { token: owner.token })).status,
      200,
    );
    const r = await get('/api/v1/me', { key: k.key });
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'api_key_revoked');
  });

  it('wrong origin for a pinned checkout key: 403', async () => {
    const k = await createKey(server.url, owner.token, {
      class: 'checkout',
      allowedOrigin: 'https://tickets.organiser.in',
    });
    const wrong = await get(`/api/v1/events/${eventId}`, {
      key: k.key,
      headers: { origin: 'https://evil.example.com' },
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.code, 'origin_not_allowed');
    assert.equal(wrong.headers.get('access-control-allow-origin'), null);
    const right = await get(`/api/v1/events/${eventId}`, {
      key: k.key,
      headers: { origin: 'https://tickets.organiser.in' },
    });
    assert.equal(right.status, 200);
    assert.equal(right.headers.get('access-control-allow-origin'), 'https://tickets.organiser.in');
  });

  it('another account’s event: 403; another mode’s: 404', async () => {
    const stranger = await organiser(server.url);
    const r = await get(`/api/v1/events/${eventId}`, { key: stranger.key });
    assert.equal(r.status, 403);
    const live = await createKey(server.url, owner.token, { mode: 'live' });
    assert.equal((await get(`/api/v1/events/${eventId}`, { key: live.key })).status, 404);
  });

  it('checkout key reaching attendee data, creating events or emailing people: 403', async () => {
    const k = await createKey(server.url, owner.token, { class: 'checkout' });
    for (const [method, path, body] of [
      ['GET', `/api/v1/events/${eventId}/registrations`, undefined],
      ['GET', `/api/v1/events/${eventId}/check-in?registrationId=x`, undefined],
      ['GET', '/api/v1/memberships/members', undefined],
      // fixture-exception: which key may create an event is the subject
      ['POST', '/api/v1/events', { title: 'x', description: 'y', startDate: '2026-12-01' }],
      ['POST', `/api/v1/events/${eventId}/broadcast`, { subject: 's', message: 'm' }],
      ['GET', '/api/v1/webhooks', undefined],
    ] as const) {
      const r = await call(server.url, method, path, { key: k.key, body });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.code, 'checkout_key_not_allowed');
    }
  });

  it('event deletion with a key instead of a session: 401 Missing Authorization Bearer token', async () => {
    const r = await call(server.url, 'DELETE', `/api/v1/events/${eventId}`, { key: owner.key });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'Missing Authorization Bearer token');
  });

  it('publishing a live event without organiser access: 403', async () => {
    const live = await createKey(server.url, owner.token, { mode: 'live' });
    const liveEvent = await createEvent(keyApi(server.url, live.key), {
      title: 'Live',
      startDate: '2026-12-01',
    });
    const r = await call(server.url, 'PATCH', `/api/v1/events/${liveEvent}`, {
      key: live.key,
      body: { status: 'published' },
    });
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'organiser_access_required');
  });

  it('dashboard routes refuse keys and take sessions', async () => {
    assert.equal((await get('/dashboard/api/keys', { key: owner.key })).status, 401);
    assert.equal((await get('/dashboard/api/keys', { token: owner.token })).status, 200);
    const user = await signup(server.url);
    assert.equal(
      (
        await call(server.url, 'POST', `/admin/api/accounts/${user.userId}/organiser-access`, {
          token: user.token,
          body: { canPublish: true },
        })
      ).status,
      403,
    );
  });
});
