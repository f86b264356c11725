// API keys (docs/decisions/02-accounts-sessions-and-keys.md, the OpenAPI document's security schemes): creation through the
// dashboard, storage as sha256 only, revocation, and origin pinning with CORS.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, createKey, signup, type Account } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Preflights are answered from every pinned key in the database; on PostgreSQL that database is shared by all test files. */
const uniqueOrigin = () => `https://shop-${randomBytes(6).toString('hex')}.example.in`;

describe('API keys', () => {
  let server: TestServer;
  let owner: Account;
  before(async () => {
    server = await startServer();
    owner = await signup(server.url);
  });
  after(async () => {
    await server.close();
  });

  const create = (body: Record<string, unknown>, token = owner.token) =>
    call(server.url, 'POST', '/dashboard/api/keys', { token, body });
  const me = (key?: string, headers: Record<string, string> = {}) =>
    call(server.url, 'GET', '/api/v1/me', { ...(key === undefined ? {} : { key }), headers });

  describe('creation', () => {
    const cases = [
      { class: 'full', mode: 'test', prefix: 'sk_test_' },
      { class: 'full', mode: 'live', prefix: 'sk_live_' },
      { class: 'checkout', mode: 'test', prefix: 'pk_test_' },
      { class: 'checkout', mode: 'live', prefix: 'pk_live_' },
    ] as const;
    for (const c of cases) {
      it(`${c.class} ${c.mode} keys start ${c.prefix} and carry at least 128 random bits`, async () => {
        const seen = new Set<string>();
        for (let i = 0; i < 3; i++) {
          const r = await create({ mode: c.mode, class: c.class, name: `  ${c.class} ${c.mode} ${i}  ` });
          assert.equal(r.status, 201, r.text);
          const key: string = r.body.key;
          assert.ok(key.startsWith(c.prefix), key);
          const random = key.slice(c.prefix.length);
          // base64url: 6 bits a character, so 128 bits need at least 22 characters.
          assert.match(random, /^[A-Za-z0-9_-]+$/);
          assert.ok(random.length * 6 >= 128, `only ${random.length} random characters`);
          seen.add(random);
          assert.equal(r.body.success, true);
          assert.equal(r.body.data.class, c.class);
          assert.equal(r.body.data.mode, c.mode);
          assert.equal(r.body.data.name, `${c.class} ${c.mode} ${i}`);
          assert.equal(r.body.data.allowedOrigin, null);
          assert.equal(r.body.data.revokedAt, null);
          assert.match(r.body.data.id, /^key_/);
          assert.ok(key.startsWith(r.body.data.prefix));
          assert.ok(r.body.data.prefix.length < 16, `prefix ${r.body.data.prefix} gives away too much`);
          assert.equal(Object.values(r.body.data).includes(key), false);
        }
        assert.equal(seen.size, 3);
      });
    }

    it('a key without a name gets one from its mode and class', async () => {
      const r = await create({ mode: 'live', class: 'checkout' });
      assert.equal(r.status, 201);
      assert.equal(typeof r.body.data.name, 'string');
      assert.notEqual(r.body.data.name, '');
    });

    it('refuses a bad mode, class or unknown field with 400', async () => {
      for (const body of [
        { mode: 'prod', class: 'full' },
        { mode: 'test', class: 'admin' },
        { class: 'full' },
        { mode: 'test', class: 'full', scope: 'all' },
      ]) {
        const r = await create(body);
        assert.equal(r.status, 400, JSON.stringify(body));
      }
    });

    it('needs a session: no token is 401, an API key is 401', async () => {
      const k = await createKey(server.url, owner.token);
      assert.equal(
        (await call(server.url, 'POST', '/dashboard/api/keys', { body: { mode: 'test', class: 'full' } }))
          .status,
        401,
      );
      const withKey = await call(server.url, 'POST', '/dashboard/api/keys', {
        key: k.key,
        body: { mode: 'test', class: 'full' },
      });
      assert.equal(withKey.status, 401);
      assert.equal(withKey.body.error, 'Missing Authorization Bearer token');
      assert.equal((await call(server.url, 'GET', '/dashboard/api/keys', { key: k.key })).status, 401);
    });
  });

  describe('storage and listing', () => {
    it('the key is shown once: the list has its prefix but never the key', async () => {
      const account = await signup(server.url);
      const made = [];
      for (const spec of [
        { mode: 'test', class: 'full' },
        { mode: 'live', class: 'checkout', allowedOrigin: uniqueOrigin() },
      ] as const) {
        const r = await create(spec, account.token);
        assert.equal(r.status, 201);
        made.push({ key: r.body.key as string, data: r.body.data });
      }
      const list = await call(server.url, 'GET', '/dashboard/api/keys', { token: account.token });
      assert.equal(list.status, 200);
      assert.equal(list.body.success, true);
      assert.equal(list.body.data.length, 2);
      for (const m of made) {
        assert.ok(!list.text.includes(m.key), 'the list contains a key');
        const listed = list.body.data.find((d: { id: string }) => d.id === m.data.id);
        assert.deepEqual(listed, m.data);
        assert.ok(m.key.startsWith(listed.prefix));
        assert.equal('key' in listed, false);
      }
      // Another account's list does not show them.
      const other = await call(server.url, 'GET', '/dashboard/api/keys', { token: owner.token });
      for (const m of made) assert.ok(!other.body.data.some((d: { id: string }) => d.id === m.data.id));
    });

    it('the api_keys table holds sha256(key) and no part of the key longer than 15 characters', async () => {
      const account = await signup(server.url);
      const keys = [
        await createKey(server.url, account.token, { mode: 'test', class: 'full' }),
        await createKey(server.url, account.token, { mode: 'live', class: 'full' }),
        await createKey(server.url, account.token, {
          mode: 'test',
          class: 'checkout',
          allowedOrigin: uniqueOrigin(),
        }),
      ];
      // Every row, not only this account's: no column anywhere may hold the key.
      const rows = await server.deps.db.selectFrom('api_keys').selectAll().execute();
      const cells = rows.flatMap((row) =>
        Object.values(row).map((v) => (v instanceof Date ? v.toISOString() : v === null ? '' : String(v))),
      );
      for (const { key, keyId } of keys) {
        for (let i = 0; i + 16 <= key.length; i++) {
          const piece = key.slice(i, i + 16);
          const hit = cells.find((cell) => cell.includes(piece));
          assert.equal(hit, undefined, `"${piece}" of a key is stored in api_keys`);
        }
        const row = rows.find((r) => r.id === keyId)!;
        assert.ok(row);
        assert.equal(row.key_hash, createHash('sha256').update(key).digest('hex'));
      }
    });
  });

  describe('use and revocation', () => {
    it('GET /api/v1/me reports the apiKeyId of the calling key', async () => {
      const a = await createKey(server.url, owner.token, { mode: 'test', class: 'full' });
      const b = await createKey(server.url, owner.token, { mode: 'live', class: 'checkout' });
      for (const k of [a, b]) {
        const r = await me(k.key);
        assert.equal(r.status, 200);
        assert.equal(r.body.apiKeyId, k.keyId);
        assert.equal(r.body.userId, owner.userId);
      }
    });

    it('DELETE sets revokedAt; the key then answers 403 api_key_revoked; revoking again keeps the first time', async () => {
      const k = await createKey(server.url, owner.token);
      assert.equal((await me(k.key)).status, 200);
      const r = await call(server.url, 'DELETE', `/dashboard/api/keys/${k.keyId}`, { token: owner.token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.success, true);
      assert.equal(r.body.data.id, k.keyId);
      assert.equal(r.body.data.revokedAt, server.clock.now().toISOString());
      const after = await me(k.key);
      assert.equal(after.status, 403);
      assert.equal(after.body.code, 'api_key_revoked');
      const listed = (
        await call(server.url, 'GET', '/dashboard/api/keys', { token: owner.token })
      ).body.data.find((d: { id: string }) => d.id === k.keyId);
      assert.equal(listed.revokedAt, r.body.data.revokedAt);

      server.clock.advance(60_000);
      const again = await call(server.url, 'DELETE', `/dashboard/api/keys/${k.keyId}`, {
        token: owner.token,
      });
      assert.equal(again.status, 200);
      assert.equal(again.body.data.revokedAt, r.body.data.revokedAt);
      assert.equal((await me(k.key)).status, 403);
    });

    it('revoking another account’s key is 404 and leaves the key working', async () => {
      const k = await createKey(server.url, owner.token);
      const stranger = await signup(server.url);
      const r = await call(server.url, 'DELETE', `/dashboard/api/keys/${k.keyId}`, { token: stranger.token });
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 'key_not_found');
      assert.equal((await me(k.key)).status, 200);
      const unknown = await call(server.url, 'DELETE', '/dashboard/api/keys/key_nosuchkey', {
        token: owner.token,
      });
      assert.equal(unknown.status, 404);
    });

    it('an unknown key is 401 invalid_api_key; no key is 401 missing_api_key', async () => {
      const real = await createKey(server.url, owner.token);
      // Same shape as a real key, one character changed; and things that are not keys at all.
      const altered = real.key.slice(0, -1) + (real.key.endsWith('A') ? 'B' : 'A');
      for (const key of [
        altered,
        'sk_test_' + 'x'.repeat(32),
        'pk_live_' + 'y'.repeat(32),
        'nonsense',
        real.key.slice(0, 12),
      ]) {
        const r = await me(key);
        assert.equal(r.status, 401, key);
        assert.equal(r.body.code, 'invalid_api_key', key);
      }
      for (const headers of [{}, { 'x-api-key': '' }] as Record<string, string>[]) {
        const r = await me(undefined, headers);
        assert.equal(r.status, 401);
        assert.equal(r.body.code, 'missing_api_key');
      }
    });
  });

  describe('allowedOrigin', () => {
    it('is refused on a full key (400)', async () => {
      for (const mode of ['test', 'live']) {
        const r = await create({ mode, class: 'full', allowedOrigin: uniqueOrigin() });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.code, 'origin_needs_checkout_key');
      }
    });

    it('must be a scheme and host only (400 with a path, query, credentials or another scheme)', async () => {
      const base = uniqueOrigin();
      for (const allowedOrigin of [
        `${base}/checkout`,
        `${base}/a/b`,
        `${base}?x=1`,
        `${base}#top`,
        base.replace('https://', 'https://user:pw@'),
        base.replace('https://', 'ftp://'),
        'shop.example.in',
        'not a url',
        '',
      ]) {
        const r = await create({ mode: 'test', class: 'checkout', allowedOrigin });
        assert.equal(r.status, 400, allowedOrigin);
        assert.equal(r.body.code, 'invalid_origin', allowedOrigin);
      }
    });

    it('is normalised to its origin: a trailing slash and upper case are dropped, a port kept', async () => {
      const base = uniqueOrigin();
      const r = await create({
        mode: 'test',
        class: 'checkout',
        allowedOrigin: `${base.toUpperCase().replace('HTTPS', 'https')}/`,
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.data.allowedOrigin, base);
      const withPort = await create({ mode: 'test', class: 'checkout', allowedOrigin: `${base}:8443` });
      assert.equal(withPort.body.data.allowedOrigin, `${base}:8443`);
    });
  });

  describe('origin pinning and CORS', () => {
    let origin: string;
    let pinned: { key: string; keyId: string };
    before(async () => {
      origin = uniqueOrigin();
      pinned = await createKey(server.url, owner.token, { class: 'checkout', allowedOrigin: origin });
    });

    it('another Origin is 403 origin_not_allowed with no CORS headers', async () => {
      for (const other of [
        'https://evil.example.com',
        `${origin}:8443`,
        origin.replace('https://', 'http://'),
      ]) {
        const r = await me(pinned.key, { origin: other });
        assert.equal(r.status, 403, other);
        assert.equal(r.body.code, 'origin_not_allowed');
        assert.equal(r.headers.get('access-control-allow-origin'), null);
      }
    });

    it('Origin: null (a sandboxed frame, a file: page) is a wrong origin for a pinned key: 403, and its preflight too', async () => {
      const r = await me(pinned.key, { origin: 'null' });
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.code, 'origin_not_allowed');
      assert.equal(r.headers.get('access-control-allow-origin'), null);
      const preflight = await call(server.url, 'OPTIONS', '/api/v1/me', {
        headers: {
          origin: 'null',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
      assert.equal(preflight.status, 403);
      assert.equal(preflight.headers.get('access-control-allow-origin'), null);
      // An unpinned key is not tied to any origin.
      const loose = await createKey(server.url, owner.token, { class: 'checkout' });
      assert.equal((await me(loose.key, { origin: 'null' })).status, 200);
    });

    it('its own Origin is 200 with access-control-allow-origin for that origin and Vary: Origin', async () => {
      const r = await me(pinned.key, { origin });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.apiKeyId, pinned.keyId);
      assert.equal(r.headers.get('access-control-allow-origin'), origin);
      assert.match(r.headers.get('vary') ?? '', /\borigin\b/i);
      // A browser may read the request id and the rate-limit headers.
      assert.match(r.headers.get('access-control-expose-headers') ?? '', /ratelimit-remaining/i);
    });

    it('without an Origin (a server) the pinned key is accepted, with no CORS headers', async () => {
      const r = await me(pinned.key);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-origin'), null);
    });

    it('a preflight from the pinned origin is 204 and allows x-api-key', async () => {
      const r = await call(server.url, 'OPTIONS', '/api/v1/me', {
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
      assert.equal(r.status, 204, r.text);
      assert.equal(r.headers.get('access-control-allow-origin'), origin);
      assert.match(r.headers.get('access-control-allow-headers') ?? '', /\bx-api-key\b/i);
      assert.match(r.headers.get('access-control-allow-methods') ?? '', /\bGET\b/);
      assert.match(r.headers.get('vary') ?? '', /\borigin\b/i);
    });

    it('a preflight from any other origin is 403 with no allow-origin header', async () => {
      for (const other of ['https://evil.example.com', uniqueOrigin()]) {
        const r = await call(server.url, 'OPTIONS', '/api/v1/me', {
          headers: {
            origin: other,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'x-api-key',
          },
        });
        assert.equal(r.status, 403, other);
        assert.equal(r.headers.get('access-control-allow-origin'), null);
      }
      const noOrigin = await call(server.url, 'OPTIONS', '/api/v1/me', {
        headers: { 'access-control-request-method': 'GET' },
      });
      assert.equal(noOrigin.status, 403);
      assert.equal(noOrigin.headers.get('access-control-allow-origin'), null);
    });

    it('a full key called with an Origin never gets access-control-allow-origin', async () => {
      const full = await createKey(server.url, owner.token, { class: 'full' });
      // Even from an origin that a checkout key is pinned to.
      for (const o of [origin, 'https://evil.example.com']) {
        const r = await me(full.key, { origin: o });
        assert.equal(r.headers.get('access-control-allow-origin'), null, o);
      }
    });

    it('an unpinned checkout key gets no CORS headers', async () => {
      const loose = await createKey(server.url, owner.token, { class: 'checkout' });
      const r = await me(loose.key, { origin });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-origin'), null);
    });

    it('once its only pinned key is revoked, the origin’s preflight is refused', async () => {
      const own = uniqueOrigin();
      const k = await createKey(server.url, owner.token, { class: 'checkout', allowedOrigin: own });
      const preflight = () =>
        call(server.url, 'OPTIONS', '/api/v1/me', {
          headers: {
            origin: own,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'x-api-key',
          },
        });
      assert.equal((await preflight()).status, 204);
      assert.equal(
        (await call(server.url, 'DELETE', `/dashboard/api/keys/${k.keyId}`, { token: owner.token })).status,
        200,
      );
      const r = await preflight();
      assert.equal(r.status, 403);
      assert.equal(r.headers.get('access-control-allow-origin'), null);
    });
  });
});
