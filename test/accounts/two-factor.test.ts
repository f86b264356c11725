// Two-factor sign-in over HTTP (docs/decisions/25-organiser-teams-and-roles.md): enrolment with a
// first code, sign-in with a code or a recovery code, wrong codes on the §14 sign-in limits, a
// code refused when replayed and a recovery code that works once even under concurrent use, an
// organisation requiring two-factor sending its members to enrolment, turning it off, and the
// members list showing who has it. Codes are made from the secret at the server clock's time.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generate } from 'otplib';
import { tokenApi } from '../helpers/callers.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, createKey, signup, uniqueEmail, type Account } from '../helpers/http.js';
import { auditEntriesOf, runJobs } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';

describe('two-factor sign-in', () => {
  let server: TestServer;
  const staffEmail = uniqueEmail('staff');
  before(async () => {
    // TRUST_PROXY lets each test speak from an address of its own (X-Forwarded-For).
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1', STAFF_EMAILS: staffEmail } });
  });
  after(async () => {
    await server.close();
  });

  let n = 0;
  const from = () => `203.0.113.${++n}`;
  const as = (token: string) => tokenApi(server.url, token);
  /** The code an authenticator app shows now, by the server's clock. */
  const codeOf = (secret: string, offsetSteps = 0) =>
    generate({ secret, epoch: Math.floor(server.clock.now().getTime() / 1000) + offsetSteps * 30 });
  const login = (email: string, ip = '203.0.113.250', password = PASSWORD) =>
    call(server.url, 'POST', '/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': ip },
    });
  const second = (challenge: string, given: { code?: string; recoveryCode?: string }, ip = '203.0.113.250') =>
    call(server.url, 'POST', '/auth/login/two-factor', {
      body: { challenge, ...given },
      headers: { 'x-forwarded-for': ip },
    });

  /** A person with two-factor on: their secret and recovery codes. */
  async function enrolled(person?: Account) {
    const p = person ?? (await signup(server.url));
    const start = await as(p.token)('POST', '/dashboard/api/two-factor/enrol');
    assert.equal(start.status, 200, start.text);
    const secret = start.body.secret as string;
    const done = await as(p.token)('POST', '/dashboard/api/two-factor/confirm', {
      code: await codeOf(secret),
    });
    assert.equal(done.status, 200, done.text);
    // The next code is of a later step than the one enrolment took.
    server.clock.advance(30_000);
    return { ...p, secret, recoveryCodes: done.body.recoveryCodes as string[] };
  }

  it('enrols only with a valid code; the secret is stored sealed and the ten recovery codes hashed', async () => {
    const p = await signup(server.url);
    assert.deepEqual((await as(p.token)('GET', '/dashboard/api/two-factor')).body, {
      success: true,
      enabled: false,
      recoveryCodesLeft: 0,
      enrolmentRequired: false,
      organisationRequires: false,
    });
    const start = await as(p.token)('POST', '/dashboard/api/two-factor/enrol');
    assert.equal(start.status, 200, start.text);
    const secret = start.body.secret as string;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    const uri = new URL(start.body.otpauthUri);
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), secret);
    // 30-second steps and 6 digits: the defaults, which the URI may leave unsaid.
    assert.ok([null, '30'].includes(uri.searchParams.get('period')));
    assert.ok([null, '6'].includes(uri.searchParams.get('digits')));
    // Not on until a code confirms it: sign-in still answers a session.
    assert.ok((await login(p.email)).body.idToken);
    const wrong = await as(p.token)('POST', '/dashboard/api/two-factor/confirm', {
      code: (await codeOf(secret, 5)) as string,
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'invalid_two_factor_code');
    const ok = await as(p.token)('POST', '/dashboard/api/two-factor/confirm', { code: await codeOf(secret) });
    assert.equal(ok.status, 200, ok.text);
    const codes = ok.body.recoveryCodes as string[];
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    const st = await as(p.token)('GET', '/dashboard/api/two-factor');
    assert.equal(st.body.enabled, true);
    assert.equal(st.body.recoveryCodesLeft, 10);
    const again = await as(p.token)('POST', '/dashboard/api/two-factor/enrol');
    assert.equal(again.body.code, 'two_factor_already_enabled');
    const row = await server.deps.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', p.userId)
      .executeTakeFirstOrThrow();
    assert.ok(!row.secret_sealed.includes(secret));
    const stored = await server.deps.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', p.userId)
      .execute();
    assert.equal(stored.length, 10);
    for (const c of codes) assert.ok(stored.every((s) => !s.code_hash.includes(c.replace('-', ''))));
  });

  it('signs in with a code only after the password; a code is not taken twice', async () => {
    const p = await enrolled();
    const first = await login(p.email);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.twoFactorRequired, true);
    assert.equal(first.body.idToken, undefined);
    const code = await codeOf(p.secret);
    const signedIn = await second(first.body.challenge, { code });
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.equal((await as(signedIn.body.idToken)('GET', '/dashboard/api/two-factor')).body.enabled, true);
    assert.ok(signedIn.headers.getSetCookie().some((c) => c.startsWith('svc_device=')));
    // The same code again, within its step: refused.
    const replay = await second(first.body.challenge, { code });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.code, 'invalid_two_factor_code');
    // The previous step's code after a later one was taken: refused too.
    server.clock.advance(30_000);
    assert.equal((await second(first.body.challenge, { code: await codeOf(p.secret, -1) })).status, 401);
    assert.equal((await second(first.body.challenge, { code: await codeOf(p.secret) })).status, 200);
    // A forged or expired challenge is refused.
    const forged = await second(`${first.body.challenge}x`, { code: await codeOf(p.secret, 1) });
    assert.equal(forged.body.code, 'invalid_two_factor_challenge');
    server.clock.advance(6 * 60_000);
    const late = await second(first.body.challenge, { code: await codeOf(p.secret) });
    assert.equal(late.body.code, 'invalid_two_factor_challenge');
  });

  it('wrong codes count on the sign-in limits with wrong passwords: 429 for that address, and the account lock past 100', async () => {
    const p = await enrolled();
    const attacker = from();
    const { challenge } = (await login(p.email, attacker)).body;
    for (let i = 0; i < 4; i++) assert.equal((await login(p.email, attacker, `wrong ${i}`)).status, 401);
    for (let i = 0; i < 6; i++)
      assert.equal((await second(challenge, { code: '000000' }, attacker)).status, 401, `code ${i + 1}`);
    // Ten failures: the right password and the right code are refused from that address.
    const limited = await login(p.email, attacker);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'too_many_attempts');
    const limitedCode = await second(challenge, { code: await codeOf(p.secret) }, attacker);
    assert.equal(limitedCode.status, 429);
    assert.ok(Number(limitedCode.headers.get('retry-after')) > 0);
    // Elsewhere the owner signs in.
    const owner = from();
    const c = await login(p.email, owner);
    assert.equal((await second(c.body.challenge, { code: await codeOf(p.secret) }, owner)).status, 200);
    // Past 100 failures from everywhere, sign-in needs the reset link.
    server.clock.advance(15 * 60_000);
    const fresh = (await login(p.email, from())).body.challenge as string;
    for (let a = 0; a < 10; a++) {
      const ip = from();
      for (let i = 0; i < 10; i++) assert.equal((await second(fresh, { code: '000000' }, ip)).status, 401);
    }
    const locked = await login(p.email, from());
    assert.equal(locked.status, 403);
    assert.equal(locked.body.code, 'password_reset_required');
  });

  it('a recovery code signs in once, also when two requests race with it', async () => {
    const p = await enrolled();
    const { challenge } = (await login(p.email)).body;
    const code = p.recoveryCodes[0]!;
    const [a, b] = await Promise.all([
      second(challenge, { recoveryCode: code }),
      second(challenge, { recoveryCode: code }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 401]);
    // Used: refused afterwards, typed in capitals and without the dash as well.
    assert.equal((await second(challenge, { recoveryCode: code })).status, 401);
    assert.equal(
      (await second(challenge, { recoveryCode: code.replace('-', '').toUpperCase() })).status,
      401,
    );
    // Another code works, however it is typed.
    const other = await second(challenge, { recoveryCode: ` ${p.recoveryCodes[1]!.toUpperCase()} ` });
    assert.equal(other.status, 200, other.text);
    const st = await as(other.body.idToken)('GET', '/dashboard/api/two-factor');
    assert.equal(st.body.recoveryCodesLeft, 8);
    // Each recovery-code sign-in is mailed to the person, saying how many codes are left.
    const notices = await mailsTo(p.email, 'A recovery code was used to sign in');
    assert.equal(notices.length, 2);
    assert.ok(
      notices.some((t) => t.includes('8 recovery codes are left')),
      notices.join('\n'),
    );
    // New codes replace the old ones.
    const fresh = await as(other.body.idToken)('POST', '/dashboard/api/two-factor/recovery-codes', {
      password: PASSWORD,
    });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal((await second(challenge, { recoveryCode: p.recoveryCodes[2]! })).status, 401);
    assert.equal((await second(challenge, { recoveryCode: fresh.body.recoveryCodes[0] })).status, 200);
  });

  it('turns off with a current code or the password, not without', async () => {
    const p = await enrolled();
    const none = await as(p.token)('POST', '/dashboard/api/two-factor/disable', {});
    assert.equal(none.body.code, 'two_factor_proof_required');
    const wrong = await as(p.token)('POST', '/dashboard/api/two-factor/disable', {
      password: 'not it at all',
    });
    assert.equal(wrong.status, 401);
    const bad = await as(p.token)('POST', '/dashboard/api/two-factor/disable', { code: '000000' });
    assert.equal(bad.body.code, 'invalid_two_factor_code');
    const off = await as(p.token)('POST', '/dashboard/api/two-factor/disable', {
      code: await codeOf(p.secret),
    });
    assert.equal(off.status, 200, off.text);
    assert.ok((await login(p.email)).body.idToken, 'sign-in answers a session again');
    const notice = await mailsTo(p.email, 'Two-factor sign-in was turned off');
    assert.equal(notice.length, 1, 'the person is told at their address');
    assert.match(notice[0]!, /If this was not you, set a new password at once/);
    assert.equal(
      (await as(p.token)('POST', '/dashboard/api/two-factor/disable', { password: PASSWORD })).body.code,
      'two_factor_not_enabled',
    );
  });

  it('platform staff turn off a person’s two-factor, with the reason in the audit log and a notice to the person; nobody else can', async () => {
    const p = await enrolled();
    const staff = await signup(server.url, { email: staffEmail });
    const reset = (token: string, body: unknown, userId = p.userId) =>
      call(server.url, 'POST', `/admin/api/accounts/${userId}/two-factor/reset`, { token, body });
    assert.equal((await reset(p.token, { reason: 'me' })).status, 403, 'not the person themselves');
    assert.equal((await reset(staff.token, {})).status, 400);
    assert.equal((await reset(staff.token, { reason: '   ' })).body.code, 'invalid_field');
    assert.equal((await reset(staff.token, { reason: 'x' }, 'usr_nobody')).body.code, 'account_not_found');
    const ok = await reset(staff.token, { reason: 'Lost phone and codes; identity checked on a call' });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.data, { userId: p.userId, twoFactor: false });
    assert.ok((await login(p.email)).body.idToken, 'the password alone signs in again');
    assert.equal((await reset(staff.token, { reason: 'again' })).body.code, 'two_factor_not_enabled');
    assert.equal((await mailsTo(p.email, 'Two-factor sign-in was turned off')).length, 1);
    const entries = await auditEntriesOf(server, p.userId, 'account.two_factor_reset');
    assert.equal(entries.length, 1);
    assert.match(JSON.stringify(entries[0]), /identity checked on a call/);
  });

  it('the dashboard asks for the code after the password; wrong codes re-ask and then hit the sign-in limit', async () => {
    const p = await enrolled();
    const dash = new DashboardClient(server.url);
    const page = await dash.get('/dashboard/login');
    const asked = await dash.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(page.text),
      email: p.email,
      password: PASSWORD,
      next: '/dashboard/money',
    });
    assert.equal(asked.status, 200, 'no session yet: the code page');
    assert.match(asked.text, /6-digit code from your authenticator app/);
    assert.ok(!dash.cookies.has('svc_session'));
    assert.ok(dash.cookies.has('svc_2fa'));
    const csrf = DashboardClient.csrf(asked.text);
    for (let i = 0; i < 10; i++) {
      const wrong = await dash.post('/dashboard/login/two-factor', {
        _csrf: csrf,
        code: '000000',
        next: '/dashboard/money',
      });
      assert.equal(wrong.status, 401, `code ${i + 1}`);
      assert.match(wrong.text, /That code is wrong or was used already/);
    }
    const limited = await dash.post('/dashboard/login/two-factor', {
      _csrf: csrf,
      code: await codeOf(p.secret),
      next: '/dashboard/money',
    });
    assert.equal(limited.status, 429);
    assert.match(limited.text, /Too many sign-in attempts/);
    // The window passes, but so did the challenge's 5 minutes: sign in again, then the code.
    server.clock.advance(15 * 60_000);
    const late = await dash.post('/dashboard/login/two-factor', {
      _csrf: csrf,
      code: await codeOf(p.secret),
      next: '/dashboard/money',
    });
    assert.match(late.text, /Your sign-in took too long/);
    const again = await dash.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(late.text),
      email: p.email,
      password: PASSWORD,
      next: '/dashboard/money',
    });
    const ok = await dash.post('/dashboard/login/two-factor', {
      _csrf: DashboardClient.csrf(again.text),
      code: await codeOf(p.secret),
      next: '/dashboard/money',
    });
    assert.equal(ok.status, 303, ok.text.slice(0, 300));
    assert.equal(ok.location, '/dashboard/money');
    assert.ok(dash.cookies.has('svc_session'));
    assert.ok(!dash.cookies.has('svc_2fa'));
  });

  /** The notices mailed to `email` under `subject`, their text (the account jobs run first). */
  async function mailsTo(email: string, subject: string): Promise<string[]> {
    await runJobs(server, { topic: 'account.password_notice' });
    const dir = join(server.dataDir, 'mail');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((name) =>
        readFileSync(join(dir, name), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/gi, '='),
      )
      .filter((t) => t.toLowerCase().includes(`to: ${email.toLowerCase()}`) && t.includes(subject));
  }

  /** The token of the newest invitation mailed to `email`. */
  async function invitationToken(email: string): Promise<string> {
    await runJobs(server, { topic: 'account.invite_member' });
    const dir = join(server.dataDir, 'mail');
    assert.ok(existsSync(dir));
    for (const name of readdirSync(dir).sort().reverse()) {
      const text = readFileSync(join(dir, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/gi, '=');
      if (!text.toLowerCase().includes(email.toLowerCase())) continue;
      const m = /\/dashboard\/invitations\/accept\?token=([A-Za-z0-9_-]+)/.exec(text);
      if (m) return m[1]!;
    }
    throw new Error(`no invitation mail to ${email}`);
  }

  it('an organisation requiring two-factor sends its members to enrolment; the members list shows who has it', async () => {
    const owner = await signup(server.url);
    // Requiring it needs the owner's own two-factor first.
    const early = await as(owner.token)('PUT', '/dashboard/api/two-factor/requirement', { required: true });
    assert.equal(early.body.code, 'two_factor_not_enabled');
    const o = await enrolled(owner);
    const email = uniqueEmail('finance');
    assert.equal(
      (await as(o.token)('POST', '/dashboard/api/members', { email, role: 'finance' })).status,
      201,
    );
    const member = await signup(server.url, { email });
    const joined = await as(member.token)('POST', '/dashboard/api/invitations/accept', {
      token: await invitationToken(email),
    });
    assert.equal(joined.status, 200, joined.text);
    const orgToken = joined.body.idToken as string;
    assert.equal((await as(orgToken)('GET', '/dashboard/api/balance')).status, 200);
    // A finance member cannot set the rule.
    const notTheirs = await as(orgToken)('PUT', '/dashboard/api/two-factor/requirement', { required: true });
    assert.equal(notTheirs.body.code, 'role_forbidden');
    const set = await as(o.token)('PUT', '/dashboard/api/two-factor/requirement', { required: true });
    assert.deepEqual(set.body, { success: true, required: true });
    // The live-mode audit log names who set it.
    const live = await createKey(server.url, o.token, { mode: 'live', class: 'full' });
    const log = await call(server.url, 'GET', '/api/v1/audit-log', { key: live.key });
    const entry = log.body.data.find((e: any) => e.action === 'organisation.two_factor_requirement');
    assert.ok(entry, log.text);
    assert.equal(entry.actor.id, o.userId);
    assert.deepEqual(
      [entry.before, entry.after],
      [{ twoFactorRequired: false }, { twoFactorRequired: true }],
    );
    const list = await as(o.token)('GET', '/dashboard/api/members');
    const byId = new Map(list.body.data.map((m: { userId: string }) => [m.userId, m]));
    assert.equal((byId.get(o.userId) as { twoFactor: boolean }).twoFactor, true);
    assert.equal((byId.get(member.userId) as { twoFactor: boolean }).twoFactor, false);
    // The member can do nothing but their own sign-in, here and in their own organisation.
    const refused = await as(orgToken)('GET', '/dashboard/api/balance');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'two_factor_enrolment_required');
    assert.equal(
      (await as(member.token)('GET', '/dashboard/api/keys')).body.code,
      'two_factor_enrolment_required',
    );
    const st = await as(orgToken)('GET', '/dashboard/api/two-factor');
    assert.equal(st.body.enrolmentRequired, true);
    assert.equal(st.body.organisationRequires, true);
    // At their next dashboard sign-in they are sent to enrolment.
    const dash = new DashboardClient(server.url);
    const signedIn = await dash.login(email);
    const next = await dash.get(signedIn.location!);
    assert.equal(next.status, 303);
    assert.equal(next.location, '/dashboard/two-factor');
    const page = await dash.get('/dashboard/two-factor');
    assert.equal(page.status, 200);
    assert.match(page.text, /Your organisation requires two-factor sign-in/);
    // Enrolled, everything their role allows is open again.
    await enrolled({ ...member, token: orgToken });
    assert.equal((await as(orgToken)('GET', '/dashboard/api/balance')).status, 200);
    assert.equal((await dash.get('/dashboard/events')).status, 200);
  });
});
