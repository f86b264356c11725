// Taking an account back (product-decisions §14): forgot → reset link → new password,
// the address verified and every session ended; password change; sign out everywhere.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, signup, uniqueEmail } from '../helpers/http.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

describe('password reset, change and sign out everywhere', () => {
  let server: TestServer;
  let smtp: SmtpSink;

  before(async () => {
    smtp = await startSmtp();
    server = await startServer({ isolatedDatabase: true, env: { SMTP_URL: smtp.url, BASE_URL: 'https://tickets.example.in' } });
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  const mailsTo = (email: string, subject: RegExp) => smtp.messages.filter((m) => m.envelopeTo.includes(email) && subject.test(m.subject ?? ''));

  /** Runs jobs until reset mail number `index` to `email` arrived; answers its token. */
  async function resetToken(email: string, index = 0): Promise<string> {
    await drainJobs(server, async () => mailsTo(email, /password|locked/i).filter((m) => /reset\?token=/.test(m.text ?? '')).length > index);
    const mail = mailsTo(email, /password|locked/i).filter((m) => /reset\?token=/.test(m.text ?? ''))[index]!;
    const m = /https:\/\/tickets\.example\.in\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    assert.ok(m, mail.text);
    return m[1]!;
  }

  const login = (email: string, password: string) => call(server.url, 'POST', '/auth/login', { body: { email, password } });
  const whoami = (token: string) => call(server.url, 'GET', '/dashboard/api/keys', { token });

  it('forgot answers 202 the same way for an existing and an unknown address, and mails only the account', async () => {
    const a = await signup(server.url, { verified: false });
    const known = await call(server.url, 'POST', '/auth/password/forgot', { body: { email: a.email.toUpperCase() } });
    const unknownEmail = uniqueEmail('nobody');
    const unknown = await call(server.url, 'POST', '/auth/password/forgot', { body: { email: unknownEmail } });
    assert.equal(known.status, 202);
    assert.equal(unknown.status, 202);
    assert.deepEqual(known.body, unknown.body);
    assert.deepEqual(known.body, { success: true });
    const token = await resetToken(a.email);
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    assert.equal(smtp.messages.filter((m) => m.envelopeTo.includes(unknownEmail)).length, 0);
    const rows = await server.deps.db.selectFrom('password_resets').selectAll().where('user_id', '=', a.userId).execute();
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.token_hash, token, 'stored hashed');
    assert.ok(!JSON.stringify(rows).includes(token));
    assert.equal(rows[0]!.expires_at.getTime() - rows[0]!.created_at.getTime(), 60 * 60_000);
    const long = await call(server.url, 'POST', '/auth/password/forgot', { body: { email: 'x'.repeat(300) + '@example.in' } });
    assert.equal(long.status, 400);
  });

  it('the reset link sets the password, verifies the address, ends every session (idTokens and dashboard) and mails a notice; it works once', async () => {
    const a = await signup(server.url, { verified: false });
    const dash = new DashboardClient(server.url);
    const page = await dash.get('/dashboard/login');
    assert.equal((await dash.post('/dashboard/login', { _csrf: DashboardClient.csrf(page.text), email: a.email, password: PASSWORD, next: '/dashboard/events' })).status, 303);
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

    const weak = await call(server.url, 'POST', '/auth/password/reset', { body: { token, password: 'short' } });
    assert.equal(weak.status, 400);
    const r = await call(server.url, 'POST', '/auth/password/reset', { body: { token, password: NEW_PASSWORD } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { success: true, emailVerified: true });

    for (const old of [a.token, second]) {
      const refused = await whoami(old);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'session_ended');
    }
    const sessions = await server.deps.db.selectFrom('dashboard_sessions').select('id_hash').where('user_id', '=', a.userId).execute();
    assert.equal(sessions.length, 0, 'dashboard sessions deleted');
    assert.equal((await dash.get('/dashboard/events')).status, 303, 'the dashboard cookie signs in no more');
    assert.equal((await login(a.email, PASSWORD)).status, 401, 'the old password is gone');
    const fresh = await login(a.email, NEW_PASSWORD);
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.emailVerified, true, 'the mailbox proved the address');
    assert.equal((await whoami(fresh.body.idToken)).status, 200);

    await drainJobs(server, async () => mailsTo(a.email, /^Your password was changed$/).length === 1);
    const again = await call(server.url, 'POST', '/auth/password/reset', { body: { token, password: 'yet another passphrase' } });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'invalid_reset_token');
    assert.match(again.body.error, /already been used/);
  });

  it('a reset link expires after 60 minutes (by the service clock)', async () => {
    const a = await signup(server.url);
    await call(server.url, 'POST', '/auth/password/forgot', { body: { email: a.email } });
    const token = await resetToken(a.email);
    server.clock.advance(60 * 60_000 + 1000);
    const r = await call(server.url, 'POST', '/auth/password/reset', { body: { token, password: NEW_PASSWORD } });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_reset_token');
    assert.match(r.body.error, /expired/);
    assert.equal((await login(a.email, PASSWORD)).status, 200);
    const unknown = await call(server.url, 'POST', '/auth/password/reset', { body: { token: 'A'.repeat(43), password: NEW_PASSWORD } });
    assert.equal(unknown.body.code, 'invalid_reset_token');
  });

  it('the mailbox owner takes back an account someone pre-registered with their address', async () => {
    const victim = uniqueEmail('victim');
    const squatter = await call(server.url, 'POST', '/auth/signup', { body: { email: victim, password: 'the squatter password', name: 'Squatter' } });
    assert.equal(squatter.status, 201);
    // The owner cannot sign up; they ask for a reset instead.
    assert.equal((await call(server.url, 'POST', '/auth/signup', { body: { email: victim, password: PASSWORD, name: 'Owner' } })).status, 409);
    await call(server.url, 'POST', '/auth/password/forgot', { body: { email: victim } });
    const token = await resetToken(victim);
    assert.equal((await call(server.url, 'POST', '/auth/password/reset', { body: { token, password: PASSWORD } })).status, 200);
    assert.equal((await whoami(squatter.body.idToken)).body.code, 'session_ended');
    assert.equal((await login(victim, 'the squatter password')).status, 401);
    const owner = await login(victim, PASSWORD);
    assert.equal(owner.status, 200);
    assert.equal(owner.body.userId, squatter.body.userId);
    assert.equal(owner.body.emailVerified, true);
  });

  it('at most 3 reset mails an hour per account, answered alike', async () => {
    const a = await signup(server.url);
    for (let i = 0; i < 5; i++) assert.equal((await call(server.url, 'POST', '/auth/password/forgot', { body: { email: a.email } })).status, 202);
    await resetToken(a.email, 2);
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    assert.equal(mailsTo(a.email, /^Reset your password$/).length, 3);
  });

  it('change password: checks the current one, ends the other sessions, answers a new one, mails a notice', async () => {
    const a = await signup(server.url);
    const other = (await login(a.email, PASSWORD)).body.idToken as string;
    const wrong = await call(server.url, 'POST', '/auth/password/change', { token: a.token, body: { currentPassword: 'not it at all', newPassword: NEW_PASSWORD } });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.code, 'wrong_password');
    assert.equal((await call(server.url, 'POST', '/auth/password/change', { body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })).status, 401);
    const r = await call(server.url, 'POST', '/auth/password/change', { token: a.token, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } });
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof r.body.idToken, 'string');
    assert.equal((await whoami(r.body.idToken)).status, 200, 'the caller stays signed in with the new token');
    assert.equal((await whoami(other)).body.code, 'session_ended');
    assert.equal((await whoami(a.token)).body.code, 'session_ended');
    assert.equal((await login(a.email, NEW_PASSWORD)).status, 200);
    await drainJobs(server, async () => mailsTo(a.email, /^Your password was changed$/).length === 1);
  });

  it('the dashboard changes the password keeping its own session and ending the others', async () => {
    const email = uniqueEmail('dashpw');
    const c = new DashboardClient(server.url);
    await c.signup(email);
    const elsewhere = new DashboardClient(server.url);
    const lp = await elsewhere.get('/dashboard/login');
    await elsewhere.post('/dashboard/login', { _csrf: DashboardClient.csrf(lp.text), email, password: PASSWORD, next: '/dashboard/events' });
    const api = (await login(email, PASSWORD)).body.idToken as string;
    const page = await c.get('/dashboard/account');
    assert.equal(page.status, 200);
    assert.match(page.text, /Change your password/);
    const r = await c.post('/dashboard/password/change', { _csrf: DashboardClient.csrf(page.text), currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { referer: `${server.url}/dashboard/account` });
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
    await dash.post('/dashboard/login', { _csrf: DashboardClient.csrf(lp.text), email: a.email, password: PASSWORD, next: '/dashboard/events' });
    assert.equal((await dash.get('/dashboard/events')).status, 200);
    const r = await call(server.url, 'POST', '/auth/logout-everywhere', { token: a.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true });
    for (const t of [a.token, other]) assert.equal((await whoami(t)).body.code, 'session_ended');
    assert.equal((await dash.get('/dashboard/events')).status, 303);
    assert.equal((await whoami((await login(a.email, PASSWORD)).body.idToken)).status, 200, 'signing in again works');

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
});
