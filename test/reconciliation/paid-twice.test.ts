// An order is paid at most once (docs/decisions/12-money-integrity.md, docs/decisions/16-the-buyers-ticket.md): a second captured payment
// of an order already paid, or a payment for a booking or membership that ended before it
// was paid, is refunded in full — at once when its notification arrives, and by the
// sweep when the notification is lost, even after the order's first payment settled it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweep } from '../../src/modules/reconciliation/reconcile.service.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { accountLedger } from '../helpers/rows.js';
import {
  gatewayEnv,
  orderPaidEvent,
  signWebhook,
  startRazorpayEmulator,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import { startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_PaidTwice0001', keySecret: 'paidtwicesecret00000001' };
const WEBHOOK_SECRET = 'paid-twice-webhook-secret';

describe('an order is paid at most once', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      isolatedDatabase: true,
      env: {
        ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
        STAFF_EMAILS: staffEmail,
        RECONCILE_AFTER_MINUTES: '30',
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
  const paymentOf = (id: unknown) => rzp.payments.get(String(id))!;
  /** The gateway's paid notification for one payment, signed as Razorpay signs it. */
  async function notifyPaid(payment: Record<string, unknown>) {
    const order = rzp.orders.get(String(payment.order_id))!;
    const body = orderPaidEvent({ ...order, status: 'paid' }, { ...payment });
    const r = await call(server.url, 'POST', '/webhooks/razorpay', {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
      },
    });
    assert.equal(r.status, 200, r.text);
    return r.body.result as string;
  }
  /** Runs the queued jobs (this server has no workers of its own). */
  async function runJobs() {
    for (let i = 0; i < 20 && (await server.deps.jobs.runOnce()) > 0; i++);
  }
  async function fixedTermPlan(): Promise<string> {
    const r = await api('POST', '/api/v1/memberships/plans', {
      name: 'Annual',
      amount: 1200,
      kind: 'fixed_term',
      termMonths: 12,
    });
    assert.equal(r.status, 201, r.text);
    return r.body.data.id;
  }
  async function subscribe(planId: string) {
    const r = await api('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: 'Member',
      email: uniqueEmail('member'),
    });
    assert.equal(r.status, 201, r.text);
    return r.body as { membershipId: string; orderId: string };
  }
  const membershipLedger = async () =>
    (await accountLedger(server, org.userId)).filter((e) => String(e.kind).startsWith('membership'));

  it('refunds a second payment of a membership order already paid when its notification arrives; the member keeps one period', async () => {
    const planId = await fixedTermPlan();
    const s = await subscribe(planId);
    const first = rzp.pay(s.orderId);
    const confirmed = await api('POST', `/api/v1/memberships/${s.membershipId}/confirm`, {
      orderId: s.orderId,
      paymentId: first.id,
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    const validUntil = confirmed.body.data.validUntil;
    const ledgerBefore = await membershipLedger();

    // The buyer pays the same order again (a second tab, a retried UPI collect).
    const second = rzp.pay(s.orderId);
    assert.equal(
      await notifyPaid(first),
      'ignored',
      'the first payment is the period’s: a repeat notification changes nothing',
    );
    assert.equal(await notifyPaid(second), 'refunding');
    await runJobs();
    assert.equal(paymentOf(second.id).amount_refunded, 120000, 'the second payment is refunded in full');
    assert.equal(paymentOf(first.id).amount_refunded, 0, 'the period’s payment is kept');
    const members = (await api('GET', `/api/v1/memberships/members?planId=${planId}`)).body.data as {
      id: string;
      validUntil: string;
    }[];
    assert.equal(members.find((x) => x.id === s.membershipId)!.validUntil, validUntil, 'one period, not two');
    assert.deepEqual(await membershipLedger(), ledgerBefore, 'the ledger holds one membership payment');
    // Delivered again: refunded once, never twice.
    assert.equal(await notifyPaid(second), 'ignored');
    await runJobs();
    assert.equal(paymentOf(second.id).amount_refunded, 120000);
  });

  it('the sweep refunds a second payment whose notification was lost, after the order’s first payment had settled it', async () => {
    const planId = await fixedTermPlan();
    const s = await subscribe(planId);
    const first = rzp.pay(s.orderId);
    assert.equal(
      (
        await api('POST', `/api/v1/memberships/${s.membershipId}/confirm`, {
          orderId: s.orderId,
          paymentId: first.id,
        })
      ).status,
      200,
    );
    server.clock.advance(31 * 60_000);
    await sweep(server.deps);
    // Paid again after the sweep saw the order confirmed; the notification never comes.
    const second = rzp.pay(s.orderId);
    for (let round = 0; round < 6 && paymentOf(second.id).amount_refunded === 0; round++) {
      server.clock.advance(6 * 3_600_000);
      await sweep(server.deps);
      await runJobs();
    }
    assert.equal(paymentOf(second.id).amount_refunded, 120000, 'the stray payment is found and refunded');
    assert.equal(paymentOf(first.id).amount_refunded, 0);
  });

  it('refunds a second payment of a booking’s order when its notification arrives; the booking keeps the first', async () => {
    const eventId = await createEvent(
      api,
      { title: 'Workshop', startDate: '2027-01-20', price: 500, capacity: 10 },
      { publish: true },
    );
    const s = (
      await api('POST', `/api/v1/events/${eventId}/register`, { name: 'Buyer', email: uniqueEmail('buyer') })
    ).body;
    const first = rzp.pay(s.orderId);
    assert.equal(
      (
        await api('POST', `/api/v1/events/${eventId}/register`, {
          registrationId: s.registrationId,
          orderId: s.orderId,
          paymentId: first.id,
        })
      ).status,
      200,
    );
    const second = rzp.pay(s.orderId);
    assert.equal(await notifyPaid(second), 'refunding');
    await runJobs();
    assert.equal(paymentOf(second.id).amount_refunded, 50000);
    assert.equal(paymentOf(first.id).amount_refunded, 0);
    const reg = (await api('GET', `/api/v1/events/${eventId}/registrations/${s.registrationId}`)).body.data;
    assert.equal(reg.status, 'confirmed');
  });

  it('refunds at once a payment for a membership order cancelled before it was paid', async () => {
    const planId = await fixedTermPlan();
    const s = await subscribe(planId);
    const cancelled = await api('POST', `/api/v1/memberships/${s.membershipId}/cancel`, { immediate: true });
    assert.ok(cancelled.status === 200 || cancelled.status === 201, cancelled.text);
    const late = rzp.pay(s.orderId);
    assert.equal(await notifyPaid(late), 'refunding');
    await runJobs();
    assert.equal(paymentOf(late.id).amount_refunded, 120000, 'refunded without waiting for the sweep');
  });
});
