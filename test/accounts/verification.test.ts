// Verified email (docs/decisions/11-trust-and-safety.md, docs/decisions/14-trust-and-safety-second-round.md): the sign-up mail's link, confirmed only with
// the account's own session (a GET changes nothing), single use, expiry, resend limits,
// and what an unverified address cannot do (live keys, staff rights).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createKey, signup, uniqueEmail } from '../helpers/http.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';
import { apiKeysOf } from '../helpers/rows.js';

const PASSWORD = 'correct horse battery';

describe('email verification', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    smtp = await startSmtp();
    server = await startServer({
      isolatedDatabase: true,
      env: {
        SMTP_URL: smtp.url,
        STAFF_EMAILS: staffEmail,
        BASE_URL: 'https://tickets.example.in',
        VERIFY_MAIL_LIMIT_PER_HOUR: '',
      },
    });
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  /** Signs up over HTTP and waits for the verification mail; answers the account and the link's token. */
  async function signupAndMail(email = uniqueEmail('verify')) {
    const r = await call(server.url, 'POST', '/auth/signup', {
      body: { email, password: PASSWORD, name: 'Asha <b>Rao</b>' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.emailVerified, false);
    const token = await nextToken(email);
    return { userId: r.body.userId as string, idToken: r.body.idToken as string, email, token };
  }

  async function nextToken(email: string, skip = 0): Promise<string> {
    const mine = () => smtp.messages.filter((m) => m.envelopeTo.includes(email));
    await drainJobs(server, async () => mine().length > skip);
    const mail = mine()[skip]!;
    assert.equal(mail.subject, 'Confirm your email address');
    const m = /https:\/\/tickets\.example\.in\/auth\/verify\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    assert.ok(m, mail.text);
    assert.ok(Buffer.from(m[1]!, 'base64url').length >= 16, 'token of at least 128 bits');
    assert.ok(!String(mail.html).includes('<b>Rao</b>'), 'the name is escaped in HTML');
    return m[1]!;
  }

  const me = async (token: string) => {
    const k = await createKey(server.url, token, { mode: 'test' });
    return (await call(server.url, 'GET', '/api/v1/me', { key: k.key })).body;
  };

  it('sign-up mails a link; opening it (GET) without the account’s session leads to the dashboard and changes nothing; the owner confirms with their session, once', async () => {
    const a = await signupAndMail();
    assert.equal((await me(a.idToken)).emailVerified, false);
    const stored = await server.deps.db
      .selectFrom('email_verifications')
      .selectAll()
      .where('user_id', '=', a.userId)
      .execute();
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.token_hash, a.token, 'the token is stored hashed');
    // What a mail scanner does: open the link, even twice. Nothing changes.
    for (let i = 0; i < 2; i++) {
      const page = await fetch(`${server.url}/auth/verify?token=${a.token}`, { redirect: 'manual' });
      assert.equal(page.status, 303);
      assert.equal(page.headers.get('location'), `/dashboard/verify?token=${a.token}`);
      // …where, without a session, the dashboard asks to sign in first.
      const dashboard = await fetch(`${server.url}/dashboard/verify?token=${a.token}`, {
        redirect: 'manual',
      });
      assert.equal(dashboard.status, 303);
      assert.match(dashboard.headers.get('location') ?? '', /^\/dashboard\/login\?next=/);
    }
    assert.equal((await me(a.idToken)).emailVerified, false, 'a GET alone never verifies');
    const row = await server.deps.db
      .selectFrom('email_verifications')
      .select('used_at')
      .where('user_id', '=', a.userId)
      .executeTakeFirstOrThrow();
    assert.equal(row.used_at, null, 'the token is still unused');
    const r = await call(server.url, 'POST', '/auth/verify', { token: a.idToken, body: { token: a.token } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { success: true, emailVerified: true });
    assert.equal((await me(a.idToken)).emailVerified, true);
    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email: a.email, password: PASSWORD },
    });
    assert.equal(login.body.emailVerified, true);
    const post = await call(server.url, 'POST', '/auth/verify', {
      token: a.idToken,
      body: { token: a.token },
    });
    assert.equal(post.status, 400);
    assert.equal(post.body.code, 'verification_token_used');
  });

  it('POST /auth/verify without a session of the token’s account: 401 session_required, and nothing changes', async () => {
    const a = await signupAndMail();
    const none = await call(server.url, 'POST', '/auth/verify', { body: { token: a.token } });
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'session_required');
    const bogus = await call(server.url, 'POST', '/auth/verify', {
      token: 'eyJhbGciOiJIUzI1NiJ9.e30.bogus',
      body: { token: a.token },
    });
    assert.equal(bogus.status, 401);
    assert.equal(bogus.body.code, 'session_required');
    // The mailbox owner clicking a link an attacker's sign-up caused, signed in to their own account.
    const other = await signup(server.url);
    const stranger = await call(server.url, 'POST', '/auth/verify', {
      token: other.token,
      body: { token: a.token },
    });
    assert.equal(stranger.status, 401);
    assert.equal(stranger.body.code, 'session_required');
    assert.equal((await me(a.idToken)).emailVerified, false);
    const row = await server.deps.db
      .selectFrom('email_verifications')
      .select('used_at')
      .where('user_id', '=', a.userId)
      .executeTakeFirstOrThrow();
    assert.equal(row.used_at, null);
    const unknown = await call(server.url, 'POST', '/auth/verify', {
      token: a.idToken,
      body: { token: 'A'.repeat(43) },
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'invalid_verification_token');
    const page = await call(server.url, 'GET', '/auth/verify?token=%3Cscript%3E');
    assert.ok(!page.text.includes('<script>'));
  });

  it('a token expires after 48 hours (by the service clock)', async () => {
    const a = await signupAndMail();
    server.clock.advance(48 * 3600_000 + 1000);
    const r = await call(server.url, 'POST', '/auth/verify', {
      token: (await call(server.url, 'POST', '/auth/login', { body: { email: a.email, password: PASSWORD } }))
        .body.idToken,
      body: { token: a.token },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'verification_token_expired');
    assert.equal(
      (
        await me(
          (
            await call(server.url, 'POST', '/auth/login', { body: { email: a.email, password: PASSWORD } })
          ).body.idToken,
        )
      ).emailVerified,
      false,
    );
  });

  it('resend mails a new working link; an address gets at most 5 mails an hour, the sign-up’s included (429 with Retry-After)', async () => {
    const a = await signupAndMail();
    for (let i = 1; i <= 4; i++) {
      const r = await call(server.url, 'POST', '/auth/verify/resend', { token: a.idToken });
      assert.equal(r.status, 202, r.text);
    }
    const limited = await call(server.url, 'POST', '/auth/verify/resend', { token: a.idToken });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'too_many_attempts');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    const fresh = await nextToken(a.email, 4);
    assert.equal(
      (await call(server.url, 'POST', '/auth/verify', { token: a.idToken, body: { token: fresh } })).status,
      200,
    );
    const done = await call(server.url, 'POST', '/auth/verify/resend', { token: a.idToken });
    assert.equal(done.status, 409);
    assert.equal(done.body.code, 'email_already_verified');
    assert.equal((await call(server.url, 'POST', '/auth/verify/resend')).status, 401);
  });

  it('an unverified account gets test keys at once but no live key (403 email_unverified)', async () => {
    const a = await signup(server.url, { verified: false });
    for (const cls of ['full', 'checkout'] as const) {
      const r = await call(server.url, 'POST', '/dashboard/api/keys', {
        token: a.token,
        body: { mode: 'live', class: cls },
      });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'email_unverified');
    }
    assert.equal(
      (
        await call(server.url, 'POST', '/dashboard/api/keys', {
          token: a.token,
          body: { mode: 'test', class: 'full' },
        })
      ).status,
      201,
    );
    const rows = await apiKeysOf(server, a.userId);
    assert.deepEqual(
      rows.map((r) => r.mode),
      ['test'],
    );
  });

  it('STAFF_EMAILS grants nothing until the address is verified', async () => {
    const target = await signup(server.url);
    const s = await signupAndMail(staffEmail);
    const grant = () =>
      call(server.url, 'POST', `/admin/api/accounts/${target.userId}/organiser-access`, {
        token: s.idToken,
        body: { canPublish: true },
      });
    const refused = await grant();
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'staff_only');
    assert.equal(
      (await fetch(`${server.url}/auth/verify?token=${s.token}`)).status,
      200,
      'followed: the sign-in page',
    );
    assert.equal((await grant()).status, 403, 'opening the link grants nothing');
    assert.equal(
      (await call(server.url, 'POST', '/auth/verify', { token: s.idToken, body: { token: s.token } })).status,
      200,
    );
    assert.equal((await grant()).status, 200);
  });
});
