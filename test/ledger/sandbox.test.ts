// Balance, ledger and payouts in test mode over HTTP: sandbox sales and memberships
// fill the test ledger, sandbox payouts move through their states with the sandbox
// routes, concurrent requests never overdraw, and the recomputation check agrees.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { markEmailVerified } from '../../src/modules/accounts/accounts.repo.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';
import { tokenApi } from '../helpers/callers.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('ledger and payouts in test mode', () => {
  let server: TestServer;
  let staff: Account;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    staff = await signup(server.url, { email: staffEmail });
  });
  after(async () => {
    await server.close();
  });

  /** An organiser's key, and its dashboard session. */
  const api = (org: KeyInfo) => keyApi(server.url, org.key);
  const dash = (org: Account) => tokenApi(server.url, org.token);
  const balance = async (org: Account) => {
    const r = await dash(org)('GET', '/dashboard/api/balance?mode=test');
    assert.equal(r.status, 200, r.text);
    return r.body as { available: number; pending: number; currency: string; mode: string };
  };
  const payout = (org: Account, amount: number, upiId = 'organiser@okaxis') =>
    dash(org)('POST', '/dashboard/api/payouts?mode=test', { amount, upiId });
  const settle = (org: KeyInfo, id: string, outcome: string) =>
    api(org)('POST', `/api/v1/sandbox/payouts/${id}/${outcome}`);

  /** A paid test-mode booking at `price` rupees, confirmed through the sandbox gateway. */
  async function sale(org: KeyInfo, price: number): Promise<{ eventId: string; registrationId: string }> {
    const orgApi = keyApi(server.url, org.key);
    const eventId = await createEvent(orgApi, { title: 'Paid', price });
    const { registrationId } = await paidBooking(orgApi, eventId);
    return { eventId, registrationId };
  }
  /** Moves this account's test-mode clock a week on (past any clearing days); sessions are unaffected. */
  const clear = async (org: KeyInfo) =>
    assert.equal((await api(org)('POST', '/api/v1/sandbox/clock', { advanceDays: 7 })).status, 200);
  const check = async (org: Account) => {
    const r = await call(server.url, 'GET', `/admin/api/ledger/check?accountId=${org.userId}`, {
      token: staff.token,
    });
    assert.equal(r.status, 200, r.text);
    return r.body as { ok: boolean; mismatches: unknown[] };
  };

  it('a sale is pending, then available after the clearing days; test mode takes no fee', async () => {
    const org = await organiser(server.url, 'test');
    await sale(org, 500);
    assert.deepEqual(await balance(org), { available: 0, pending: 500, currency: 'INR', mode: 'test' });
    const live = await dash(org)('GET', '/dashboard/api/balance');
    assert.deepEqual(
      live.body,
      { available: 0, pending: 0, currency: 'INR', mode: 'live' },
      'the live ledger is separate',
    );
    await clear(org);
    assert.deepEqual(await balance(org), { available: 500, pending: 0, currency: 'INR', mode: 'test' });
    const ledger = await dash(org)('GET', '/dashboard/api/ledger?mode=test');
    assert.equal(ledger.status, 200);
    assert.deepEqual(
      ledger.body.data.map((e: { kind: string; amount: number; source: { type: string } }) => [
        e.kind,
        e.amount,
        e.source.type,
      ]),
      [['ticket_sale', 500, 'registration']],
    );
    assert.equal(ledger.body.hasMore, false);
    assert.equal(ledger.body.nextCursor, null);
  });

  it('refuses payouts below 100 rupees, above available, to a bad UPI id, or with bad amounts', async () => {
    const org = await organiser(server.url, 'test');
    await sale(org, 300);
    await clear(org);
    const expect = async (r: Awaited<ReturnType<typeof payout>>, status: number, code: string) => {
      assert.equal(r.status, status, r.text);
      assert.equal(r.body.code, code, r.text);
    };
    await expect(await payout(org, 99.99), 400, 'amount_below_minimum');
    await expect(await payout(org, 300.01), 409, 'insufficient_balance');
    await expect(await payout(org, 100.001), 400, 'invalid_amount');
    await expect(await payout(org, 150, 'not-a-upi-id'), 400, 'invalid_upi_id');
    await expect(await payout(org, 150, 'a@b@c'), 400, 'invalid_upi_id');
    await expect(
      await dash(org)('POST', '/dashboard/api/payouts?mode=test', { amount: 150, upiId: 'x'.repeat(101) }),
      400,
      'invalid_request',
    );
    assert.equal((await balance(org)).available, 300, 'nothing was held');
  });

  it('a live payout needs a verified email, then RazorpayX configured', async () => {
    const org = await signup(server.url, { verified: false });
    const r = await dash(org)('POST', '/dashboard/api/payouts', { amount: 100, upiId: 'organiser@okaxis' });
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.code, 'email_unverified');
    // Test setup: mark the address verified as opening the mail's link does.
    await markEmailVerified(server.deps.db, org.userId, org.email, server.clock.now());
    const r2 = await dash(org)('POST', '/dashboard/api/payouts', { amount: 100, upiId: 'organiser@okaxis' });
    assert.equal(r2.status, 503, r2.text);
    assert.equal(r2.body.code, 'payouts_not_configured');
  });

  it('moves a sandbox payout through its states; failed, cancelled and reversed credit back once', async () => {
    const org = await organiser(server.url, 'test');
    await sale(org, 1000);
    await clear(org);
    const a = await payout(org, 400, 'Asha@OkAxis');
    assert.equal(a.status, 201, a.text);
    assert.match(a.body.id, /^po_/);
    assert.deepEqual(
      [a.body.status, a.body.amount, a.body.upiId, a.body.mode, a.body.utr],
      ['processing', 400, 'asha@okaxis', 'test', null],
    );
    assert.ok(Date.parse(a.body.expectedBy) > Date.parse(a.body.createdAt));
    assert.equal((await balance(org)).available, 600, 'held at once');

    const other = await organiser(server.url, 'test');
    assert.equal((await settle(other, a.body.id, 'process')).status, 403, "another account's payout");
    const liveKey = await createKey(server.url, org.token, { mode: 'live' });
    assert.equal(
      (await settle(liveKey, a.body.id, 'process')).status,
      403,
      'sandbox routes are for test keys',
    );

    const processed = await settle(org, a.body.id, 'process');
    assert.equal(processed.status, 200, processed.text);
    assert.equal(processed.body.status, 'processed');
    assert.ok(processed.body.utr);
    assert.equal((await balance(org)).available, 600);
    assert.equal((await settle(org, a.body.id, 'fail')).body.code, 'invalid_payout_transition');
    const reversed = await settle(org, a.body.id, 'reverse');
    assert.equal(reversed.body.status, 'reversed');
    assert.equal(reversed.body.utr, processed.body.utr, 'the UTR stays');
    assert.equal((await balance(org)).available, 1000, 'reversed after processed: credited back');
    assert.equal((await settle(org, a.body.id, 'reverse')).status, 409);
    assert.equal((await balance(org)).available, 1000, 'once');

    const b = await payout(org, 250);
    assert.equal((await settle(org, b.body.id, 'fail')).body.status, 'failed');
    const c = await payout(org, 100);
    assert.equal((await settle(org, c.body.id, 'cancel')).body.status, 'cancelled');
    assert.equal((await balance(org)).available, 1000);

    const list = await dash(org)('GET', '/dashboard/api/payouts?mode=test&limit=2');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((p: { id: string }) => p.id),
      [c.body.id, b.body.id],
    );
    assert.equal(list.body.hasMore, true);
    const rest = await dash(org)(
      'GET',
      `/dashboard/api/payouts?mode=test&limit=2&startingAfter=${list.body.nextCursor}`,
    );
    assert.deepEqual(
      rest.body.data.map((p: { id: string; status: string }) => [p.id, p.status]),
      [[a.body.id, 'reversed']],
    );
    assert.equal(rest.body.hasMore, false);
    assert.equal(
      (await dash(org)('GET', '/dashboard/api/payouts')).body.data.length,
      0,
      'live mode lists live payouts only',
    );
    assert.equal(
      (await dash(org)('GET', `/dashboard/api/payouts/${a.body.id}?mode=test`)).body.status,
      'reversed',
    );
    assert.equal(
      (await dash(org)('GET', `/dashboard/api/payouts/${a.body.id}`)).status,
      404,
      'not a live payout',
    );

    const kinds = (await dash(org)('GET', '/dashboard/api/ledger?mode=test')).body.data.map(
      (e: { kind: string; amount: number }) => `${e.kind}:${e.amount}`,
    );
    assert.deepEqual(kinds, [
      'payout_credit:100',
      'payout_hold:-100',
      'payout_credit:250',
      'payout_hold:-250',
      'payout_credit:400',
      'payout_hold:-400',
      'ticket_sale:1000',
    ]);
    assert.deepEqual(await check(org), { ok: true, accountsChecked: 1, mismatches: [] });
  });

  it('a refund after a payout can take the balance below zero, which blocks payouts', async () => {
    const org = await organiser(server.url, 'test');
    const s = await sale(org, 500);
    await clear(org);
    const p = await payout(org, 400);
    assert.equal(p.status, 201);
    const cancel = await api(org)(
      'POST',
      `/api/v1/events/${s.eventId}/registrations/${s.registrationId}/cancel`,
    );
    assert.equal(cancel.status, 200, cancel.text);
    assert.deepEqual(await balance(org), { available: -400, pending: 0, currency: 'INR', mode: 'test' });
    const blocked = await payout(org, 100);
    assert.equal(blocked.status, 409);
    assert.equal(blocked.body.code, 'insufficient_balance');
    assert.match(blocked.body.error, /below zero/);
    assert.equal((await check(org)).ok, true);
  });

  it('a refund of money still pending comes out of pending', async () => {
    const org = await organiser(server.url, 'test');
    await sale(org, 200);
    const s = await sale(org, 300);
    await api(org)('POST', `/api/v1/events/${s.eventId}/registrations/${s.registrationId}/refund`);
    assert.deepEqual(await balance(org), { available: 0, pending: 200, currency: 'INR', mode: 'test' });
  });

  it('membership payments (a fixed term, sandbox subscription charges) are in the ledger', async () => {
    const org = await organiser(server.url, 'test');
    const term = await api(org)('POST', '/api/v1/memberships/plans', {
      name: 'Annual',
      amount: 1000,
      kind: 'fixed_term',
      termMonths: 12,
    });
    const s = await api(org)('POST', '/api/v1/memberships/subscribe', {
      planId: term.body.data.id,
      name: 'Member',
      email: uniqueEmail('m'),
    });
    assert.equal(
      (await api(org)('POST', `/api/v1/sandbox/orders/${s.body.orderId}/paid`)).body.result,
      'confirmed',
    );
    assert.equal(
      (await api(org)('POST', `/api/v1/sandbox/orders/${s.body.orderId}/paid`)).body.result,
      'ignored',
    );
    const monthly = await api(org)('POST', '/api/v1/memberships/plans', {
      name: 'Monthly',
      amount: 250,
      period: 'monthly',
    });
    const r = await api(org)('POST', '/api/v1/memberships/subscribe', {
      planId: monthly.body.data.id,
      name: 'Member',
      email: uniqueEmail('r'),
    });
    await api(org)('POST', `/api/v1/sandbox/subscriptions/${r.body.subscriptionId}/authenticate`);
    await api(org)('POST', `/api/v1/sandbox/subscriptions/${r.body.subscriptionId}/charge`);
    await api(org)('POST', `/api/v1/sandbox/subscriptions/${r.body.subscriptionId}/charge`);
    const entries = (await dash(org)('GET', '/dashboard/api/ledger?mode=test')).body.data as {
      kind: string;
      amount: number;
      source: { type: string; id: string; paymentId: string };
    }[];
    assert.deepEqual(
      entries.map((e) => [e.kind, e.amount, e.source.type]),
      [
        ['membership_payment', 250, 'membership'],
        ['membership_payment', 250, 'membership'],
        ['membership_payment', 1000, 'membership'],
      ],
    );
    assert.equal(entries[2]!.source.id, s.body.membershipId);
    assert.ok(entries[2]!.source.paymentId);
    assert.equal((await balance(org)).pending, 1500);
    assert.equal((await check(org)).ok, true);
  });

  it('concurrent payout requests never withdraw more than available', async () => {
    const org = await organiser(server.url, 'test');
    await sale(org, 1000);
    await clear(org);
    const answers = await Promise.all(Array.from({ length: 20 }, () => payout(org, 150)));
    const ok = answers.filter((r) => r.status === 201);
    assert.equal(ok.length, 6, answers.map((r) => r.status).join(','));
    for (const r of answers.filter((x) => x.status !== 201))
      assert.equal(r.body.code, 'insufficient_balance', r.text);
    assert.equal((await balance(org)).available, 100);
    assert.equal((await check(org)).ok, true);
  });

  it('pages the ledger with limit, hasMore, nextCursor and startingAfter', async () => {
    const org = await organiser(server.url, 'test');
    await sale(org, 100);
    await sale(org, 200);
    await sale(org, 300);
    const first = await dash(org)('GET', '/dashboard/api/ledger?mode=test&limit=2');
    assert.deepEqual([first.body.data.length, first.body.hasMore], [2, true]);
    const second = await dash(org)(
      'GET',
      `/dashboard/api/ledger?mode=test&limit=2&startingAfter=${first.body.nextCursor}`,
    );
    assert.deepEqual(
      [second.body.data.length, second.body.hasMore, second.body.nextCursor],
      [1, false, null],
    );
    assert.deepEqual(
      [...first.body.data, ...second.body.data].map((e: { amount: number }) => e.amount),
      [300, 200, 100],
    );
    for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'startingAfter=xyz', 'mode=both']) {
      const r = await dash(org)(
        'GET',
        `/dashboard/api/ledger?mode=test&${q}`.replace('mode=test&mode=both', 'mode=both'),
      );
      assert.equal(r.status, 400, q);
    }
    assert.equal((await call(server.url, 'GET', '/dashboard/api/ledger')).status, 401);
    assert.equal(
      (await call(server.url, 'GET', '/admin/api/ledger/check', { token: org.token })).status,
      403,
      'staff only',
    );
  });
});
