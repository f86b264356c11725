// Live payouts end to end: the RazorpayX adapter against the emulator, the durable send
// job across timeouts and 5xx, refusals, notifications in any order, the sweep, and the
// ledger of a live sale with the fees of docs/decisions/09-money-and-fees.md.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import {
  errorBody,
  signWebhook,
  startRazorpayEmulator,
  type RazorpayEmulator,
  gatewayEnv,
} from '../helpers/razorpay-emulator.js';
import { tokenApi } from '../helpers/callers.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { payoutRow } from '../helpers/rows.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_EmulatorKey01', keySecret: 'emulatorsecret000000000' };
const WEBHOOK_SECRET = 'razorpay-webhook-secret';
const ACCOUNT_NUMBER = '7878780080316316';
const DAY = 86_400_000;

describe('live payouts through RazorpayX', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let staff: Account;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds, { accountNumber: ACCOUNT_NUMBER });
    server = await startServer({
      // Payout jobs must run against this emulator: a worker of its own.
      isolatedDatabase: true,
      env: {
        ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
        // Well above a loaded machine's slowest answer (a timed-out call here is one the emulator holds back).
        RAZORPAY_TIMEOUT_MS: '2000',
        RAZORPAYX_ACCOUNT_NUMBER: ACCOUNT_NUMBER,
        STAFF_EMAILS: staffEmail,
      },
    });
    staff = await signup(server.url, { email: staffEmail });
  });
  after(async () => {
    await server.close();
    await rzp.close();
  });

  type Org = Account & KeyInfo & { password: string };
  async function liveOrganiser(): Promise<Org> {
    const org = await organiser(server.url, 'live');
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    // Test setup: mark the address verified directly in the database.
    await sql`update users set email_verified_at = now() where id = ${org.userId}`.execute(server.deps.db);
    return { ...org, password: 'correct horse battery' };
  }
  /** Sessions last 12 hours: after moving the clock by days, sign in again. */
  async function relogin(org: Org): Promise<void> {
    const r = await call(server.url, 'POST', '/auth/login', {
      body: { email: org.email, password: org.password },
    });
    assert.equal(r.status, 200, r.text);
    org.token = r.body.idToken;
    staff.token = (
      await call(server.url, 'POST', '/auth/login', {
        body: { email: staff.email, password: 'correct horse battery' },
      })
    ).body.idToken;
  }
  /** An organiser's key, and its dashboard session. */
  const api = (org: KeyInfo) => keyApi(server.url, org.key);
  const dash = (org: Account) => tokenApi(server.url, org.token);
  const balance = async (org: Account) =>
    (await dash(org)('GET', '/dashboard/api/balance')).body as { available: number; pending: number };
  const notify = (body: string) =>
    call(server.url, 'POST', '/webhooks/razorpay', {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
      },
    });
  const gatewayPayoutsFor = (id: string) => [...rzp.payouts.values()].filter((p) => p.reference_id === id);
  const sent = async (id: string) =>
    (await payoutRow(server, id)).gateway_payout_id !== null ||
    (await payoutRow(server, id)).status !== 'processing';
  /** Runs jobs until the payouts are sent; the clock moves on so a retry (a slow machine's timeout) comes due. */
  const drainSent = (...ids: string[]) =>
    drainJobs(server, async () => {
      for (const id of ids) if (!(await sent(id))) return (server.clock.advance(5_000), false);
      return true;
    });

  async function liveSale(org: Org, price: number): Promise<{ eventId: string; registrationId: string }> {
    const eventId = await createEvent(api(org), { title: 'Live', price }, { publish: true });
    const s1 = await api(org)('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Buyer',
      email: uniqueEmail('buyer'),
    });
    const payment = rzp.pay(s1.body.orderId);
    const s2 = await api(org)('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s1.body.registrationId,
      orderId: s1.body.orderId,
      paymentId: String(payment.id),
    });
    assert.equal(s2.status, 200, s2.text);
    return { eventId, registrationId: s1.body.registrationId };
  }
  async function funded(price = 1000): Promise<Org> {
    const org = await liveOrganiser();
    await liveSale(org, price);
    server.clock.advance(7 * DAY);
    await relogin(org);
    return org;
  }

  it('a paid sale shows up in pending, then available, with the fees of docs/decisions/09-money-and-fees.md taken', async () => {
    const org = await liveOrganiser();
    await liveSale(org, 500);
    // ₹500 less 4.5 % platform fee (₹22.50) less 3 % gateway charge (₹15).
    assert.deepEqual(await balance(org), { available: 0, pending: 462.5, currency: 'INR', mode: 'live' });
    const entries = (await dash(org)('GET', '/dashboard/api/ledger')).body.data.map(
      (e: { kind: string; amount: number }) => [e.kind, e.amount],
    );
    assert.deepEqual(entries.sort(), [
      ['gateway_fee', -15],
      ['platform_fee', -22.5],
      ['ticket_sale', 500],
    ]);
    server.clock.advance(7 * DAY);
    await relogin(org);
    assert.deepEqual(await balance(org), { available: 462.5, pending: 0, currency: 'INR', mode: 'live' });
  });

  it('sends a payout through RazorpayX: contact, vpa fund account reused, UPI payout keyed by our id', async () => {
    const org = await funded();
    const a = await dash(org)('POST', '/dashboard/api/payouts', { amount: 100, upiId: 'organiser@okaxis' });
    assert.equal(a.status, 201, a.text);
    assert.deepEqual([a.body.status, a.body.mode, a.body.amount], ['processing', 'live', 100]);
    await drainSent(a.body.id);
    const [gp] = gatewayPayoutsFor(a.body.id);
    assert.ok(gp);
    assert.deepEqual(
      [gp.amount, gp.mode, gp.purpose, gp.currency, gp.status],
      [10000, 'UPI', 'payout', 'INR', 'processing'],
    );
    const req = rzp.requests.find(
      (r) => r.method === 'POST' && r.path === '/v1/payouts' && r.body?.reference_id === a.body.id,
    )!;
    assert.equal(req.headers['x-payout-idempotency'], a.body.id);
    assert.equal(req.body!.account_number, ACCOUNT_NUMBER);
    const fa = rzp.fundAccounts.get(String(gp.fund_account_id))!;
    assert.deepEqual([fa.account_type, (fa.vpa as { address: string }).address], ['vpa', 'organiser@okaxis']);

    // Contacts have no idempotency key at RazorpayX: a create that timed out on a slow machine may
    // leave a spare one there. The stored contact and fund account are what later payouts use.
    const contactsOf = () => [...rzp.contacts.values()].filter((c) => c.reference_id === org.userId).length;
    const contactsBefore = contactsOf();
    const fundAccountsBefore = rzp.fundAccounts.size;
    const b = await dash(org)('POST', '/dashboard/api/payouts', { amount: 100, upiId: 'organiser@okaxis' });
    await drainSent(b.body.id);
    assert.equal(
      gatewayPayoutsFor(b.body.id)[0]!.fund_account_id,
      gp.fund_account_id,
      'the fund account is reused for the same UPI id',
    );
    assert.deepEqual(
      [contactsOf(), rzp.fundAccounts.size],
      [contactsBefore, fundAccountsBefore],
      'no new contact or fund account',
    );
  });

  it('a timeout and a 5xx are retried with the same key and body: exactly one payout at the gateway', async () => {
    const org = await funded();
    const a = await dash(org)('POST', '/dashboard/api/payouts', { amount: 150, upiId: 'timeout@okaxis' });
    // The payout request is held at the emulator until the service has given up on it
    // (RAZORPAY_TIMEOUT_MS); released, it is carried out, and its answer goes nowhere.
    const payoutAsked = () =>
      rzp.requests.some(
        (r) =>
          r.method === 'POST' && r.path === '/v1/payouts' && r.headers['x-payout-idempotency'] === a.body.id,
      );
    rzp.gate(true, /^POST \/v1\/payouts$/);
    try {
      await drainJobs(server, async () => payoutAsked() || (server.clock.advance(5_000), false));
      assert.equal((await payoutRow(server, a.body.id)).gateway_payout_id, null, 'the answer was lost');
      assert.equal(gatewayPayoutsFor(a.body.id).length, 0, 'not made yet: the request is held');
    } finally {
      rzp.gate(false);
    }
    assert.equal(gatewayPayoutsFor(a.body.id).length, 1, 'the emulator made the payout once released');
    rzp.fail(/POST \/v1\/payouts/, { status: 503 });
    server.clock.advance(5_000);
    await server.deps.jobs.runOnce();
    server.clock.advance(10_000);
    await drainJobs(server, async () => {
      server.clock.advance(10_000);
      return sent(a.body.id);
    });
    const attempts = rzp.requests.filter(
      (r) =>
        r.method === 'POST' && r.path === '/v1/payouts' && r.headers['x-payout-idempotency'] === a.body.id,
    );
    assert.ok(attempts.length >= 3, `retried (${attempts.length} requests)`);
    assert.ok(
      attempts.every((r) => JSON.stringify(r.body) === JSON.stringify(attempts[0]!.body)),
      'the same body every time',
    );
    assert.equal(gatewayPayoutsFor(a.body.id).length, 1, 'exactly one payout');
    assert.equal((await payoutRow(server, a.body.id)).gateway_payout_id, gatewayPayoutsFor(a.body.id)[0]!.id);
  });

  it('a 4xx refusal fails the payout and credits it back', async () => {
    const org = await funded();
    const before = (await balance(org)).available;
    rzp.fail(/POST \/v1\/fund_accounts/, {
      status: 400,
      body: errorBody('Invalid VPA. Please enter a valid Virtual Payment Address', 'vpa'),
    });
    const a = await dash(org)('POST', '/dashboard/api/payouts', { amount: 200, upiId: 'closed@okaxis' });
    assert.equal((await balance(org)).available, before - 200);
    await drainSent(a.body.id);
    const row = await payoutRow(server, a.body.id);
    assert.equal(row.status, 'failed');
    assert.match(String(row.failure_reason), /Invalid VPA/);
    assert.equal((await balance(org)).available, before);
    assert.equal(gatewayPayoutsFor(a.body.id).length, 0);
  });

  it('applies processed, failed and reversed notifications once each, in any order', async () => {
    const org = await funded();
    const start = (await balance(org)).available;
    const a = await dash(org)('POST', '/dashboard/api/payouts', { amount: 300, upiId: 'organiser@okaxis' });
    const b = await dash(org)('POST', '/dashboard/api/payouts', { amount: 200, upiId: 'organiser@okaxis' });
    await drainSent(a.body.id, b.body.id);
    const ga = gatewayPayoutsFor(a.body.id)[0]!;
    const gb = gatewayPayoutsFor(b.body.id)[0]!;
    assert.equal((await balance(org)).available, start - 500);

    // a: processed (twice), then reversed (twice) — credited back once.
    const processed = rzp.settlePayout(String(ga.id), 'processed', { utr: 'UTR000111222333' });
    assert.equal((await notify(processed)).body.result, 'applied');
    assert.equal((await notify(processed)).body.result, 'ignored');
    let row = await payoutRow(server, a.body.id);
    assert.deepEqual([row.status, row.utr], ['processed', 'UTR000111222333']);
    assert.equal((await balance(org)).available, start - 500);
    const reversed = rzp.settlePayout(String(ga.id), 'reversed', { reason: 'beneficiary bank returned it' });
    assert.equal((await notify(reversed)).body.result, 'applied');
    assert.equal((await notify(reversed)).body.result, 'ignored');
    row = await payoutRow(server, a.body.id);
    assert.deepEqual([row.status, row.utr], ['reversed', 'UTR000111222333']);
    assert.equal((await balance(org)).available, start - 200);

    // b: failed arrives, then a late processed — stays failed, credited once.
    const failed = rzp.settlePayout(String(gb.id), 'failed', { reason: 'beneficiary VPA closed' });
    const late = rzp.settlePayout(String(gb.id), 'processed');
    assert.equal((await notify(failed)).body.result, 'applied');
    assert.equal((await notify(late)).body.result, 'ignored', 'failed is final');
    assert.equal((await notify(failed)).body.result, 'ignored');
    assert.equal((await payoutRow(server, b.body.id)).status, 'failed');
    assert.equal((await balance(org)).available, start);

    const list = await dash(org)('GET', '/dashboard/api/payouts');
    assert.deepEqual(
      list.body.data.map((p: { id: string; status: string }) => [p.id, p.status]),
      [
        [b.body.id, 'failed'],
        [a.body.id, 'reversed'],
      ],
    );
    assert.equal(list.body.data[1].utr, 'UTR000111222333');
    const unknown = await notify(
      JSON.stringify({
        entity: 'event',
        event: 'payout.processed',
        contains: ['payout'],
        payload: { payout: { entity: { id: 'pout_Unknown0000000', status: 'processed' } } },
      }),
    );
    assert.deepEqual([unknown.status, unknown.body.result], [200, 'ignored']);
    const forged = await call(server.url, 'POST', '/webhooks/razorpay', {
      raw: processed,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'f'.repeat(64) },
    });
    assert.equal(forged.status, 400);
  });

  it('the sweep reads payouts stuck in processing from the gateway', async () => {
    const org = await funded();
    const a = await dash(org)('POST', '/dashboard/api/payouts', { amount: 100, upiId: 'organiser@okaxis' });
    await drainSent(a.body.id);
    rzp.settlePayout(String(gatewayPayoutsFor(a.body.id)[0]!.id), 'processed', { utr: 'UTR999' });
    const early = await call(server.url, 'POST', '/admin/api/payouts/sweep', { token: staff.token });
    assert.equal(early.status, 200, early.text);
    assert.equal((await payoutRow(server, a.body.id)).status, 'processing', 'not stuck yet');
    server.clock.advance(11 * 60_000);
    const swept = await call(server.url, 'POST', '/admin/api/payouts/sweep', { token: staff.token });
    assert.ok(swept.body.changed >= 1, swept.text);
    const row = await payoutRow(server, a.body.id);
    assert.deepEqual([row.status, row.utr], ['processed', 'UTR999']);
  });

  it('a refund after a payout takes the balance below zero and blocks payouts; the check agrees', async () => {
    const org = await liveOrganiser();
    const s = await liveSale(org, 1000); // net ₹1000 − ₹45 − ₹30 = ₹925
    server.clock.advance(7 * DAY);
    await relogin(org);
    const p = await dash(org)('POST', '/dashboard/api/payouts', { amount: 900, upiId: 'organiser@okaxis' });
    assert.equal(p.status, 201, p.text);
    assert.equal(
      (await api(org)('POST', `/api/v1/events/${s.eventId}/registrations/${s.registrationId}/refund`)).status,
      200,
    );
    // 925 − 900 − 1000 + 45 (platform fee reversed; the gateway charge is not).
    assert.equal((await balance(org)).available, -930);
    const blocked = await dash(org)('POST', '/dashboard/api/payouts', {
      amount: 100,
      upiId: 'organiser@okaxis',
    });
    assert.deepEqual([blocked.status, blocked.body.code], [409, 'insufficient_balance']);
    await drainSent(p.body.id);
    const check = await call(server.url, 'GET', '/admin/api/ledger/check', { token: staff.token });
    assert.equal(check.status, 200);
    assert.deepEqual(check.body.mismatches, []);
    assert.equal(check.body.ok, true);
  });

  it('a sandbox route cannot move a live payout', async () => {
    const org = await funded();
    const p = await dash(org)('POST', '/dashboard/api/payouts', { amount: 100, upiId: 'organiser@okaxis' });
    const testKey = (
      await call(server.url, 'POST', '/dashboard/api/keys', {
        token: org.token,
        body: { mode: 'test', class: 'full' },
      })
    ).body.key;
    const r = await call(server.url, 'POST', `/api/v1/sandbox/payouts/${p.body.id}/process`, {
      key: testKey,
    });
    assert.equal(r.status, 404);
    assert.equal(
      (await call(server.url, 'POST', `/api/v1/sandbox/payouts/${p.body.id}/process`, { key: org.key })).body
        .code,
      'test_mode_only',
    );
  });
});
