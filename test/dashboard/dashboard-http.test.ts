// The dashboard over plain HTTP: headers, cookie flags, CSRF refusals, sign-out that
// ends the session, per-account sign-in limits, escaping, staff-only pages, and the
// verification screen (the mail captured over SMTP, its link opened, the resend limit).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userByEmail } from '../helpers/rows.js';
import { startSmtp, verificationLink, verificationMails, type SmtpSink } from '../helpers/smtp.js';

describe('dashboard over HTTP', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  const staffEmail = uniqueEmail('staff');
  before(async () => {
    smtp = await startSmtp();
    // Its own database: the verification mails are this server's jobs, sent to this sink.
    // Private webhook URLs allowed, so a webhook (and its secret) can be made without DNS.
    server = await startServer({
      isolatedDatabase: true,
      env: {
        STAFF_EMAILS: staffEmail,
        SMTP_URL: smtp.url,
        BASE_URL: 'https://tickets.example.in',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        VERIFY_MAIL_LIMIT_PER_HOUR: '',
      },
    });
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  /**
   * What the owner does with the mail's link: signed in to the dashboard as the account, opening
   * it confirms at once, with no button to press. Answers the verification screen after.
   */
  const open = async (c: DashboardClient, link: URL) => {
    const page = await c.get(link.pathname + link.search);
    assert.equal(page.status, 303);
    const token = link.searchParams.get('token')!;
    assert.equal(page.location, `/dashboard/verify?token=${token}`);
    const r = await c.get(page.location!);
    assert.equal(r.status, 303);
    assert.equal(r.location, '/dashboard/verify');
    return c.get('/dashboard/verify');
  };

  it('sends unauthenticated visitors to sign in, and serves pages with a strict CSP that forbids framing', async () => {
    const c = new DashboardClient(server.url);
    const r = await c.get('/dashboard/events?x=1');
    assert.equal(r.status, 303);
    assert.equal(r.location, '/dashboard/login?next=%2Fdashboard%2Fevents%3Fx%3D1');
    const login = await c.get('/dashboard/login');
    assert.equal(login.status, 200);
    assert.match(login.res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = login.res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(login.res.headers.get('x-frame-options'), 'DENY');
    assert.equal(login.res.headers.get('cache-control'), 'no-store');
    assert.doesNotMatch(login.text, /<script>|<script [^s]|style=/, 'no inline script or style');
  });

  it('reads a query field sent twice as its first value, never answering 500 (found by the fuzz)', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('twice'));
    const page = await c.get('/dashboard/events/new');
    const made = await c.post('/dashboard/events', {
      _csrf: DashboardClient.csrf(page.text),
      title: 'Twice',
      description: '',
      startDate: '2030-01-01T10:00',
      capacity: '0',
      price: '0',
      maxTeamSize: '1',
    });
    const id = /\/dashboard\/events\/(ev_[A-Za-z0-9_-]+)/.exec(made.location ?? '')?.[1];
    assert.ok(id, `an event was made: ${made.status} ${made.location}`);
    const list = await c.get(
      `/dashboard/events/${id}/registrations?q=%3C4-%22_6Y%23d&q=45J3z%3D&status=confirmed&status=x&checkin=in&checkin=out`,
    );
    assert.equal(list.status, 200, list.text.slice(0, 300));
    assert.match(list.text, /value="&lt;4-&quot;_6Y#d"/, 'the first value is the search shown');
  });

  it('sets the session cookie HttpOnly, Secure, SameSite=Lax on the dashboard path', async () => {
    const c = new DashboardClient(server.url);
    const r = await c.signup(uniqueEmail('flags'));
    assert.equal(r.location, '/dashboard/verify', 'sign-up lands on the verification screen');
    const set = r.res.headers.getSetCookie().find((s) => s.startsWith('svc_session='));
    assert.ok(set, 'a session cookie');
    for (const flag of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/dashboard'])
      assert.ok(set.split('; ').includes(flag), `${flag} in ${set}`);
    const events = await c.get('/dashboard/events');
    assert.equal(events.status, 200);
    assert.match(events.text, /<h1>Events<\/h1>/);
  });

  it('refuses a form post from another site, or without the token, and changes nothing', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('csrf'));
    const page = await c.get('/dashboard/events/new');
    const token = DashboardClient.csrf(page.text);
    const fields = {
      _csrf: token,
      title: 'Forged',
      description: '',
      startDate: '2030-01-01T10:00',
      capacity: '0',
      price: '0',
      maxTeamSize: '1',
    };

    const crossOrigin = await c.post('/dashboard/events', fields, { origin: 'http://attacker.example' });
    assert.equal(crossOrigin.status, 403);
    assert.match(crossOrigin.text, /another site/);
    const crossSite = await c.post('/dashboard/events', fields, { 'sec-fetch-site': 'same-site' });
    assert.equal(crossSite.status, 403);
    const noToken = await c.post('/dashboard/events', { ...fields, _csrf: '' });
    assert.equal(noToken.status, 403);
    const otherToken = await c.post('/dashboard/events', { ...fields, _csrf: token.slice(0, -2) + 'AA' });
    assert.equal(otherToken.status, 403);
    assert.doesNotMatch((await c.get('/dashboard/events')).text, /Forged/);

    const ok = await c.post('/dashboard/events', { ...fields, title: 'Real <b>event</b>' });
    assert.equal(ok.status, 303);
    const shown = await c.get(ok.location!);
    assert.equal(shown.status, 200);
    assert.match(shown.text, /Draft created/);
    assert.match(shown.text, /Real &lt;b&gt;event&lt;\/b&gt;/, 'titles are escaped');
  });

  it('a sign-in form is bound to its pre-session cookie', async () => {
    const a = new DashboardClient(server.url);
    const email = uniqueEmail('bound');
    await a.signup(email);
    const b = new DashboardClient(server.url);
    const page = await b.get('/dashboard/login');
    const stranger = new DashboardClient(server.url);
    const r = await stranger.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(page.text),
      email,
      password: 'correct horse battery',
    });
    assert.equal(r.status, 403, 'a token lifted from someone else’s page does not sign in');
    const own = await b.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(page.text),
      email,
      password: 'correct horse battery',
      next: '/dashboard/developers',
    });
    assert.equal(own.status, 303);
    assert.equal(own.location, '/dashboard/developers');
  });

  it('never redirects off the dashboard after sign-in', async () => {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('next');
    await c.signup(email);
    const page = await c.get('/dashboard/login');
    for (const next of ['https://attacker.example/', '//attacker.example', '/dashboard\\..\\x']) {
      const p = await c.get('/dashboard/login');
      const r = await c.post('/dashboard/login', {
        _csrf: DashboardClient.csrf(p.text),
        email,
        password: 'correct horse battery',
        next,
      });
      assert.equal(r.location, '/dashboard/events', next);
    }
    assert.ok(page.status === 200);
  });

  it('sign-out ends the session on the server: the old cookie no longer opens anything', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('out'));
    const stolen = c.cookieHeader();
    const page = await c.get('/dashboard/events');
    const r = await c.post('/dashboard/logout', { _csrf: DashboardClient.csrf(page.text) });
    assert.equal(r.status, 200);
    assert.match(r.text, /signed out/);
    assert.ok(r.res.headers.getSetCookie().some((s) => s.startsWith('svc_session=;') && /Max-Age=0/.test(s)));
    const replay = await fetch(`${server.url}/dashboard/events`, {
      redirect: 'manual',
      headers: { cookie: stolen },
    });
    assert.equal(replay.status, 303, 'the replayed cookie is sent to sign in');
  });

  it('limits sign-in attempts per account, whatever the password', async () => {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('limit');
    await c.signup(email);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const p = await c.get('/dashboard/login');
      statuses.push(
        (
          await c.post('/dashboard/login', {
            _csrf: DashboardClient.csrf(p.text),
            email,
            password: 'wrong password!',
          })
        ).status,
      );
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.equal(statuses[10], 429);
    const p = await c.get('/dashboard/login');
    const right = await c.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(p.text),
      email,
      password: 'correct horse battery',
    });
    assert.equal(right.status, 429, 'even the right password waits');
    assert.ok(Number(right.res.headers.get('retry-after')) >= 1);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const c = new DashboardClient(server.url);
    const p = await c.get('/dashboard/login');
    const unknown = await c.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(p.text),
      email: uniqueEmail('nobody'),
      password: 'whatever123',
    });
    assert.equal(unknown.status, 401);
    assert.match(unknown.text, /Email or password is wrong/);
  });

  it('keeps staff screens for staff, once their address is verified', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('notstaff'));
    const r = await c.get('/dashboard/staff');
    assert.equal(r.status, 403);
    const s = new DashboardClient(server.url);
    await s.signup(staffEmail);
    const early = await s.get('/dashboard/staff');
    assert.equal(early.status, 403, 'STAFF_EMAILS grants an unverified address nothing');
    assert.match(early.text, /staff rights need a verified email address/);
    assert.doesNotMatch((await s.get('/dashboard/events')).text, /href="\/dashboard\/staff"/);
    const link = await verificationLink(server, smtp, staffEmail);
    assert.equal(link.origin, 'https://tickets.example.in');
    assert.equal((await s.get('/dashboard/staff')).status, 403, 'opening the link alone grants nothing');
    assert.equal((await open(s, link)).status, 200);
    const ok = await s.get('/dashboard/staff');
    assert.equal(ok.status, 200);
    assert.match(ok.text, /Organiser access/);
    assert.match((await s.get('/dashboard/events')).text, /href="\/dashboard\/staff"/);
  });

  it('sign-up lands on the verification screen; every page says so until the link is opened', async () => {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('verify');
    const r = await c.signup(email);
    assert.equal(r.location, '/dashboard/verify');
    const screen = await c.get('/dashboard/verify');
    assert.equal(screen.status, 200);
    assert.match(screen.text, /<h1>Verify your email address<\/h1>/);
    assert.ok(screen.text.includes(`We sent a mail to <span class="mono">${email}</span>`));
    for (const path of ['/dashboard/events', '/dashboard/memberships', '/dashboard/developers']) {
      const p = await c.get(path);
      assert.match(p.text, /Your email address is not verified yet/, path);
      assert.match(
        p.text,
        /<form method="post" action="\/dashboard\/verify\/resend"><input type="hidden" name="_csrf" value="[^"]+"><button class="secondary">Send the mail again<\/button><\/form>/,
        path,
      );
    }
    assert.match((await c.get('/dashboard/developers')).text, /live keys need a verified email address/);

    const link = await verificationLink(server, smtp, email);
    const opened = await open(c, link);
    assert.equal(opened.status, 200);
    assert.match(opened.text, /is verified/);
    const after = await c.get('/dashboard/events');
    assert.doesNotMatch(after.text, /not verified/);
    assert.doesNotMatch(after.text, /verify\/resend/);
    assert.match((await c.get('/dashboard/verify')).text, /is verified/);
  });

  it('sends the mail again from the notice, at most 5 mails an hour to the address with the sign-up’s, through the same limit as the API', async () => {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('resend');
    await c.signup(email);
    await verificationLink(server, smtp, email); // the sign-up's mail
    const page = await c.get('/dashboard/events');
    const csrf = DashboardClient.csrf(page.text);
    const referer = { referer: `${server.url}/dashboard/events` };
    for (let i = 1; i <= 4; i++) {
      const r = await c.post('/dashboard/verify/resend', { _csrf: csrf }, referer);
      assert.equal(r.status, 303);
      assert.equal(r.location, '/dashboard/events');
      assert.match((await c.get('/dashboard/events')).text, /A new verification mail is on its way/);
      await verificationLink(server, smtp, email, i);
    }
    const refused = await c.post('/dashboard/verify/resend', { _csrf: csrf }, referer);
    assert.equal(refused.status, 303);
    assert.ok(Number(refused.res.headers.get('retry-after')) > 0);
    assert.match(
      (await c.get('/dashboard/events')).text,
      /At most 5 verification mails per hour to one address/,
    );
    // The API's resend counts against the same limit.
    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email, password: 'correct horse battery' },
    });
    const api = await call(server.url, 'POST', '/auth/verify/resend', { token: login.body.idToken });
    assert.equal(api.status, 429);
    assert.equal(verificationMails(smtp, email).length, 5);
    // Without the form token nothing is sent.
    const forged = await c.post('/dashboard/verify/resend', {});
    assert.equal(forged.status, 403);
    // Any of the mails' links verifies; then there is nothing to send.
    assert.equal((await open(c, await verificationLink(server, smtp, email, 2))).status, 200);
    const late = await c.post('/dashboard/verify/resend', { _csrf: csrf }, referer);
    assert.equal(late.status, 303);
    assert.match((await c.get('/dashboard/events')).text, /already verified/);
  });

  it('the verification link confirms only for the account it was sent for; signed out, it leads to sign-in and back', async () => {
    const email = uniqueEmail('squatted');
    const squatter = new DashboardClient(server.url);
    await squatter.signup(email);
    const link = await verificationLink(server, smtp, email);
    const token = link.searchParams.get('token')!;
    // The mailbox owner, signed in to an account of their own, clicks the link.
    const owner = new DashboardClient(server.url);
    await owner.signup(uniqueEmail('owner'));
    const r = await owner.get(`/dashboard/verify?token=${token}`);
    assert.equal(r.status, 303);
    assert.match((await owner.get('/dashboard/verify')).text, /This link was sent for another account/);
    assert.match((await squatter.get('/dashboard/verify')).text, /We sent a mail to/, 'still unverified');
    // Signed out: the page sends the visitor to sign in, and back to the confirmation.
    const stranger = new DashboardClient(server.url);
    const away = await stranger.get(`/dashboard/verify?token=${token}`);
    assert.equal(away.status, 303);
    assert.equal(
      away.location,
      `/dashboard/login?next=${encodeURIComponent(`/dashboard/verify?token=${token}`)}`,
    );
    // A forged form (no CSRF token) with the right session changes nothing either.
    assert.equal((await squatter.post('/dashboard/verify', { token })).status, 403);
    assert.match((await squatter.get('/dashboard/verify')).text, /We sent a mail to/);
  });

  it('a new key or webhook secret is shown in the answer to its form and stored nowhere readable', async () => {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('secrets');
    await c.signup(email);
    const userId = (await userByEmail(server, email))!.id;
    const page = await c.get('/dashboard/developers');
    const r = await c.post(
      '/dashboard/developers/keys',
      { _csrf: DashboardClient.csrf(page.text), mode: 'test', class: 'full', name: 'Server' },
      { referer: `${server.url}/dashboard/developers` },
    );
    assert.equal(r.status, 200, 'the key is in the answer itself, not behind a redirect');
    assert.equal(r.res.headers.get('cache-control'), 'no-store');
    const key = /<code class="secret-value" id="shown-once">(sk_test_[A-Za-z0-9_-]+)<\/code>/.exec(
      r.text,
    )?.[1];
    assert.ok(key, 'the key is shown');
    const rows = await server.deps.db
      .selectFrom('dashboard_sessions')
      .select('flash')
      .where('user_id', '=', userId)
      .execute();
    assert.ok(!JSON.stringify(rows).includes(key), 'no session row holds the key');
    assert.ok(!(await c.get('/dashboard/developers')).text.includes(key), 'not shown again');
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key })).status, 200);
    // The webhook signing secret, made and rotated, likewise.
    const made = await c.post(
      '/dashboard/developers/webhook',
      {
        _csrf: DashboardClient.csrf(page.text),
        url: 'http://127.0.0.1:9/ticketing',
        enabled: 'on',
        events: 'registration.confirmed',
      },
      { referer: `${server.url}/dashboard/developers` },
    );
    assert.equal(made.status, 200, made.text.slice(0, 300));
    const secret = /id="shown-once">([^<]+)<\/code>/.exec(made.text)?.[1];
    assert.ok(secret, 'the signing secret is shown');
    const rotated = await c.post(
      '/dashboard/developers/webhook/rotate',
      { _csrf: DashboardClient.csrf(page.text) },
      { referer: `${server.url}/dashboard/developers` },
    );
    assert.equal(rotated.status, 200);
    const secret2 = /id="shown-once">([^<]+)<\/code>/.exec(rotated.text)?.[1];
    assert.ok(secret2 && secret2 !== secret, 'the new secret is shown');
    const stored = JSON.stringify(
      await server.deps.db
        .selectFrom('dashboard_sessions')
        .select('flash')
        .where('user_id', '=', userId)
        .execute(),
    );
    assert.ok(!stored.includes(secret) && !stored.includes(secret2), 'no session row holds a signing secret');
    assert.ok(!(await c.get('/dashboard/developers')).text.includes(secret2));
  });

  it('refuses a live key to an unverified address and says why', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('livekey'));
    const page = await c.get('/dashboard/developers');
    const r = await c.post(
      '/dashboard/developers/keys',
      { _csrf: DashboardClient.csrf(page.text), mode: 'live', class: 'full', name: 'Live' },
      { referer: `${server.url}/dashboard/developers` },
    );
    assert.equal(r.status, 303);
    const shown = await c.get('/dashboard/developers');
    assert.match(
      shown.text,
      /Verify your email address before you create a live key: open the link in the verification mail, or use “Send the mail again” on this page\./,
    );
    assert.doesNotMatch(shown.text, /sk_live_/);
  });

  it('serves versioned assets with an ETag', async () => {
    const c = new DashboardClient(server.url);
    const page = await c.get('/dashboard/login');
    const href = /href="(\/dashboard\/assets\/app\.[0-9a-f]+\.css)"/.exec(page.text)![1]!;
    const first = await fetch(server.url + href);
    assert.equal(first.status, 200);
    assert.match(first.headers.get('cache-control') ?? '', /immutable/);
    const etag = first.headers.get('etag')!;
    const again = await fetch(server.url + href, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  it('leaves the JSON routes on bearer tokens: a dashboard cookie opens no API', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('api'));
    const r = await call(server.url, 'GET', '/dashboard/api/keys', { headers: { cookie: c.cookieHeader() } });
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'missing_session');
  });
});
