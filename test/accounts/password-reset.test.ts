// Taking an account back (docs/decisions/14-trust-and-safety-second-round.md): forgot → reset link → new password,
// the address verified and every session ended; password change; sign out everywhere; a reset
// lifts the sign-in lock with the failure counters that set it (docs/decisions/20-booking-lifecycle.md), in process and in Redis.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { REDIS_URL, redisAnswers } from '../helpers/redis.js';
import { call, signup, uniqueEmail } from '../helpers/http.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';
import { dashboardSessionsOf, jobsOf } from '../helpers/rows.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

const redisUp = await redisAnswers();
const redisSkip =
  !redisUp &&
  !process.env.TEST_REDIS_URL &&
  `no Redis answers at ${REDIS_URL}; set TEST_REDIS_URL to run this test (it then never skips)`;

const mailsTo = (smtp: SmtpSink, email: string, subject: RegExp) =>
  smtp.messages.filter((m) => m.envelopeTo.includes(email) && subject.test(m.subject ?? ''));
const resetMails = (smtp: SmtpSink, email: string) =>
  mailsTo(smtp, email, /password|locked/i).filter((m) => /reset\?token=/.test(m.text ?? ''));

/** Runs jobs until reset mail number `index` to `email` arrived; answers its token. */
async function resetTokenOf(server: TestServer, smtp: SmtpSink, email: string, index = 0): Promise<string> {
  await drainJobs(server, async () => resetMails(smtp, email).length > index);
  const mail = resetMails(smtp, email)[index]!;
  const m = /https:\/\/tickets\.example\.in\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/.exec(
    mail.text ?? '',
  );
  assert.ok(m, mail.text);
  return m[1]!;
}

/**
 * A botnet locks the account (over 100 failures from as many addresses); the owner resets
 * the password from the mailed link and signs in at once from anywhere. The reset clears the
 * account's failure count with the lock, so no second reset mail follows, and the lock comes
 * back only after a fresh run of 100 failures. The clock never moves: only the reset can
 * have emptied the counter.
 */
async function resetLiftsTheLock(server: TestServer, smtp: SmtpSink): Promise<void> {
  const a = await signup(server.url);
  const net = `10.${randomInt(256)}.${randomInt(256)}`; // Redis keeps address counters across runs
  let n = 0;
  const login = (password: string) =>
    call(server.url, 'POST', '/auth/login', {
      body: { email: a.email, password },
      headers: { 'x-forwarded-for': `${net}.${++n}` },
    });
  const resetJobs = async () => (await jobsOf(server, 'account.password_reset', { userId: a.userId })).length;
  for (let i = 0; i < 100; i++) assert.equal((await login(`botnet ${i}`)).status, 401, `attempt ${i + 1}`);
  assert.equal((await login(PASSWORD)).body.code, 'password_reset_required');

  const token = await resetTokenOf(server, smtp, a.email);
  assert.equal(
    (await call(server.url, 'POST', '/auth/password/reset', { body: { token, password: NEW_PASSWORD } }))
      .status,
    200,
  );
  const owner = await login(NEW_PASSWORD);
  assert.equal(owner.status, 200, `the owner signs in at once from a fresh address: ${owner.text}`);
  assert.equal((await login(PASSWORD)).status, 401, 'the old password is gone');
  await drainJobs(server, async () => mailsTo(smtp, a.email, /^Your password was changed$/).length === 1);
  assert.equal(await resetJobs(), 1, 'no second reset mail follows the reset');
  assert.equal(resetMails(smtp, a.email).length, 1);

  // The count starts again from zero: the wrong old password above and 99 more are allowed.
  for (let i = 0; i < 99; i++)
    assert.equal((await login(`botnet again ${i}`)).status, 401, `attempt ${i + 2} after the reset`);
  assert.equal(
    (await login(NEW_PASSWORD)).body.code,
    'password_reset_required',
    'a fresh run of failures locks it again',
  );
  assert.equal(await resetJobs(), 2, 'and mails a new link');
}

describe('password reset, change and sign out everywhere', () => {
  let server: TestServer;
  let smtp: SmtpSink;

  before(async () => {
    smtp = await startSmtp();
    // TRUST_PROXY lets a test speak from many client addresses (X-Forwarded-For).
    server = await startServer({
      isolatedDatabase: true,
      env: { SMTP_URL: smtp.url, BASE_URL: 'https://tickets.example.in', TRUST_PROXY: '127.0.0.1' },
    });
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  const resetToken = (email: string, index = 0) => resetTokenOf(server, smtp, email, index);

  const login = (email: string, password: string) =>
    call(server.url, 'POST', '/auth/login', { body: { email, password } });
  const whoami = (token: string) => call(server.url, 'GET', '/dashboard/api/keys', { token });

  it('forgot answers 202 the same way for an existing and an unknown address, and mails only the account', async () => {
    const a = await signup(server.url, { verified: false });
    const known = await call(server.url, 'POST', '/auth/password/forgot', {
      body: { email: a.email.toUpperCase() },
    });
    const unknownEmail = uniqueEmail('nobody');
    const unknown = await call(server.url, 'POST', '/auth/password/forgot', {
      body: { email: unknownEmail },
    });
    assert.equal(known.status, 202);
    assert.equal(unknown.status, 202);
    assert.deepEqual(known.body, unknown.body);
    assert.deepEqual(known.body, { success: true });
    const token = await resetToken(a.email);
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    assert.equal(smtp.messages.filter((m) => m.envelopeTo.includes(unknownEmail)).length, 0);
    const rows = await server.deps.db
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', a.userId)
      .execute();
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.token_hash, token, 'stored hashed');
    assert.ok(!JSON.stringify(rows).includes(token));
    assert.equal(rows[0]!.expires_at.getTime() - rows[0]!.created_at.getTime(), 60 * 60_000);
    const long = await call(server.url, 'POST', '/auth/password/forgot', {
      body: { email: 'x'.repeat(300) + '@example.in' },
    });
    assert.equal(long.status, 400);
  });

  it('the reset link sets the password, verifies the address, ends every session (idTokens and dashboard) and mails a notice; it works once', async () => {
    const a = await signup(server.url, { verified: false });
    const dash = new DashboardClient(server.url);
    const page = await dash.get('/dashboard/login');
    assert.equal(
      (
        await dash.post('/dashboard/login', {
          _csrf: DashboardClient.csrf(page.text),
          email: a.email,
          password: PASSWORD,
          next: '/dashboard/events',
        })
      ).status,
      303,
    );
    assert.equal((await dash.get('/dashboard/events')).status, 200);
    const second = (await login(a.email, PASSWORD)).body.idToken as string;
    assert.equal((await whoami(a.token)).status, 200);

    await call(server.url, 'POST', '/auth/password/forgot', { body: { email: a.email } });
    const token = await resetToken(a.email);
    // Opening the link changes nothing: it shows the form.
    const form = await fetch(`${server.url}/auth/password/reset?token=${token}`);
    assert.equal(form.status, 200);
    const formText = await form.text();
    assert.match(formText, /Set a new password/);
    assert.ok(formText.includes(`name="token" value="${token}"`));
    assert.equal((await login(a.email, PASSWORD)).status, 200);

    const weak = await call(server.url, 'POST', '/auth/password/reset', {
      body: { token, password: 'short' },
    });
    assert.equal(weak.status, 400);
    const r = await call(server.url, 'POST', '/auth/password/reset', {
      body: { token, password: NEW_PASSWORD },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { success: true, emailVerified: true });

    for (const old of [a.token, second]) {
      const refused = await whoami(old);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'session_ended');
    }
    const sessions = await dashboardSessionsOf(server, a.userId);
    assert.equal(sessions.length, 0, 'dashboard sessions deleted');
    assert.equal((await dash.get('/dashboard/events')).status, 303, 'the dashboard cookie signs in no more');
    assert.equal((await login(a.email, PASSWORD)).status, 401, 'the old password is gone');
    const fresh = await login(a.email, NEW_PASSWORD);
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.emailVerified, true, 'the mailbox proved the address');
    assert.equal((await whoami(fresh.body.idToken)).status, 200);

    await drainJobs(server, async () => mailsTo(smtp, a.email, /^Your password was changed$/).length === 1);
    const again = await call(server.url, 'POST', '/auth/password/reset', {
      body: { token, password: 'yet another passphrase' },
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'invalid_reset_token');
    assert.match(again.body.error, /already been used/);
  });

  it('a reset link expires after 60 minutes (by the service clock)', async () => {
    const a = await signup(server.url);
    await call(server.url, 'POST', '/auth/password/forgot', { body: { email: a.email } });
    const token = await resetToken(a.email);
    server.clock.advance(60 * 60_000 + 1000);
    const r = await call(server.url, 'POST', '/auth/password/reset', {
      body: { token, password: NEW_PASSWORD },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_reset_token');
    assert.match(r.body.error, /expired/);
    assert.equal((await login(a.email, PASSWORD)).status, 200);
    const unknown = await call(server.url, 'POST', '/auth/password/reset', {
      body: { token: 'A'.repeat(43), password: NEW_PASSWORD },
    });
    assert.equal(unknown.body.code, 'invalid_reset_token');
  });

  it('the mailbox owner takes back an account someone pre-registered with their address', async () => {
    const victim = uniqueEmail('victim');
    const squatter = await call(server.url, 'POST', '/auth/signup', {
      body: { email: victim, password: 'the squatter password', name: 'Squatter' },
    });
    assert.equal(squatter.status, 201);
    // The owner cannot sign up; they ask for a reset instead.
    assert.equal(
      (
        await call(server.url, 'POST', '/auth/signup', {
          body: { email: victim, password: PASSWORD, name: 'Owner' },
        })
      ).status,
      409,
    );
    await call(server.url, 'POST', '/auth/password/forgot', { body: { email: victim } });
    const token = await resetToken(victim);
    assert.equal(
      (await call(server.url, 'POST', '/auth/password/reset', { body: { token, password: PASSWORD } }))
        .status,
      200,
    );
    assert.equal((await whoami(squatter.body.idToken)).body.code, 'session_ended');
    assert.equal((await login(victim, 'the squatter password')).status, 401);
    const owner = await login(victim, PASSWORD);
    assert.equal(owner.status, 200);
    assert.equal(owner.body.userId, squatter.body.userId);
    assert.equal(owner.body.emailVerified, true);
  });

  it('at most 3 reset mails an hour per account, answered alike', async () => {
    const a = await signup(server.url);
    for (let i = 0; i < 5; i++)
      assert.equal(
        (await call(server.url, 'POST', '/auth/password/forgot', { body: { email: a.email } })).status,
        202,
      );
    await resetToken(a.email, 2);
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    assert.equal(mailsTo(smtp, a.email, /^Reset your password$/).length, 3);
  });

  it('change password: checks the current one, ends the other sessions, answers a new one, mails a notice', async () => {
    const a = await signup(server.url);
    const other = (await login(a.email, PASSWORD)).body.idToken as string;
    const wrong = await call(server.url, 'POST', '/auth/password/change', {
      token: a.token,
      body: { currentPassword: 'not it at all', newPassword: NEW_PASSWORD },
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.code, 'wrong_password');
    assert.equal(
      (
        await call(server.url, 'POST', '/auth/password/change', {
          body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
        })
      ).status,
      401,
    );
    const r = await call(server.url, 'POST', '/auth/password/change', {
      token: a.token,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof r.body.idToken, 'string');
    assert.equal((await whoami(r.body.idToken)).status, 200, 'the caller stays signed in with the new token');
    assert.equal((await whoami(other)).body.code, 'session_ended');
    assert.equal((await whoami(a.token)).body.code, 'session_ended');
    assert.equal((await login(a.email, NEW_PASSWORD)).status, 200);
    await drainJobs(server, async () => mailsTo(smtp, a.email, /^Your password was changed$/).length === 1);
  });

  it('the dashboard changes the password keeping its own session and ending the others', async () => {
    const email = uniqueEmail('dashpw');
    const c = new DashboardClient(server.url);
    await c.signup(email);
    const elsewhere = new DashboardClient(server.url);
    const lp = await elsewhere.get('/dashboard/login');
    await elsewhere.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(lp.text),
      email,
      password: PASSWORD,
      next: '/dashboard/events',
    });
    const api = (await login(email, PASSWORD)).body.idToken as string;
    const page = await c.get('/dashboard/account');
    assert.equal(page.status, 200);
    assert.match(page.text, /Change your password/);
    const r = await c.post(
      '/dashboard/password/change',
      { _csrf: DashboardClient.csrf(page.text), currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      { referer: `${server.url}/dashboard/account` },
    );
    assert.equal(r.status, 303);
    assert.match((await c.get('/dashboard/account')).text, /Your password is changed/);
    assert.equal((await elsewhere.get('/dashboard/events')).status, 303, 'the other browser is signed out');
    assert.equal((await whoami(api)).body.code, 'session_ended');
    assert.equal((await login(email, NEW_PASSWORD)).status, 200);
  });

  it('sign out everywhere ends every idToken and dashboard session', async () => {
    const a = await signup(server.url);
    const other = (await login(a.email, PASSWORD)).body.idToken as string;
    const dash = new DashboardClient(server.url);
    const lp = await dash.get('/dashboard/login');
    await dash.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(lp.text),
      email: a.email,
      password: PASSWORD,
      next: '/dashboard/events',
    });
    assert.equal((await dash.get('/dashboard/events')).status, 200);
    const r = await call(server.url, 'POST', '/auth/logout-everywhere', { token: a.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true });
    for (const t of [a.token, other]) assert.equal((await whoami(t)).body.code, 'session_ended');
    assert.equal((await dash.get('/dashboard/events')).status, 303);
    assert.equal(
      (await whoami((await login(a.email, PASSWORD)).body.idToken)).status,
      200,
      'signing in again works',
    );

    // The dashboard's button does the same, its own session included.
    const email = uniqueEmail('everywhere');
    const c = new DashboardClient(server.url);
    await c.signup(email);
    const token = (await login(email, PASSWORD)).body.idToken as string;
    const page = await c.get('/dashboard/account');
    const out = await c.post('/dashboard/logout-everywhere', { _csrf: DashboardClient.csrf(page.text) });
    assert.equal(out.status, 200);
    assert.match(out.text, /Every session of the account is signed out/);
    assert.equal((await c.get('/dashboard/events')).status, 303);
    assert.equal((await whoami(token)).body.code, 'session_ended');
  });

  it('a password reset lifts the sign-in lock at once: the failure count is cleared with it and no second reset mail follows', () =>
    resetLiftsTheLock(server, smtp));

  it('the same with the counters in Redis', { skip: redisSkip }, async () => {
    if (!redisUp) throw new Error(`TEST_REDIS_URL is set but Redis does not answer at ${REDIS_URL}`);
    const shared = await startServer({
      isolatedDatabase: true,
      env: {
        SMTP_URL: smtp.url,
        BASE_URL: 'https://tickets.example.in',
        TRUST_PROXY: '127.0.0.1',
        REDIS_URL,
      },
    });
    try {
      await resetLiftsTheLock(shared, smtp);
    } finally {
      await shared.close();
    }
  });
});
