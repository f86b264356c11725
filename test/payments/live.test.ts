// Live mode end to end: the service's Razorpay adapter against the local emulator,
// and Razorpay's notifications to POST /webhooks/razorpay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import {
  orderPaidEvent,
  paymentCapturedEvent,
  signWebhook,
  startRazorpayEmulator,
  subscriptionEvent,
  type RazorpayEmulator,
  gatewayEnv,
} from '../helpers/razorpay-emulator.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_EmulatorKey01', keySecret: 'emulatorsecret000000000' };
const WEBHOOK_SECRET = 'razorpay-webhook-secret';

describe('live payments through Razorpay', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      // Refund jobs must run against this emulator: a worker of its own.
      isolatedDatabase: true,
      env: {
        ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
        // Well above a loaded machine's slowest answer (a timed-out call here is one the emulator holds back).
        RAZORPAY_TIMEOUT_MS: '2000',
        STAFF_EMAILS: staffEmail,
      },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
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
    return r.body as {
      registrationId: string;
      orderId: string;
      amount: number;
      currency: string;
      key: string;
    };
  };
  const step2 = (eventId: string, s: { registrationId: string; orderId: string }, paymentId: string) =>
    api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s.registrationId,
      orderId: s.orderId,
      paymentId,
    });
  const registration = async (eventId: string, id: string) =>
    (await api('GET', `/api/v1/events/${eventId}/registrations/${id}`)).body.data;
  const notify = (body: string, signature = signWebhook(body, WEBHOOK_SECRET)) =>
    call(server.url, 'POST', '/webhooks/razorpay', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
    });

  it('creates a Razorpay order at step 1 and confirms a captured payment at step 2, with fees recorded', async () => {
    const eventId = await liveEvent();
    const s = await step1(eventId);
    assert.equal(s.key, creds.keyId);
    assert.equal(s.amount, 50000);
    const order = rzp.orders.get(s.orderId)!;
    assert.deepEqual([order.amount, order.currency, order.receipt], [50000, 'INR', s.registrationId]);
    const payment = rzp.pay(s.orderId);
    const r = await step2(eventId, s, String(payment.id));
    assert.equal(r.status, 200, r.text);
    const reg = await registration(eventId, s.registrationId);
    assert.equal(reg.status, 'confirmed');
    assert.equal(reg.platformFee, 22.5, '4.5 % of ₹500 for the event’s first paid ticket');
    assert.equal(reg.gatewayFee, 15, '3 % of ₹500');
    assert.equal((await step2(eventId, s, String(payment.id))).status, 200, 'a repeat answers the same');
    const analytics = await api('GET', `/api/v1/events/${eventId}/analytics`);
    assert.equal(analytics.body.totalRevenue, 500);
  });

  it('captures an authorised payment only after verifying it', async () => {
    const eventId = await liveEvent();
    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId, { capture: false });
    assert.equal((await step2(eventId, s, String(payment.id))).status, 200);
    assert.equal(rzp.payments.get(String(payment.id))!.status, 'captured');
  });

  it('answers 402 for forged ids and amount mismatches; the registration stays pending', async () => {
    const eventId = await liveEvent();
    const s = await step1(eventId);
    for (const paymentId of ['pay_ForgedForged00', 'pay_x']) {
      const r = await step2(eventId, s, paymentId);
      assert.equal(r.status, 402, paymentId);
    }
    const short = rzp.pay(s.orderId, { amount: 100 });
    assert.equal((await step2(eventId, s, String(short.id))).status, 402);
    assert.equal((await registration(eventId, s.registrationId)).status, 'pending');
  });

  it('answers 502 when Razorpay times out or fails, and changes nothing', async () => {
    const eventId = await liveEvent();
    const before = (await api('GET', `/api/v1/events/${eventId}/registrations`)).body.count;
    rzp.fail(/POST \/v1\/orders/, { delayMs: 600_000 });
    const slow = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'B',
      email: uniqueEmail('b'),
    });
    assert.equal(slow.status, 502);
    rzp.fail(/POST \/v1\/orders/, { status: 500 });
    const down = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'B',
      email: uniqueEmail('b'),
    });
    assert.equal(down.status, 502);
    assert.equal(
      (await api('GET', `/api/v1/events/${eventId}/registrations`)).body.count,
      before,
      'no registration filed',
    );

    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId);
    rzp.fail(/GET \/v1\/payments/, { delayMs: 600_000 });
    assert.equal((await step2(eventId, s, String(payment.id))).status, 502);
    assert.equal((await registration(eventId, s.registrationId)).status, 'pending');
    assert.equal((await step2(eventId, s, String(payment.id))).status, 200, 'the retry succeeds');
  });

  it('refunds the loser of the race for the last seat through Razorpay', async () => {
    const eventId = await liveEvent({ capacity: 1 });
    const a = await step1(eventId);
    const b = await step1(eventId);
    const pa = rzp.pay(a.orderId);
    const pb = rzp.pay(b.orderId);
    assert.equal((await step2(eventId, a, String(pa.id))).status, 200);
    const lost = await step2(eventId, b, String(pb.id));
    assert.equal(lost.status, 409);
    assert.equal((await registration(eventId, b.registrationId)).status, 'cancelled');
    await drainJobs(server, async () => rzp.payments.get(String(pb.id))!.status === 'refunded');
    assert.equal(rzp.payments.get(String(pb.id))!.amount_refunded, 50000);
    assert.equal(
      rzp.payments.get(String(pa.id))!.status,
      'captured',
      'the winner keeps their seat and payment',
    );
  });

  it('refunds at Razorpay when the organiser cancels; a refused refund is 502 and changes nothing', async () => {
    const eventId = await liveEvent();
    const s = await step1(eventId);
    const p = rzp.pay(s.orderId);
    await step2(eventId, s, String(p.id));
    rzp.fail(/refund/, {
      status: 400,
      body: {
        error: { code: 'BAD_REQUEST_ERROR', description: 'The payment has been fully refunded already' },
      },
    });
    const refused = await api('POST', `/api/v1/events/${eventId}/registrations/${s.registrationId}/cancel`);
    assert.equal(refused.status, 502);
    assert.equal((await registration(eventId, s.registrationId)).status, 'confirmed');
    const ok = await api('POST', `/api/v1/events/${eventId}/registrations/${s.registrationId}/cancel`);
    assert.equal(ok.status, 200);
    assert.equal(rzp.payments.get(String(p.id))!.status, 'refunded');
  });

  describe('notifications', () => {
    it('confirms on order.paid exactly once, however often and in whatever order they arrive', async () => {
      const eventId = await liveEvent({ capacity: 10 });
      const s = await step1(eventId);
      const payment = rzp.pay(s.orderId);
      const paid = orderPaidEvent(rzp.orders.get(s.orderId)!, payment, { capturedAsString: true });
      const captured = paymentCapturedEvent(payment);
      const answers = await Promise.all([notify(captured), notify(paid), notify(paid), notify(captured)]);
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 200],
      );
      assert.equal(answers.filter((a) => a.body.result === 'confirmed').length, 1);
      assert.equal((await registration(eventId, s.registrationId)).status, 'confirmed');
      const availability = await api('GET', `/api/v1/events/${eventId}/availability`);
      assert.equal(availability.body.data.taken, 1, 'one seat, not four');
      assert.equal(
        (await step2(eventId, s, String(payment.id))).status,
        200,
        'the browser’s step 2 later answers the same',
      );
    });

    it('refuses a bad signature with 400 and answers 200 for anything verified but unknown', async () => {
      const body = JSON.stringify({
        event: 'order.paid',
        payload: {
          order: { entity: { id: 'order_Unknown0000000' } },
          payment: {
            entity: {
              id: 'pay_Unknown00000000',
              amount: 100,
              currency: 'INR',
              status: 'captured',
              captured: true,
              order_id: 'order_Unknown0000000',
            },
          },
        },
      });
      assert.equal((await notify(body, 'f'.repeat(64))).status, 400);
      assert.equal((await notify(body, 'nothex')).status, 400);
      const ok = await notify(body);
      assert.deepEqual([ok.status, ok.body.result], [200, 'ignored']);
      const other = await notify(JSON.stringify({ event: 'payment.failed', payload: {} }));
      assert.equal(other.status, 200);
      const bad = await call(server.url, 'POST', '/webhooks/razorpay', {
        raw: '{nope',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': signWebhook('{nope', WEBHOOK_SECRET),
        },
      });
      assert.equal(bad.status, 400);
    });
  });

  describe('memberships', () => {
    it('creates the Razorpay plan (quarterly as monthly × 3); a gateway failure creates nothing', async () => {
      const r = await api('POST', '/api/v1/memberships/plans', {
        name: 'Quarterly club',
        amount: 999,
        period: 'quarterly',
      });
      assert.equal(r.status, 201, r.text);
      const plan = rzp.plans.get(r.body.data.gatewayPlanId)!;
      assert.deepEqual([plan.period, plan.interval, (plan.item as any).amount], ['monthly', 3, 99900]);
      const before = (await api('GET', '/api/v1/memberships/plans')).body.count;
      rzp.fail(/POST \/v1\/plans/, { status: 503 });
      assert.equal(
        (await api('POST', '/api/v1/memberships/plans', { name: 'x', amount: 10, period: 'monthly' })).status,
        502,
      );
      assert.equal((await api('GET', '/api/v1/memberships/plans')).body.count, before);
    });

    it('subscribes through a Razorpay subscription and follows its notifications', async () => {
      const planId = (
        await api('POST', '/api/v1/memberships/plans', {
          name: 'Monthly',
          amount: 299,
          period: 'monthly',
          totalCount: 12,
        })
      ).body.data.id;
      const email = uniqueEmail('member');
      const s = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'M', email });
      assert.equal(s.status, 201, s.text);
      assert.equal(s.body.keyId, creds.keyId);
      const sub = rzp.subscriptions.get(s.body.subscriptionId)!;
      assert.equal(sub.total_count, 12);
      assert.equal(s.body.authorisationUrl, sub.short_url);
      const member = async () =>
        (await api('GET', `/api/v1/memberships/members?email=${encodeURIComponent(email)}`)).body.data[0];
      assert.equal((await member()).displayStatus, 'pending_authorisation');

      const currentEnd = Math.floor(Date.now() / 1000) + 30 * 86400;
      const charged = subscriptionEvent('charged', sub, { status: 'active', current_end: currentEnd });
      const authenticated = subscriptionEvent('authenticated', sub, { status: 'authenticated' });
      // Out of order, twice each.
      for (const body of [charged, authenticated, charged, authenticated])
        assert.equal((await notify(body)).status, 200);
      const m = await member();
      assert.deepEqual([m.status, m.goodStanding], ['active', true]);
      assert.equal(Date.parse(m.validUntil), currentEnd * 1000);

      const c = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, {});
      assert.equal(c.status, 201);
      assert.deepEqual(rzp.requests.at(-1)!.body, { cancel_at_cycle_end: true });
      assert.equal(c.body.data.displayStatus, 'cancelling');
      await notify(subscriptionEvent('cancelled', sub, { status: 'cancelled' }));
      assert.equal((await member()).displayStatus, 'ended');
    });

    it('fails an immediate cancel that Razorpay refuses with 502, leaving the membership as it was', async () => {
      const planId = (
        await api('POST', '/api/v1/memberships/plans', { name: 'Weekly', amount: 99, period: 'weekly' })
      ).body.data.id;
      const s = await api('POST', '/api/v1/memberships/subscribe', {
        planId,
        name: 'M',
        email: uniqueEmail('m'),
      });
      await notify(subscriptionEvent('authenticated', rzp.subscriptions.get(s.body.subscriptionId)!));
      rzp.subscriptions.get(s.body.subscriptionId)!.status = 'completed';
      const c = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, { immediate: true });
      assert.equal(c.status, 502);
      const m = (await api('GET', `/api/v1/memberships/members?planId=${planId}`)).body.data[0];
      assert.equal(m.status, 'authorised');
      rzp.subscriptions.get(s.body.subscriptionId)!.status = 'active';
      const ok = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, { immediate: true });
      assert.equal(ok.status, 201);
      assert.deepEqual(rzp.requests.at(-1)!.body, { cancel_at_cycle_end: false });
      assert.equal(ok.body.data.displayStatus, 'ended');
    });

    it('confirms a fixed term by step 2 against Razorpay and by order.paid', async () => {
      const planId = (
        await api('POST', '/api/v1/memberships/plans', {
          name: 'Annual',
          amount: 1200,
          kind: 'fixed_term',
          termMonths: 12,
        })
      ).body.data.id;
      const a = await api('POST', '/api/v1/memberships/subscribe', {
        planId,
        name: 'A',
        email: uniqueEmail('a'),
      });
      assert.equal(a.body.amount, 120000);
      const pa = rzp.pay(a.body.orderId);
      const confirmed = await api('POST', `/api/v1/memberships/${a.body.membershipId}/confirm`, {
        orderId: a.body.orderId,
        paymentId: pa.id,
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.equal(confirmed.body.data.goodStanding, true);
      const b = await api('POST', '/api/v1/memberships/subscribe', {
        planId,
        name: 'B',
        email: uniqueEmail('b'),
      });
      const pb = rzp.pay(b.body.orderId);
      const r = await notify(orderPaidEvent(rzp.orders.get(b.body.orderId)!, pb));
      assert.equal(r.body.result, 'confirmed');
    });
  });
});
