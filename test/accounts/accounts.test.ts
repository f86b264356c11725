// Accounts: signup, login, how passwords are stored, session
// tokens (signature, expiry against the injected clock), and the staff-only
// organiser-access switch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, decodeJwt } from 'jose';
import { call, createKey, signup, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';
const TWELVE_HOURS_MS = 12 * 60 * 60 * 1000;

describe('accounts: signup and login', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  const post = (path: string, body: unknown) => call(server.url, 'POST', path, { body });

  it('signup answers 201 { userId, idToken, expiresAt, emailVerified: false } with a 12-hour session', async () => {
    const email = uniqueEmail('signup');
    const before = server.clock.now().getTime();
    const r = await post('/auth/signup', {
      email,
      password: PASSWORD,
      name: 'Asha Rao',
      phone: '+91 98765 43210',
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(Object.keys(r.body).sort(), ['emailVerified', 'expiresAt', 'idToken', 'userId']);
    assert.equal(r.body.emailVerified, false);
    assert.match(r.body.userId, /^usr_[A-Za-z0-9_-]+$/);
    assert.equal(r.body.idToken.split('.').length, 3);
    assert.equal(decodeJwt(r.body.idToken).sub, r.body.userId);
    const expires = Date.parse(r.body.expiresAt);
    assert.ok(Math.abs(expires - (before + TWELVE_HOURS_MS)) < 2000, `expiresAt ${r.body.expiresAt}`);
    // The new account is an organiser who cannot publish yet.
    const k = await createKey(server.url, r.body.idToken);
    const me = await call(server.url, 'GET', '/api/v1/me', { key: k.key });
    assert.equal(me.body.email, email);
    assert.equal(me.body.phone, '+91 98765 43210');
    assert.equal(me.body.isOrganizer, true);
    assert.equal(me.body.canPublish, false);
  });

  it('409 on a taken email, whatever its case', async () => {
    const email = uniqueEmail('taken');
    assert.equal((await post('/auth/signup', { email, password: PASSWORD, name: 'First' })).status, 201);
    for (const again of [email, email.toUpperCase(), `  ${email.replace(/^./, (c) => c.toUpperCase())}  `]) {
      const r = await post('/auth/signup', {
        email: again,
        password: 'another long password',
        name: 'Second',
      });
      assert.equal(r.status, 409, again);
      assert.equal(r.body.code, 'email_taken');
      assert.equal(typeof r.body.error, 'string');
    }
  });

  it('simultaneous signups with one email (in any case) create one account; the rest are 409', async () => {
    const email = uniqueEmail('race');
    const variants = [
      email,
      email.toUpperCase(),
      email,
      ` ${email}`,
      email.replace(/^./, (c) => c.toUpperCase()),
    ];
    const replies = await Promise.all(
      variants.map((e) => post('/auth/signup', { email: e, password: PASSWORD, name: 'Racer' })),
    );
    assert.deepEqual(
      replies.map((r) => r.status).sort(),
      [201, 409, 409, 409, 409],
      replies.map((r) => r.text).join('\n'),
    );
    for (const r of replies) if (r.status === 409) assert.equal(r.body.code, 'email_taken');
    const rows = await server.deps.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .execute();
    assert.equal(rows.length, 1);
  });

  it('400 for a password shorter than 10 characters (10 is enough)', async () => {
    for (const password of ['', 'short', '123456789']) {
      const r = await post('/auth/signup', { email: uniqueEmail('pw'), password, name: 'Short' });
      assert.equal(r.status, 400, JSON.stringify(password));
      assert.equal(typeof r.body.code, 'string');
      assert.match(r.body.error, /password/);
    }
    assert.equal(
      (await post('/auth/signup', { email: uniqueEmail('pw'), password: '1234567890', name: 'Ten' })).status,
      201,
    );
  });

  it('400 for an email that is not an address', async () => {
    for (const email of [
      '',
      'not-an-email',
      'a@b',
      'two@@example.in',
      'space in@example.in',
      'x@example.in.',
      '@example.in',
    ]) {
      const r = await post('/auth/signup', { email, password: PASSWORD, name: 'Bad Email' });
      assert.equal(r.status, 400, JSON.stringify(email));
      assert.equal(r.body.code, 'invalid_email', email);
    }
  });

  it('400 for a missing or blank name, and for other missing fields', async () => {
    const missingName = await post('/auth/signup', { email: uniqueEmail('noname'), password: PASSWORD });
    assert.equal(missingName.status, 400);
    assert.match(missingName.body.error, /name/);
    const blank = await post('/auth/signup', {
      email: uniqueEmail('blank'),
      password: PASSWORD,
      name: '   ',
    });
    assert.equal(blank.status, 400);
    assert.match(blank.body.error, /name/);
    assert.equal((await post('/auth/signup', { password: PASSWORD, name: 'No Email' })).status, 400);
    assert.equal(
      (await post('/auth/signup', { email: uniqueEmail('nopw'), name: 'No Password' })).status,
      400,
    );
  });

  it('login answers 200 with a fresh session, email case-insensitive', async () => {
    const a = await signup(server.url);
    for (const email of [a.email, a.email.toUpperCase()]) {
      const r = await post('/auth/login', { email, password: PASSWORD });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), ['emailVerified', 'expiresAt', 'idToken', 'userId']);
      assert.equal(r.body.userId, a.userId);
      assert.equal(r.body.emailVerified, true);
      assert.equal(
        (await call(server.url, 'GET', '/dashboard/api/keys', { token: r.body.idToken })).status,
        200,
      );
    }
  });

  it('login answers 401 with the same body for a wrong password and an unknown email', async () => {
    const a = await signup(server.url);
    const wrong = await post('/auth/login', { email: a.email, password: 'not the password' });
    const unknown = await post('/auth/login', { email: uniqueEmail('nobody'), password: PASSWORD });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.body.code, 'invalid_credentials');
    // Nothing in the answer tells which emails have accounts.
    assert.deepEqual(wrong.body, unknown.body);
  });

  it('stores a salted argon2id hash (m=19 MiB, t=2, p=1) and never the password', async () => {
    const password = 'same password for both';
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await post('/auth/signup', { email: uniqueEmail('hash'), password, name: 'Hash Check' });
      assert.equal(r.status, 201);
      ids.push(r.body.userId);
    }
    const rows = await server.deps.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
    assert.equal(rows.length, 2);
    const salts: string[] = [];
    for (const row of rows) {
      const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
        row.password_hash,
      );
      assert.ok(m, `hash format: ${row.password_hash}`);
      const [, mem, t, p, salt, hash] = m;
      // OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane; salt of 128 bits, hash of 256.
      assert.ok(Number(mem) >= 19456 && Number(t) >= 2 && Number(p) >= 1, `cost ${mem}/${t}/${p}`);
      assert.ok(Buffer.from(salt!, 'base64').length >= 16);
      assert.ok(Buffer.from(hash!, 'base64').length >= 32);
      salts.push(salt!);
      const text = JSON.stringify(row);
      assert.ok(!text.includes(password), 'password text in the users row');
      assert.ok(!text.includes(Buffer.from(password).toString('base64')), 'base64 password in the users row');
      assert.ok(!text.includes(Buffer.from(password).toString('hex')), 'hex password in the users row');
    }
    assert.notEqual(rows[0]!.password_hash, rows[1]!.password_hash);
    assert.notEqual(salts[0], salts[1]);
  });
});

describe('accounts: session tokens', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  const keys = (token?: string, headers: Record<string, string> = {}) =>
    call(server.url, 'GET', '/dashboard/api/keys', { ...(token === undefined ? {} : { token }), headers });

  it('a valid token reaches GET /dashboard/api/keys', async () => {
    const a = await signup(server.url);
    const r = await keys(a.token);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { success: true, data: [] });
  });

  it('a token signed with another secret is 401 invalid_session', async () => {
    const a = await signup(server.url);
    const claims = decodeJwt(a.token);
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(a.userId)
      .setIssuer(claims.iss!)
      .setAudience(claims.aud!)
      .setIssuedAt(claims.iat!)
      .setExpirationTime(claims.exp!)
      .sign(new TextEncoder().encode('another secret, not the service one, 32+ chars'));
    const r = await keys(forged);
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'invalid_session');
  });

  it('a token with its payload altered is 401 invalid_session', async () => {
    const a = await signup(server.url);
    const b = await signup(server.url);
    const [header, , signature] = a.token.split('.');
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(a.token), sub: b.userId })).toString(
      'base64url',
    );
    const r = await keys(`${header}.${payload}.${signature}`);
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'invalid_session');
  });

  it('an unsigned (alg none) token is 401 invalid_session', async () => {
    const a = await signup(server.url);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify(decodeJwt(a.token))).toString('base64url');
    const r = await keys(`${header}.${payload}.`);
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'invalid_session');
  });

  it('a garbage token is 401 invalid_session', async () => {
    for (const token of ['garbage', 'a.b.c', 'eyJhbGciOiJIUzI1NiJ9.e30.xxxx']) {
      const r = await keys(token);
      assert.equal(r.status, 401, token);
      assert.equal(r.body.code, 'invalid_session', token);
    }
  });

  it('a correctly signed token for an account that does not exist is 401 invalid_session', async () => {
    const { idToken } = await server.deps.sessions.issue('usr_doesnotexist');
    const r = await keys(idToken);
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'invalid_session');
  });

  it('a missing Authorization header is 401 "Missing Authorization Bearer token"', async () => {
    for (const headers of [
      {},
      { authorization: '' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
    ] as Record<string, string>[]) {
      const r = await keys(undefined, headers);
      assert.equal(r.status, 401, JSON.stringify(headers));
      assert.equal(r.body.error, 'Missing Authorization Bearer token');
      assert.equal(r.body.code, 'missing_session');
    }
  });

  it('a token expires 12 hours after issue, judged by the server clock (401 session_expired)', async () => {
    // Expiry is checked against the injected clock: move it, no waiting.
    const a = await signup(server.url);
    server.clock.advance(TWELVE_HOURS_MS - 60_000);
    assert.equal((await keys(a.token)).status, 200, 'a minute before expiry');
    server.clock.advance(2 * 60_000);
    const r = await keys(a.token);
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'session_expired');
    assert.notEqual(r.body.code, 'invalid_session');
    // Logging in again gives a token valid at the new time.
    const again = await call(server.url, 'POST', '/auth/login', {
      body: { email: a.email, password: PASSWORD },
    });
    assert.equal(again.status, 200);
    assert.equal((await keys(again.body.idToken)).status, 200);
  });
});

describe('accounts: staff grant organiser access', () => {
  let server: TestServer;
  let staffEmail: string;
  let staff: { userId: string; token: string };
  before(async () => {
    staffEmail = uniqueEmail('staff');
    // Staff emails are matched case-insensitively.
    server = await startServer({
      env: { STAFF_EMAILS: `someone-else@example.in, ${staffEmail.toUpperCase()}` },
    });
    const a = await signup(server.url, { email: staffEmail });
    staff = { userId: a.userId, token: a.token };
  });
  after(async () => {
    await server.close();
  });

  const access = (userId: string, body: unknown, options: { token?: string; key?: string } = {}) =>
    call(server.url, 'POST', `/admin/api/accounts/${encodeURIComponent(userId)}/organiser-access`, {
      ...options,
      body,
    });

  it('staff grant and then revoke publishing; GET /api/v1/me follows', async () => {
    const user = await signup(server.url);
    const k = await createKey(server.url, user.token);
    const me = async () => (await call(server.url, 'GET', '/api/v1/me', { key: k.key })).body.canPublish;
    assert.equal(await me(), false);

    const grant = await access(user.userId, { canPublish: true }, { token: staff.token });
    assert.equal(grant.status, 200, grant.text);
    assert.deepEqual(grant.body, { success: true, data: { userId: user.userId, canPublish: true } });
    assert.equal(await me(), true);

    const revoke = await access(user.userId, { canPublish: false }, { token: staff.token });
    assert.equal(revoke.status, 200);
    assert.deepEqual(revoke.body, { success: true, data: { userId: user.userId, canPublish: false } });
    assert.equal(await me(), false);
  });

  it('a non-staff session gets 403 staff_only and changes nothing', async () => {
    const user = await signup(server.url);
    const k = await createKey(server.url, user.token);
    const r = await access(user.userId, { canPublish: true }, { token: user.token });
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'staff_only');
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: k.key })).body.canPublish, false);
  });

  it('an unknown userId is 404', async () => {
    const r = await access('usr_nosuchaccount', { canPublish: true }, { token: staff.token });
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'account_not_found');
  });

  it('a bad body is 400', async () => {
    const user = await signup(server.url);
    for (const body of [{}, { canPublish: 'true' }, { canPublish: true, extra: 1 }]) {
      const r = await access(user.userId, body, { token: staff.token });
      assert.equal(r.status, 400, JSON.stringify(body));
    }
  });

  it('an x-api-key instead of a session is 401, even the staff member’s own key', async () => {
    const user = await signup(server.url);
    const staffKey = await createKey(server.url, staff.token);
    const r = await access(user.userId, { canPublish: true }, { key: staffKey.key });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'Missing Authorization Bearer token');
  });

  it('a staff email on another server’s list is not staff here', async () => {
    // A second instance on the same database, without STAFF_EMAILS.
    const other = await startServer({ shareDatabaseWith: server });
    try {
      const login = await call(other.url, 'POST', '/auth/login', {
        body: { email: staffEmail, password: PASSWORD },
      });
      assert.equal(login.status, 200, 'the account is on the shared database');
      const r = await call(other.url, 'POST', `/admin/api/accounts/${staff.userId}/organiser-access`, {
        token: login.body.idToken,
        body: { canPublish: true },
      });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'staff_only');
    } finally {
      await other.close();
    }
  });
});
