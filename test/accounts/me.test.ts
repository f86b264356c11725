import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createKey, signup } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('GET /api/v1/me', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('answers the spec identity table for the key that called', async () => {
    const account = await signup(server.url, { name: 'Asha Rao' });
    const k = await createKey(server.url, account.token, { mode: 'test', class: 'full' });
    const r = await call(server.url, 'GET', '/api/v1/me', { key: k.key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      userId: account.userId,
      mode: 'test',
      class: 'full',
      emailVerified: true,
      email: account.email,
      name: 'Asha Rao',
      phone: null,
      isOrganizer: true,
      canPublish: false,
      events: { total: 0, draft: 0, published: 0 },
      apiKeyId: k.keyId,
    });
  });

  it('reports the id of whichever key made the request', async () => {
    const account = await signup(server.url);
    const a = await createKey(server.url, account.token, { mode: 'test', class: 'full' });
    const b = await createKey(server.url, account.token, { mode: 'live', class: 'checkout' });
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: a.key })).body.apiKeyId, a.keyId);
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: b.key })).body.apiKeyId, b.keyId);
  });

  it('answers a checkout key with the account id and key facts only: nothing personal', async () => {
    const account = await signup(server.url, { name: 'Asha Rao' });
    for (const mode of ['test', 'live'] as const) {
      const k = await createKey(server.url, account.token, {
        mode,
        class: 'checkout',
        allowedOrigin: 'https://shop.organiser.in',
      });
      const r = await call(server.url, 'GET', '/api/v1/me', { key: k.key });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { userId: account.userId, apiKeyId: k.keyId, mode, class: 'checkout' });
      assert.ok(!r.text.includes(account.email) && !r.text.includes('Asha'));
    }
  });
});
