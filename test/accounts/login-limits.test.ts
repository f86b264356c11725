// Sign-in under attack (docs/decisions/11-trust-and-safety.md, docs/decisions/14-trust-and-safety-second-round.md): failed logins limited per (account,
// client address) with a device cookie that keeps the owner's browser out of others'
// limits, an account-wide lock that needs the reset link, the same answer and work for a
// wrong password and an unknown email, and old scrypt hashes upgraded on login.
import assert from 'node:assert/strict';
import { randomBytes, randomInt, scrypt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { REDIS_URL, redisAnswers } from '../helpers/redis.js';
import { passwordChecks } from '../../src/modules/accounts/passwords.js';
import { call, signup, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { jobsOf } from '../helpers/rows.js';

const PASSWORD = 'correct horse battery';

describe('login limits', () => {
  let server: TestServer;
  before(async () => {
    // TRUST_PROXY=1 lets each test speak from an address of its own (X-Forwarded-For).
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  after(async () => {
    await server.close();
  });

  let n = 0;
  const from = () => `198.51.100.${++n}`;
  const login = (email: string, password: string, ip: string) =>
    call(server.url, 'POST', '/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': ip },
    });

  const deviceOf = (r: { headers: Headers }) => {
    const c = r.headers.getSetCookie().find((x) => x.startsWith('svc_device='));
    assert.ok(c, 'a device cookie');
    return c;
  };

  it('10 failed logins per (account, address) in 15 minutes: then 429 for that address only, even with the right password', async () => {
    const a = await signup(server.url);
    const attacker = from();
    for (let i = 0; i < 10; i++)
      assert.equal((await login(a.email, `wrong password ${i}`, attacker)).status, 401, `attempt ${i + 1}`);
    const limited = await login(a.email, PASSWORD, attacker);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'too_many_attempts');
    assert.equal(typeof limited.body.error, 'string');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(limited.headers.get('ratelimit-limit'), '10');
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    // The owner, from anywhere else, is not locked out.
    assert.equal((await login(a.email, PASSWORD, from())).status, 200);
    // The window passes: the right password works again from the attacker's address too.
    server.clock.advance(15 * 60_000);
    assert.equal((await login(a.email, PASSWORD, attacker)).status, 200);
  });

  it("a browser that signed in before carries svc_device and is not limited by others' failures from its address", async () => {
    const a = await signup(server.url);
    const office = from();
    const first = await login(a.email, PASSWORD, office);
    assert.equal(first.status, 200);
    const set = deviceOf(first);
    assert.match(set, /; HttpOnly/);
    assert.match(set, /; Secure/);
    assert.match(set, /; SameSite=Lax/);
    assert.match(set, /; Max-Age=31536000/);
    assert.match(set, /; Path=\//);
    const device = set.split(';')[0]!;
    // Someone on the same address (an office NAT) guesses until refused.
    for (let i = 0; i < 10; i++) assert.equal((await login(a.email, `guess ${i}`, office)).status, 401);
    assert.equal((await login(a.email, PASSWORD, office)).status, 429);
    // The owner's browser still signs in from there.
    const owner = await call(server.url, 'POST', '/auth/login', {
      body: { email: a.email, password: PASSWORD },
      headers: { 'x-forwarded-for': office, cookie: device },
    });
    assert.equal(owner.status, 200, owner.text);
    // A forged or another account's device cookie is no standing.
    const forged = device.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    assert.equal(
      (
        await call(server.url, 'POST', '/auth/login', {
          body: { email: a.email, password: PASSWORD },
          headers: { 'x-forwarded-for': office, cookie: forged },
        })
      ).status,
      429,
    );
    const b = await signup(server.url);
    const bDevice = deviceOf(await login(b.email, PASSWORD, from())).split(';')[0]!;
    assert.equal(
      (
        await call(server.url, 'POST', '/auth/login', {
          body: { email: a.email, password: PASSWORD },
          headers: { 'x-forwarded-for': office, cookie: bDevice },
        })
      ).status,
      429,
    );
    // The cookie itself is limited on its own bucket.
    for (let i = 0; i < 10; i++) {
      assert.equal(
        (
          await call(server.url, 'POST', '/auth/login', {
            body: { email: a.email, password: `typo ${i}` },
            headers: { 'x-forwarded-for': from(), cookie: device },
          })
        ).status,
        401,
      );
    }
    assert.equal(
      (
        await call(server.url, 'POST', '/auth/login', {
          body: { email: a.email, password: PASSWORD },
          headers: { 'x-forwarded-for': from(), cookie: device },
        })
      ).status,
      429,
    );
  });

  it('past 100 failures for one account from all addresses, sign-in needs the reset link, mailed once', async () => {
    const a = await signup(server.url);
    const ownerDevice = deviceOf(await login(a.email, PASSWORD, from())).split(';')[0]!;
    for (let i = 0; i < 100; i++)
      assert.equal((await login(a.email, `botnet ${i}`, from())).status, 401, `attempt ${i + 1}`);
    const locked = await login(a.email, PASSWORD, from());
    assert.equal(locked.status, 403);
    assert.equal(locked.body.code, 'password_reset_required');
    server.clock.advance(60 * 60_000);
    assert.equal(
      (await login(a.email, PASSWORD, from())).body.code,
      'password_reset_required',
      'the lock outlasts the window',
    );
    const row = await server.deps.db
      .selectFrom('users')
      .select('login_locked_at')
      .where('id', '=', a.userId)
      .executeTakeFirstOrThrow();
    assert.ok(row.login_locked_at);
    assert.equal(
      (await jobsOf(server, 'account.password_reset', { userId: a.userId })).length,
      1,
      'the reset link is mailed once',
    );
    // The owner's own browser is not locked out by the botnet.
    assert.equal(
      (
        await call(server.url, 'POST', '/auth/login', {
          body: { email: a.email, password: PASSWORD },
          headers: { 'x-forwarded-for': from(), cookie: ownerDevice },
        })
      ).status,
      200,
    );
  });

  it('an unknown email is limited the same way, so the limit tells nothing either', async () => {
    const email = uniqueEmail('nobody');
    const ip = from();
    for (let i = 0; i < 10; i++) assert.equal((await login(email, 'whatever it is', ip)).status, 401);
    assert.equal((await login(email, 'whatever it is', ip)).status, 429);
  });

  it('successful logins do not count against the account', async () => {
    const a = await signup(server.url);
    const ip = from();
    for (let i = 0; i < 15; i++) assert.equal((await login(a.email, PASSWORD, ip)).status, 200);
  });

  it('100 failed logins per client address in 15 minutes, over any accounts', async () => {
    const ip = from();
    for (let i = 0; i < 100; i++) {
      const r = await login(uniqueEmail('spray'), 'password spray', ip);
      assert.equal(r.status, 401, `attempt ${i + 1}: ${r.text} ${r.headers.get('ratelimit-limit')}`);
    }
    const limited = await login(uniqueEmail('spray'), 'password spray', ip);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('ratelimit-limit'), '100');
    assert.equal(
      (await login(uniqueEmail('spray'), 'password spray', from())).status,
      401,
      'another address is not limited',
    );
  });

  it('concurrent guesses cannot overtake the limit', async () => {
    const a = await signup(server.url);
    const ip = from();
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => login(a.email, `guess ${i}`, ip)));
    assert.equal(replies.filter((r) => r.status === 401).length, 10);
    assert.equal(replies.filter((r) => r.status === 429).length, 20);
  });

  it('a wrong password and an unknown email answer alike, after exactly one password check each', async () => {
    const a = await signup(server.url);
    for (let i = 0; i < 3; i++) {
      const before = passwordChecks.count;
      const w = await login(a.email, 'not the password', from());
      const afterWrong = passwordChecks.count;
      const u = await login(uniqueEmail('ghost'), 'not the password', from());
      assert.equal(w.status, 401);
      assert.equal(u.status, 401);
      assert.deepEqual(w.body, u.body);
      assert.deepEqual(u.body, { error: 'email or password is wrong', code: 'invalid_credentials' });
      assert.deepEqual(
        [...w.headers.keys()].filter((h) => h !== 'date' && h !== 'x-request-id').sort(),
        [...u.headers.keys()].filter((h) => h !== 'date' && h !== 'x-request-id').sort(),
      );
      // Skipping the check for an unknown email is what would make it answer faster.
      assert.equal(afterWrong - before, 1, 'one argon2id check for a wrong password');
      assert.equal(
        passwordChecks.count - afterWrong,
        1,
        'one argon2id check (of a dummy hash) for an unknown email',
      );
    }
  });

  it('an old scrypt hash still verifies and is replaced by argon2id on login', async () => {
    const a = await signup(server.url);
    const salt = randomBytes(16);
    const hash = (await promisify(scrypt)(PASSWORD, salt, 32)) as Buffer; // N=16384, r=8, p=1 defaults
    const old = ['scrypt', 16384, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
    await server.deps.db
      .updateTable('users')
      .set({ password_hash: old })
      .where('id', '=', a.userId)
      .execute();
    assert.equal((await login(a.email, 'not the password', from())).status, 401);
    const row = () =>
      server.deps.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', a.userId)
        .executeTakeFirstOrThrow();
    assert.equal((await row()).password_hash, old, 'a failed login changes nothing');
    assert.equal((await login(a.email, PASSWORD, from())).status, 200);
    assert.match((await row()).password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal((await login(a.email, PASSWORD, from())).status, 200, 'the new hash verifies');
  });
});

const redisUp = await redisAnswers();
const redisSkip =
  !redisUp &&
  !process.env.TEST_REDIS_URL &&
  `no Redis answers at ${REDIS_URL}; set TEST_REDIS_URL to run these tests (they then never skip)`;

describe('login limits shared through Redis', { skip: redisSkip }, () => {
  it('two instances count one (account, address) limit, and honour each other’s device cookies', async () => {
    if (!redisUp) throw new Error(`TEST_REDIS_URL is set but Redis does not answer at ${REDIS_URL}`);
    const env = {
      TRUST_PROXY: '127.0.0.1',
      REDIS_URL,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
    };
    const one = await startServer({ env });
    const two = await startServer({ env, shareDatabaseWith: one });
    try {
      const a = await signup(one.url);
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      const at = (s: TestServer, password: string, cookie?: string) =>
        call(s.url, 'POST', '/auth/login', {
          body: { email: a.email, password },
          headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
        });
      const owner = await at(two, PASSWORD);
      assert.equal(owner.status, 200);
      const device = owner.headers
        .getSetCookie()
        .find((c) => c.startsWith('svc_device='))!
        .split(';')[0]!;
      for (let i = 0; i < 10; i++)
        assert.equal((await at(i % 2 ? one : two, `guess ${i}`)).status, 401, `attempt ${i + 1}`);
      assert.equal((await at(one, PASSWORD)).status, 429);
      assert.equal((await at(two, PASSWORD)).status, 429);
      assert.equal(
        (await at(one, PASSWORD, device)).status,
        200,
        'the device cookie of one instance stands on the other',
      );
    } finally {
      await two.close();
      await one.close();
    }
  });
});
