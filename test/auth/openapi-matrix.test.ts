// The authorisation matrix over every route the service registers, read from Fastify
// itself (`app.routeTable`, filled by the onRoute hook), hidden dashboard pages and the
// CORS preflight included: each route, with its declared rule, is called as every kind
// of caller that rule must refuse, and the refusal is checked. The OpenAPI document's
// `x-auth` must say the same. A route registered without a rule is refused at start-up,
// and (the fallback) at request time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { markEmailVerified } from '../../src/modules/accounts/accounts.repo.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, createKey, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { userByEmail } from '../helpers/rows.js';

type Rule =
  | { kind: 'public'; rateLimit?: boolean }
  | { kind: 'key'; classes: string[]; modes?: string[] }
  | { kind: 'session'; refusal?: string }
  | { kind: 'staff' }
  | { kind: 'cookie'; staff?: boolean }
  | { kind: 'door'; keys?: boolean };
/** A door rule with `keys` also takes a full key: the key checks apply to it as to `{ kind: 'key', classes: ['full'] }`. */
const asKeyRule = (r: Rule): Extract<Rule, { kind: 'key' }> | undefined =>
  r.kind === 'key' ? r : r.kind === 'door' && r.keys ? { kind: 'key', classes: ['full'] } : undefined;
interface Op {
  method: string;
  /** The OpenAPI form, `/api/v1/events/{id}`. */
  path: string;
  rule: Rule;
  hidden: boolean;
  /** The operation in the OpenAPI document (undefined for hidden routes). */
  op: any;
}

describe('authorisation matrix over every registered route', () => {
  let server: TestServer;
  let ops: Op[] = [];
  let owner: Account;
  const keys: Record<string, KeyInfo> = {};
  let revoked: KeyInfo;
  let stranger: KeyInfo;
  let plain: Account;
  let unverifiedStaff: Account;
  let eventId: string;
  let documented: Record<string, Record<string, any>> = {};
  let plainCookie: DashboardClient;
  let staffCookie: DashboardClient;
  let unverifiedStaffCookie: DashboardClient;
  const staffEmail = uniqueEmail('staff');
  const staffCookieEmail = uniqueEmail('staffc');
  const unverifiedStaffCookieEmail = uniqueEmail('staffu');

  before(async () => {
    server = await startServer({
      env: { STAFF_EMAILS: [staffEmail, staffCookieEmail, unverifiedStaffCookieEmail].join(',') },
    });
    owner = await signup(server.url);
    for (const mode of ['test', 'live'] as const) {
      for (const cls of ['full', 'checkout'] as const)
        keys[`${cls}:${mode}`] = await createKey(server.url, owner.token, { mode, class: cls });
    }
    revoked = await createKey(server.url, owner.token, { mode: 'test', class: 'full' });
    assert.equal(
      (await call(server.url, 'DELETE', `/dashboard/api/keys/${revoked.keyId}`, { token: owner.token }))
        .status,
      200,
    );
    const other = await signup(server.url);
    stranger = await createKey(server.url, other.token, { mode: 'test', class: 'full' });
    plain = await signup(server.url);
    unverifiedStaff = await signup(server.url, { email: staffEmail, verified: false });
    eventId = await createEvent(keyApi(server.url, keys['full:test']!.key), {
      title: 'Matrix',
      startDate: '2026-12-01',
    });
    const doc = (await call(server.url, 'GET', '/api/v1/openapi.json')).body;
    documented = doc.paths;
    for (const r of server.app.routeTable) {
      if (r.method === 'HEAD') continue; // GET's twin, same rule
      const path = r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      ops.push({
        method: r.method,
        path,
        rule: r.rule as Rule,
        hidden: r.hidden,
        op: doc.paths[path]?.[r.method.toLowerCase()],
      });
    }
    // Dashboard cookies: an organiser, a staff member, and a staff address not yet verified.
    plainCookie = new DashboardClient(server.url);
    const plainEmail = uniqueEmail('dash');
    await plainCookie.signup(plainEmail);
    staffCookie = new DashboardClient(server.url);
    await staffCookie.signup(staffCookieEmail);
    const staffUser = (await userByEmail(server, staffCookieEmail))!;
    await markEmailVerified(server.deps.db, staffUser.id, staffUser.email, server.clock.now());
    unverifiedStaffCookie = new DashboardClient(server.url);
    await unverifiedStaffCookie.signup(unverifiedStaffCookieEmail);
  });
  after(async () => {
    await server.close();
  });

  const url = (path: string) =>
    path
      .replace(/\{id\}/g, eventId)
      .replace(/\{[A-Za-z0-9_]+\}/g, 'x_unknown')
      .replace(/\*$/, 'events');
  const bodyOf = (o: Op) =>
    o.op?.requestBody ||
    (o.rule.kind !== 'cookie' && o.method !== 'GET' && o.method !== 'DELETE' && o.method !== 'OPTIONS')
      ? { body: {} }
      : {};
  const send = (o: Op, options: Parameters<typeof call>[3] = {}) =>
    call(server.url, o.method, url(o.path), { ...bodyOf(o), ...options });
  /** A dashboard page as a browser sends it (urlencoded form, our own Origin), redirects not followed. */
  const page = async (o: Op, headers: Record<string, string>, fields: Record<string, string> = {}) => {
    const res = await fetch(server.url + url(o.path), {
      method: o.method,
      redirect: 'manual',
      headers: {
        origin: server.url,
        ...(o.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(o.method === 'POST' ? { body: new URLSearchParams(fields).toString() } : {}),
    });
    const text = await res.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  };
  const sendPage = (o: Op, cookie: string, fields: Record<string, string> = {}) =>
    page(o, cookie === '' ? {} : { cookie }, fields);
  const shape = (r: { body: any }) => {
    assert.equal(typeof r.body?.error, 'string');
    assert.equal(typeof r.body?.code, 'string');
  };
  // Public routes never refuse for want of credentials; these refusals are about something else
  // (a webhook's signature is over its body, and Meta's handshake token is a setting the service checks).
  const NOT_AUTH = new Set([
    'csrf_refused',
    'origin_not_allowed',
    'checkout_key_required',
    'signature_not_verified',
    'verify_token_mismatch',
  ]);

  it('every registered route declares a rule the matrix knows, and the document says the same', () => {
    assert.ok(ops.length > 100, `${ops.length} routes`);
    assert.ok(ops.filter((o) => o.hidden).length > 40, 'the dashboard pages are in the matrix');
    for (const o of ops) {
      assert.ok(o.rule, `${o.method} ${o.path} has no rule`);
      assert.ok(
        ['public', 'key', 'session', 'staff', 'cookie', 'door'].includes(o.rule.kind),
        `${o.method} ${o.path}: unknown rule ${JSON.stringify(o.rule)}`,
      );
      if (o.rule.kind === 'key') assert.ok(o.rule.classes.length > 0);
      if (o.hidden) {
        assert.equal(o.op, undefined, `${o.method} ${o.path} is hidden but documented`);
        continue;
      }
      assert.ok(o.op, `${o.method} ${o.path} is registered but not in the OpenAPI document`);
      assert.deepEqual(o.op['x-auth'], o.rule, `${o.method} ${o.path}: x-auth says otherwise than the route`);
      assert.notEqual(o.rule.kind, 'cookie', `${o.method} ${o.path}: a cookie page in the API document`);
      // The documented security matches the rule.
      const security = JSON.stringify(o.op.security ?? []);
      if (o.rule.kind === 'key') assert.equal(security, '[{"apiKey":[]}]', `${o.method} ${o.path}`);
      else if (o.rule.kind === 'public') assert.equal(security, '[]', `${o.method} ${o.path}`);
      else if (o.rule.kind === 'door')
        assert.equal(
          security,
          o.rule.keys ? '[{"doorPass":[]},{"apiKey":[]}]' : '[{"doorPass":[]}]',
          `${o.method} ${o.path}`,
        );
      else assert.equal(security, '[{"session":[]}]', `${o.method} ${o.path}`);
    }
    // And nothing is documented that is not registered.
    for (const [path, item] of Object.entries(documented)) {
      for (const method of Object.keys(item)) {
        assert.ok(
          ops.some((o) => o.path === path && o.method === method.toUpperCase()),
          `${method} ${path} documented but not registered`,
        );
      }
    }
  });

  it('no credentials: 401 wherever a key or session is needed (a dashboard page sends to sign-in); public routes never 401/403', async () => {
    for (const o of ops) {
      const r =
        o.rule.kind === 'cookie' || (o.hidden && o.path.startsWith('/dashboard'))
          ? await sendPage(o, '')
          : await send(o);
      const where = `${o.method} ${o.path}: ${r.status} ${r.text.slice(0, 120)}`;
      if (o.rule.kind === 'public') {
        assert.ok(r.status < 500, where);
        assert.ok(
          r.status !== 401 &&
            (r.status !== 403 || NOT_AUTH.has(r.body?.code) || /csrf|another site/i.test(r.text)),
          where,
        );
        continue;
      }
      if (o.rule.kind === 'cookie') {
        assert.equal(r.status, 303, where);
        assert.match(r.headers.get('location') ?? '', /^\/dashboard\/login\?next=/, where);
        continue;
      }
      assert.equal(r.status, 401, where);
      // The door screen carries its pass in its path and answers as a page.
      if (o.path.includes('{token}')) continue;
      shape(r);
      assert.equal(
        r.body.code,
        o.rule.kind === 'key'
          ? 'missing_api_key'
          : o.rule.kind === 'door'
            ? 'missing_door_pass'
            : ((o.rule as { refusal?: string }).refusal ?? 'missing_session'),
        where,
      );
    }
  });

  it('dashboard pages take only the session cookie: a key, a bearer token or a forged cookie sends to sign-in', async () => {
    for (const o of ops.filter((x) => x.rule.kind === 'cookie')) {
      for (const [what, headers] of [
        ['a key', { 'x-api-key': keys['full:test']!.key }],
        ['a bearer token', { authorization: `Bearer ${owner.token}` }],
        ['a forged cookie', { cookie: 'svc_session=forged.value' }],
      ] as const) {
        const r = await page(o, headers);
        assert.equal(r.status, 303, `${o.method} ${o.path} with ${what}: ${r.status}`);
        assert.match(r.headers.get('location') ?? '', /^\/dashboard\/login/);
      }
    }
  });

  it('dashboard forms: every POST without the form token is refused (403), signed in or not', async () => {
    for (const o of ops.filter((x) => x.hidden && x.method === 'POST' && x.path.startsWith('/dashboard'))) {
      const cookie = o.rule.kind === 'public' ? '' : staffCookie.cookieHeader();
      const r = await sendPage(o, cookie, { _csrf: 'forged' });
      assert.equal(r.status, 403, `${o.method} ${o.path}: ${r.status} ${r.text.slice(0, 120)}`);
    }
  });

  it('staff pages: 403 for a cookie that is not staff, and for a staff address not yet verified; staff get in', async () => {
    const staffPages = ops.filter((x) => x.rule.kind === 'cookie' && x.rule.staff === true);
    assert.ok(staffPages.length >= 4, `${staffPages.length} staff pages`);
    for (const o of staffPages) {
      for (const who of [plainCookie, unverifiedStaffCookie]) {
        const r = await sendPage(o, who.cookieHeader());
        assert.equal(r.status, 403, `${o.method} ${o.path}: ${r.status}`);
      }
      if (o.method === 'GET')
        assert.equal(
          (await sendPage(o, staffCookie.cookieHeader())).status,
          200,
          `${o.method} ${o.path} as staff`,
        );
    }
  });

  it('an unknown key or token: 401; a key where a session is needed: 401', async () => {
    for (const o of ops.filter((x) => x.rule.kind !== 'public' && x.rule.kind !== 'cookie')) {
      if (o.rule.kind === 'door') {
        const bogus = await send(o, { headers: { authorization: 'DoorPass ' + 'Q'.repeat(32) } });
        assert.equal(bogus.status, 401, `${o.method} ${o.path}`);
        if (!o.path.includes('{token}'))
          assert.equal(bogus.body.code, 'invalid_door_pass', `${o.method} ${o.path}`);
        assert.equal(
          (await send(o, { token: owner.token })).status,
          401,
          `${o.method} ${o.path} with a session instead of a pass`,
        );
        if (o.rule.keys)
          assert.equal((await send(o, { key: 'sk_test_' + 'Q'.repeat(32) })).body.code, 'invalid_api_key');
      } else if (o.rule.kind === 'key') {
        const r = await send(o, { key: 'sk_test_' + 'Q'.repeat(32) });
        assert.equal(r.status, 401, `${o.method} ${o.path}`);
        assert.equal(r.body.code, 'invalid_api_key');
        const asSession = await send(o, { token: owner.token });
        assert.equal(asSession.status, 401, `${o.method} ${o.path} with a session instead of a key`);
      } else {
        const r = await send(o, { token: 'eyJhbGciOiJIUzI1NiJ9.e30.bogus' });
        assert.equal(r.status, 401, `${o.method} ${o.path}`);
        const refusal = (o.rule as { refusal?: string }).refusal;
        assert.equal(r.body.code, refusal ?? 'invalid_session');
        const asKey = await send(o, { key: keys['full:test']!.key });
        assert.equal(asKey.status, 401, `${o.method} ${o.path} with a key instead of a session`);
        assert.equal(asKey.body.code, refusal ?? 'missing_session');
        const asCookie = await send(o, { headers: { cookie: staffCookie.cookieHeader() } });
        assert.equal(
          asCookie.status,
          401,
          `${o.method} ${o.path} with the dashboard cookie instead of a token`,
        );
      }
    }
  });

  it('a revoked key: 403 on every key operation', async () => {
    for (const o of ops.filter((x) => asKeyRule(x.rule))) {
      const r = await send(o, { key: revoked.key });
      assert.equal(r.status, 403, `${o.method} ${o.path}`);
      assert.equal(r.body.code, 'api_key_revoked');
    }
  });

  it('a key of a class or mode the rule leaves out: 403', async () => {
    for (const o of ops.filter((x) => asKeyRule(x.rule))) {
      const rule = asKeyRule(o.rule)!;
      for (const [name, k] of Object.entries(keys)) {
        const [cls, mode] = name.split(':') as [string, string];
        const r = await send(o, { key: k.key });
        const where = `${o.method} ${o.path} with ${name}: ${r.status} ${r.text.slice(0, 120)}`;
        if (!rule.classes.includes(cls)) {
          assert.equal(r.status, 403, where);
          assert.equal(r.body.code, 'checkout_key_not_allowed', where);
        } else if (rule.modes && !rule.modes.includes(mode)) {
          assert.equal(r.status, 403, where);
          assert.equal(r.body.code, `${rule.modes[0]}_mode_only`, where);
        } else {
          // Allowed through the door: whatever it answers, it is not an authentication refusal.
          assert.ok(
            r.status !== 401 &&
              !['api_key_revoked', 'checkout_key_not_allowed', 'test_mode_only', 'live_mode_only'].includes(
                r.body?.code,
              ),
            where,
          );
          assert.ok(r.status < 500, where);
        }
      }
    }
  });

  it("another account's event: 403; another mode's: 404 (reads of an event)", async () => {
    const eventReads = ops.filter(
      (o) =>
        asKeyRule(o.rule) &&
        o.method === 'GET' &&
        o.path.startsWith('/api/v1/events/{id}') &&
        !/\{(?!id\})/.test(o.path),
    );
    assert.ok(eventReads.length >= 3);
    for (const o of eventReads) {
      const mine = await send(o, {
        key: keys['full:test']!.key,
        ...(o.path.endsWith('/check-in') ? {} : {}),
      });
      const theirs = await send(o, { key: stranger.key });
      const otherMode = await send(o, { key: keys['full:live']!.key });
      const where = `${o.method} ${o.path}: mine ${mine.status}, theirs ${theirs.status} ${theirs.text.slice(0, 100)}, other mode ${otherMode.status}`;
      if (mine.status === 400) continue; // needs a query the matrix does not make up
      assert.equal(theirs.status, 403, where);
      assert.equal(otherMode.status, 404, where);
    }
  });

  it('staff operations: 403 for a session that is not staff, and for a staff address not yet verified', async () => {
    for (const o of ops.filter((x) => x.rule.kind === 'staff')) {
      for (const who of [plain, unverifiedStaff]) {
        const r = await send(o, { token: who.token });
        assert.equal(r.status, 403, `${o.method} ${o.path}`);
        assert.equal(r.body.code, 'staff_only');
      }
    }
  });

  it('live-only actions need a verified email: an unverified account gets 403 email_unverified', async () => {
    const unverified = await signup(server.url, { verified: false });
    for (const cls of ['full', 'checkout']) {
      const r = await call(server.url, 'POST', '/dashboard/api/keys', {
        token: unverified.token,
        body: { mode: 'live', class: cls },
      });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'email_unverified');
    }
  });
});

describe('a route without an access rule is refused', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('at start-up: registering it throws, so the app never serves it', async () => {
    const app = await buildApp(server.deps);
    try {
      assert.throws(() => app.get('/no-rule', async () => ({ open: true })), /declares no access rule/);
      assert.throws(
        () =>
          app.post('/odd-rule', { config: { auth: { kind: 'everyone' } as never } }, async () => ({
            open: true,
          })),
        /declares no access rule/,
      );
      assert.throws(
        () =>
          app.get('/no-classes', { config: { auth: { kind: 'key', classes: [] } } }, async () => ({
            open: true,
          })),
        /at least one key class/,
      );
    } finally {
      await app.close();
    }
  });

  it('at request time (the fallback): a route whose rule went missing after the start-up check answers 403, never its handler', async () => {
    const app = await buildApp(server.deps);
    try {
      // A later onRoute hook strips the rule after the start-up check passed: the auth hook must still refuse.
      app.addHook('onRoute', (route) => {
        if (route.url.startsWith('/stripped')) delete (route.config as { auth?: unknown }).auth;
      });
      let reached = false;
      app.get('/stripped', { exposeHeadRoute: false, config: { auth: { kind: 'public' } } }, async () => {
        reached = true;
        return { open: true };
      });
      app.post('/stripped', { config: { auth: { kind: 'key', classes: ['full'] } } }, async () => {
        reached = true;
        return { open: true };
      });
      await app.ready();
      for (const method of ['GET', 'POST'] as const) {
        const r = await app.inject({
          method,
          url: '/stripped',
          ...(method === 'POST' ? { payload: {} } : {}),
        });
        assert.equal(r.statusCode, 403, `${method}: ${r.body}`);
        assert.equal(r.json().code, 'route_not_open');
      }
      assert.equal(reached, false);
      // Unknown routes are still a plain 404.
      const missing = await app.inject({ method: 'GET', url: '/nowhere-at-all' });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().code, 'not_found');
    } finally {
      await app.close();
    }
  });
});
