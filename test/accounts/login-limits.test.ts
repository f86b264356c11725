// Sign-in under attack (product-decisions §11): failed logins limited per account and
// per client address, the same answer for a wrong password and an unknown email, and
// old scrypt hashes upgraded to argon2id on a successful login.
import assert from 'node:assert/strict';
import { randomBytes, scrypt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { call, signup, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

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
    call(server.url, 'POST', '/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

  it('10 failed logins per account in 15 minutes, from any addresses; then 429 even with the right password', async () => {
    const a = await signup(server.url);
    for (let i = 0; i < 10; i++) assert.equal((await login(a.email, `wrong password ${i}`, from())).status, 401, `attempt ${i + 1}`);
    const limited = await login(a.email, PASSWORD, from());
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'too_many_attempts');
    assert.equal(typeof limited.body.error, 'string');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(limited.headers.get('ratelimit-limit'), '10');
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    // The window passes: the right password works again.
    server.clock.advance(15 * 60_000);
    assert.equal((await login(a.email, PASSWORD, from())).status, 200);
  });

  it('an unknown email is limited the same way, so the limit tells nothing either', async () => {
    const email = uniqueEmail('nobody');
    for (let i = 0; i < 10; i++) assert.equal((await login(email, 'whatever it is', from())).status, 401);
    assert.equal((await login(email, 'whatever it is', from())).status, 429);
  });

  it('successful logins do not count against the account', async () => {
    const a = await signup(server.url);
    for (let i = 0; i < 15; i++) assert.equal((await login(a.email, PASSWORD, from())).status, 200);
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
    assert.equal((await login(uniqueEmail('spray'), 'password spray', from())).status, 401, 'another address is not limited');
  });

  it('concurrent guesses cannot overtake the limit', async () => {
    const a = await signup(server.url);
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => login(a.email, `guess ${i}`, from())));
    assert.equal(replies.filter((r) => r.status === 401).length, 10);
    assert.equal(replies.filter((r) => r.status === 429).length, 20);
  });

  it('a wrong password and an unknown email answer alike, in comparable time', async () => {
    const a = await signup(server.url);
    const time = async (email: string) => {
      const t = performance.now();
      const r = await login(email, 'not the password', from());
      return { r, ms: performance.now() - t };
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    let last: Awaited<ReturnType<typeof time>>['r'] | undefined;
    for (let i = 0; i < 5; i++) {
      const w = await time(a.email);
      const u = await time(uniqueEmail('ghost'));
      assert.equal(w.r.status, 401);
      assert.equal(u.r.status, 401);
      assert.deepEqual(w.r.body, u.r.body);
      wrong.push(w.ms);
      unknown.push(u.ms);
      last = u.r;
    }
    assert.deepEqual(last!.body, { error: 'email or password is wrong', code: 'invalid_credentials' });
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[2]!;
    // Both run one argon2id verification; skipping it for unknown emails would be ~100x faster.
    const ratio = median(wrong) / median(unknown);
    assert.ok(ratio > 0.33 && ratio < 3, `median wrong ${median(wrong).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`);
  });

  it('an old scrypt hash still verifies and is replaced by argon2id on login', async () => {
    const a = await signup(server.url);
    const salt = randomBytes(16);
    const hash = (await promisify(scrypt)(PASSWORD, salt, 32)) as Buffer; // N=16384, r=8, p=1 defaults
    const old = ['scrypt', 16384, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
    await server.deps.db.updateTable('users').set({ password_hash: old }).where('id', '=', a.userId).execute();
    assert.equal((await login(a.email, 'not the password', from())).status, 401);
    const row = () => server.deps.db.selectFrom('users').select('password_hash').where('id', '=', a.userId).executeTakeFirstOrThrow();
    assert.equal((await row()).password_hash, old, 'a failed login changes nothing');
    assert.equal((await login(a.email, PASSWORD, from())).status, 200);
    assert.match((await row()).password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal((await login(a.email, PASSWORD, from())).status, 200, 'the new hash verifies');
  });
});
