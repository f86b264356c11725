// The dashboard keeps the API's rules (docs/decisions/14-trust-and-safety-second-round.md): an unverified account cannot act in live mode
// there; checkout keys cannot drive sandbox subscription events; a `next` with control
// characters never reaches a Location header; a CORS preflight logs no error.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { markEmailVerified } from '../../src/modules/accounts/accounts.repo.js';
import { createLogger } from '../../src/lib/logger.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { createKey, organiser, uniqueEmail } from '../helpers/http.js';
import { keyApi } from '../helpers/factories.js';
import { startServer, testEnv, type TestServer } from '../helpers/server.js';

describe('the dashboard keeps the API’s rules', () => {
  let server: TestServer;
  const lines: string[] = [];
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dash-rules-'));
    const logger = createLogger(
      loadConfig(testEnv(dir, { LOG_LEVEL: 'info' })),
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    server = await startServer({ logger, dataDir: dir });
  });
  after(async () => {
    await server.close();
  });

  const userIdOf = async (email: string) =>
    (await sql<{ id: string }>`select id from users where email = ${email}`.execute(server.deps.db)).rows[0]!
      .id;
  const modesOf = async (userId: string) =>
    (
      await sql<{ mode: string }>`select mode from events where account_id = ${userId} order by mode`.execute(
        server.deps.db,
      )
    ).rows.map((r) => r.mode);
  const eventFields = (csrf: string, title: string) => ({
    _csrf: csrf,
    title,
    description: '',
    startDate: '2030-01-01T10:00',
    capacity: '0',
    price: '0',
    maxTeamSize: '1',
  });

  it('an unverified account cannot switch to live mode, nor create a live event with a live mode cookie', async () => {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('unverified');
    await c.signup(email);
    const userId = await userIdOf(email);
    const csrf = DashboardClient.csrf((await c.get('/dashboard/events/new')).text);

    // Refused: back to the page, which says why (the dashboard's way with a refused form).
    const toLive = await c.post('/dashboard/mode', { _csrf: csrf, mode: 'live' });
    assert.equal(toLive.status, 303, toLive.text.slice(0, 300));
    assert.equal(c.cookies.get('svc_mode'), undefined, 'no live mode cookie was set');
    assert.match((await c.get(toLive.location!)).text, /live mode needs a verified email address/i);

    // A live cookie set by hand reads as test mode: what the page shows and what it does.
    c.cookies.set('svc_mode', 'live');
    const created = await c.post('/dashboard/events', eventFields(csrf, 'Not live'));
    assert.equal(created.status, 303, created.text.slice(0, 300));
    assert.deepEqual(await modesOf(userId), ['test']);
    const page = await c.get(created.location!);
    assert.equal(page.status, 200, 'the event is shown in the mode it was made in');

    // Once verified, live mode is open to the account.
    await markEmailVerified(server.deps.db, userId, email, server.clock.now());
    const csrf2 = DashboardClient.csrf((await c.get('/dashboard/events/new')).text);
    const live = await c.post('/dashboard/mode', { _csrf: csrf2, mode: 'live' });
    assert.equal(live.status, 303);
    assert.equal(c.cookies.get('svc_mode'), 'live');
    assert.equal((await c.post('/dashboard/events', eventFields(csrf2, 'Live now'))).status, 303);
    assert.deepEqual(await modesOf(userId), ['live', 'test']);
  });

  it('a checkout key may approve a sandbox mandate but not charge, halt or cancel a subscription', async () => {
    const org = await organiser(server.url);
    const checkout = await createKey(server.url, org.token, { class: 'checkout' });
    const asOrg = keyApi(server.url, org.key);
    const asCheckout = keyApi(server.url, checkout.key);
    const plan = await asOrg('POST', '/api/v1/memberships/plans', {
      name: 'Monthly club',
      amount: 500,
      period: 'monthly',
    });
    assert.equal(plan.status, 201, plan.text);
    const sub = await asCheckout('POST', '/api/v1/memberships/subscribe', {
      planId: plan.body.data.id,
      name: 'Member',
      email: uniqueEmail('member'),
      phone: '+919876543210',
    });
    assert.equal(sub.status, 201, sub.text);
    const id = sub.body.subscriptionId as string;

    assert.equal((await asCheckout('POST', `/api/v1/sandbox/subscriptions/${id}/authenticate`)).status, 200);
    for (const action of ['charge', 'halt', 'cancel']) {
      const r = await asCheckout('POST', `/api/v1/sandbox/subscriptions/${id}/${action}`);
      assert.deepEqual([r.status, r.body.code], [403, 'checkout_key_not_allowed'], `${action}: ${r.text}`);
    }
    const charged = await asOrg('POST', `/api/v1/sandbox/subscriptions/${id}/charge`);
    assert.deepEqual([charged.status, charged.body.result], [200, 'applied'], charged.text);
  });

  it('a next with CR/LF on sign-in is ignored: the page and the sign-in answer, and redirect only to the dashboard', async () => {
    const email = uniqueEmail('next');
    await new DashboardClient(server.url).signup(email, 'a long password here');
    const hostile = '/dashboard/events\r\nSet-Cookie: svc_session=forged';
    for (const next of [hostile, '/dashboard/\u0000x', '/dashboard/\u20b9', '/dashboard/x\ty']) {
      const c = new DashboardClient(server.url);
      const page = await c.get(`/dashboard/login?next=${encodeURIComponent(next)}`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /Set-Cookie: svc_session=forged/);
      const r = await c.post('/dashboard/login', {
        _csrf: DashboardClient.csrf(page.text),
        email,
        password: 'a long password here',
        next,
      });
      assert.equal(r.status, 303, `${JSON.stringify(next)}: ${r.status} ${r.text.slice(0, 200)}`);
      assert.equal(r.location, '/dashboard/events');
    }
  });

  it('a CORS preflight logs no error, allowed or refused', async () => {
    const org = await organiser(server.url);
    await createKey(server.url, org.token, { class: 'checkout', allowedOrigin: 'https://shop.example.in' });
    const from = lines.length;
    const preflight = (origin: string) =>
      fetch(`${server.url}/api/v1/events`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
    const allowed = await preflight('https://shop.example.in');
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://shop.example.in');
    const refused = await preflight('https://elsewhere.example.in');
    assert.equal(refused.status, 403);
    const errors = lines.slice(from).filter((l) => JSON.parse(l).level >= 50);
    assert.deepEqual(errors, []);
  });
});
