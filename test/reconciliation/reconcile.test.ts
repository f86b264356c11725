// Reconciliation over HTTP (docs/decisions/12-money-integrity.md): money the gateway captured ends in a
// confirmed booking or membership period, or a full refund, without the browser coming
// back or the gateway's notification arriving. The sweep is called directly, with the
// server's ManualClock moved past RECONCILE_AFTER_MINUTES.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweep } from '../../src/modules/reconciliation/reconcile.service.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { addGatewayOrder } from '../helpers/rows.js';
import { startRazorpayEmulator, type RazorpayEmulator, gatewayEnv } from '../helpers/razorpay-emulator.js';
import { startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_EmulatorKey02', keySecret: 'emulatorsecret000000001' };
// Generous: a loaded machine must not turn a normal answer into a timeout.
const TIMEOUT_MS = 1000;

describe('reconciliation of gateway orders', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  let staff: Account;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      // Refund jobs must run against this emulator, and the sweep sees only this server's orders.
      isolatedDatabase: true,
      env: {
        ...gatewayEnv(rzp, creds, 'whsec'),
        RAZORPAY_TIMEOUT_MS: String(TIMEOUT_MS),
        STAFF_EMAILS: staffEmail,
        RECONCILE_AFTER_MINUTES: '30',
        // Longer than one reconcile() step (31 minutes), so a booking outlives the first sweep.
        CHECKOUT_WINDOW_MINUTES: '45',
      },
    });
    org = await organiser(server.url, 'live');
    staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await server.close();
    await rzp.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const liveEvent = (fields: Record<string, unknown> = {}) =>
    createEvent(api, { title: 'Live', price: 500, ...fields }, { publish: true });
  const step1 = async (eventId: string) => {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Buyer',
      email: uniqueEmail('buyer'),
    });
    assert.equal(r.status, 201, r.text);
    return r.body as { registrationId: string; orderId: string };
  };
  const step2 = (eventId: string, s: { registrationId: string; orderId: string }, paymentId: string) =>
    api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s.registrationId,
      orderId: s.orderId,
      paymentId,
    });
  const registration = async (eventId: string, id: string) =>
    (await api('GET', `/api/v1/events/${eventId}/registrations/${id}`)).body.data;
  /** Past RECONCILE_AFTER_MINUTES, then one sweep and the jobs it queued. */
  async function reconcile(until: () => Promise<boolean> = async () => true) {
    server.clock.advance(31 * 60_000);
    const summary = await sweep(server.deps);
    assert.equal(summary.ran, true);
    // Jobs the sweep queued; one that failed (a slow answer) is retried a little later.
    for (let i = 0; i < 30 && !(await until()); i++) {
      await server.deps.jobs.runOnce();
      server.clock.advance(5_000);
    }
    assert.ok(await until(), 'the jobs the sweep queued reached the expected state');
    return summary;
  }

  it('refunds a payment captured for a booking cancelled while its step 2 was in flight, with no retry and no notification', async () => {
    const eventId = await liveEvent({ capacity: 5 });
    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId);
    // Step 2 is held at the gateway while the organiser cancels the pending booking.
    rzp.gate(true);
    const racing = step2(eventId, s, String(payment.id));
    const held = await rzp.nextHeld();
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/registrations/${s.registrationId}/cancel`)).status,
      200,
    );
    held.release();
    rzp.gate(false);
    const lost = await racing;
    assert.ok(lost.status >= 400, `step 2 cannot confirm a cancelled booking (${lost.status})`);
    assert.equal(
      rzp.payments.get(String(payment.id))!.status,
      'captured',
      'the money is held and nobody asked for it back',
    );

    await reconcile(async () => rzp.payments.get(String(payment.id))!.status === 'refunded');
    assert.equal(rzp.payments.get(String(payment.id))!.amount_refunded, 50000);
    assert.equal((await registration(eventId, s.registrationId)).status, 'cancelled');
    assert.equal((await api('GET', `/api/v1/events/${eventId}/availability`)).body.data.taken, 0);
    // Nothing is refunded twice by a later sweep.
    await reconcile();
    assert.equal(rzp.payments.get(String(payment.id))!.amount_refunded, 50000);
  });

  it('confirms a payment captured at the gateway that the service never recorded (capture answer lost)', async () => {
    const eventId = await liveEvent({ capacity: 5 });
    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId, { capture: false });
    // The capture happens at the gateway; its answer never reaches the service.
    rzp.fail(/POST \/v1\/payments\/.*\/capture/, { dropAnswer: true });
    assert.equal((await step2(eventId, s, String(payment.id))).status, 502);
    assert.equal(rzp.payments.get(String(payment.id))!.status, 'captured');
    assert.equal((await registration(eventId, s.registrationId)).status, 'pending');

    const summary = await reconcile();
    assert.equal(summary.confirmed, 1);
    const reg = await registration(eventId, s.registrationId);
    assert.deepEqual([reg.status, reg.platformFee, reg.gatewayFee], ['confirmed', 22.5, 15]);
    assert.equal((await api('GET', `/api/v1/events/${eventId}/availability`)).body.data.taken, 1);
    assert.equal(rzp.payments.get(String(payment.id))!.amount_refunded, 0);
    assert.equal(
      (await step2(eventId, s, String(payment.id))).status,
      200,
      'the browser’s late step 2 answers the same confirmation',
    );
  });

  it('captures and confirms an authorised payment whose browser never came back', async () => {
    const eventId = await liveEvent();
    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId, { capture: false });
    const before = await reconcile();
    assert.equal(before.captured, 1);
    assert.equal(rzp.payments.get(String(payment.id))!.status, 'captured');
    assert.equal((await registration(eventId, s.registrationId)).status, 'confirmed');
  });

  it('finds an order whose create timed out by its receipt, records it and refunds anything paid on it', async () => {
    const eventId = await liveEvent();
    const ordersBefore = new Set(rzp.orders.keys());
    rzp.fail(/POST \/v1\/orders/, { dropAnswer: true });
    const r = await api('POST', `/api/v1/events/${eventId}/register`, { name: 'B', email: uniqueEmail('b') });
    assert.equal(r.status, 502);
    const orphan = [...rzp.orders.values()].find((o) => !ordersBefore.has(String(o.id)))!;
    assert.ok(orphan, 'the gateway made the order although the service never heard of it');
    assert.equal(
      (await api('GET', `/api/v1/events/${eventId}/registrations`)).body.count,
      0,
      'no booking was filed',
    );
    // However unlikely (nobody was told its id), money on it must not stay.
    const stray = rzp.pay(String(orphan.id));

    const summary = await reconcile();
    assert.equal(summary.orphansFound, 1);
    assert.ok(
      rzp.requests.some((q) => q.method === 'GET' && q.path === '/v1/orders'),
      'looked up by receipt',
    );
    assert.equal(rzp.payments.get(String(stray.id))!.status, 'refunded');
    const listed = await call(
      server.url,
      'GET',
      `/admin/api/reconciliation/orders?receipt=${encodeURIComponent(String(orphan.receipt))}`,
      { token: staff.token },
    );
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.length, 1);
    // Recorded, refunded, and still watched: a payment may come for any order within its first week.
    assert.deepEqual(
      [
        listed.body.data[0].orderId,
        listed.body.data[0].status,
        listed.body.data[0].outcome,
        listed.body.data[0].kind,
      ],
      [orphan.id, 'open', 'orphan_refunded', 'registration'],
    );
  });

  it('finishes a claimed refund whose answer was lost: asked again with the same key, the same refund, the booking cancelled once', async () => {
    const eventId = await liveEvent({ capacity: 5 });
    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId);
    assert.equal((await step2(eventId, s, String(payment.id))).status, 200);
    rzp.fail(/POST \/v1\/payments\/.*\/refund/, { dropAnswer: true });
    const lost = await api('POST', `/api/v1/events/${eventId}/registrations/${s.registrationId}/cancel`);
    assert.deepEqual([lost.status, lost.body.code], [502, 'gateway_error']);
    assert.equal(rzp.payments.get(String(payment.id))!.status, 'refunded');
    assert.equal(
      (await registration(eventId, s.registrationId)).status,
      'refunding',
      'the claim stays until the refund is confirmed',
    );
    const again = await api('POST', `/api/v1/events/${eventId}/registrations/${s.registrationId}/cancel`);
    assert.deepEqual(
      [again.status, again.body.code],
      [409, 'registration_changed'],
      'a second cancel moves no money while the claim stands',
    );

    const summary = await reconcile();
    assert.equal(summary.claimsFinished, 1);
    assert.equal(
      (await registration(eventId, s.registrationId)).status,
      'cancelled',
      'the change that was claimed',
    );
    const refunds = rzp.requests.filter(
      (q) => q.method === 'POST' && q.path === `/v1/payments/${payment.id}/refund`,
    );
    assert.equal(refunds.length, 2, 'asked twice');
    assert.equal(
      rzp.payments.get(String(payment.id))!.amount_refunded,
      50000,
      'refunded once: the same key made the same refund',
    );
    assert.equal((await api('GET', `/api/v1/events/${eventId}/availability`)).body.data.taken, 0);
  });

  it('ends as refunded a confirmed booking refunded in the gateway’s own dashboard', async () => {
    const eventId = await liveEvent({ capacity: 5 });
    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId);
    assert.equal((await step2(eventId, s, String(payment.id))).status, 200);
    const auth = `Basic ${Buffer.from(`${creds.keyId}:${creds.keySecret}`).toString('base64')}`;
    const direct = await fetch(`${rzp.url}/v1/payments/${payment.id}/refund`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(direct.status, 200, await direct.text());

    const summary = await reconcile();
    assert.equal(summary.endedRefunded, 1);
    assert.equal((await registration(eventId, s.registrationId)).status, 'refunded');
    assert.equal((await api('GET', `/api/v1/events/${eventId}/availability`)).body.data.taken, 0);
  });

  it('leaves an unpaid booking pending within CHECKOUT_WINDOW_MINUTES, then cancels it and refunds a payment that comes later', async () => {
    const eventId = await liveEvent();
    const s = await step1(eventId);
    await reconcile(); // 31 minutes: within the 45-minute window
    assert.equal((await registration(eventId, s.registrationId)).status, 'pending');
    // 62 minutes: the window has passed.
    const summary = await reconcile();
    assert.ok(summary.expired >= 1);
    assert.equal((await registration(eventId, s.registrationId)).status, 'cancelled');
    const late = rzp.pay(s.orderId);
    server.clock.advance(24 * 3_600_000);
    await reconcile(async () => rzp.payments.get(String(late.id))!.status === 'refunded');
  });

  it('confirms a fixed-term membership paid without step 2, and refunds a payment for an order the member cancelled', async () => {
    const planId = (
      await api('POST', '/api/v1/memberships/plans', {
        name: 'Annual',
        amount: 1200,
        kind: 'fixed_term',
        termMonths: 12,
      })
    ).body.data.id;
    const email = uniqueEmail('member');
    const a = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'A', email });
    assert.equal(a.status, 201, a.text);
    rzp.pay(a.body.orderId);
    const b = await api('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: 'B',
      email: uniqueEmail('member'),
    });
    assert.equal(
      (await api('POST', `/api/v1/memberships/${b.body.membershipId}/cancel`, { immediate: true })).status,
      201,
    );
    const stray = rzp.pay(b.body.orderId);

    await reconcile();
    const member = (await api('GET', `/api/v1/memberships/members?email=${encodeURIComponent(email)}`)).body
      .data[0];
    assert.deepEqual([member.status, member.goodStanding], ['active', true]);
    assert.equal(rzp.payments.get(String(stray.id))!.status, 'refunded');
  });

  it("keeps the one open order through a repeat subscribe: its payment confirms and is not refunded; a superseded order's payment is", async () => {
    const planId = (
      await api('POST', '/api/v1/memberships/plans', {
        name: 'Term',
        amount: 700,
        kind: 'fixed_term',
        termMonths: 12,
      })
    ).body.data.id;
    const email = uniqueEmail('repeat');
    const first = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'First', email });
    assert.equal(first.status, 201, first.text);
    const again = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Second', email });
    assert.deepEqual([again.status, again.body.orderId], [200, first.body.orderId]);
    const ordersForEmail = [...rzp.orders.values()].filter(
      (o) => (o.notes as Record<string, string> | undefined)?.email === email,
    );
    assert.equal(ordersForEmail.length, 1, 'the gateway was asked for one order');
    const paid = rzp.pay(first.body.orderId);
    // An order nobody expects any more (made by a subscribe that lost its claim): its payment goes back.
    const orphan = await server.deps.membershipDeps
      .gatewayFor('live', org.userId)
      .createOrder({ amount: 70000, currency: 'INR', receipt: `rcpt_orphan_${Date.now()}` });
    await addGatewayOrder(server, {
      receipt: String(orphan.receipt),
      kind: 'membership',
      mode: 'live',
      accountId: org.userId,
      amountPaise: 70000,
      orderId: orphan.id,
    });
    const stray = rzp.pay(orphan.id);
    await reconcile();
    const member = (await api('GET', `/api/v1/memberships/members?email=${encodeURIComponent(email)}`)).body
      .data[0];
    assert.deepEqual([member.status, member.goodStanding, member.name], ['active', true, 'First']);
    assert.equal(rzp.payments.get(String(paid.id))!.status, 'captured', "the member's payment is kept");
    assert.equal(
      rzp.payments.get(String(stray.id))!.status,
      'refunded',
      'the unexpected payment is refunded in full',
    );
  });

  it('lets one sweeper run at a time', async () => {
    const s = sweep;
    const [x, y] = await Promise.all([s(server.deps), s(server.deps)]);
    assert.equal([x.ran, y.ran].filter(Boolean).length >= 1, true);
    // Held by someone else (another instance) until its lease expires: this one passes.
    await server.deps.db
      .updateTable('reconcile_lease')
      .set({ holder: 'swp_other', until: new Date(server.clock.now().getTime() + 60_000) })
      .execute();
    assert.equal((await s(server.deps)).ran, false);
    // The clock has moved days on in this file: a fresh session.
    const token = (
      await call(server.url, 'POST', '/auth/login', {
        body: { email: staffEmail, password: 'correct horse battery' },
      })
    ).body.idToken as string;
    const busy = await call(server.url, 'POST', '/admin/api/reconciliation/sweep', { token });
    assert.deepEqual([busy.status, busy.body.code], [409, 'sweep_in_progress']);
    server.clock.advance(61_000);
    assert.equal((await s(server.deps)).ran, true, 'a lease whose holder died expires');
    const ok = await call(server.url, 'POST', '/admin/api/reconciliation/sweep', { token });
    assert.equal(ok.status, 200, ok.text);
  });
});
