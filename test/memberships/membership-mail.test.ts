// The member's mails (docs/decisions/16-the-buyers-ticket.md): a confirmation when a membership starts
// (plan, period and the membership id) and a payment-received mail per charge, sent by
// durable jobs. The id in the confirmation is what admits a members-only registration made
// with a checkout key. And a payment for a membership order no longer expected is refunded
// when its notification arrives, whichever notification it is.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import {
  gatewayEnv,
  paymentCapturedEvent,
  signWebhook,
  startRazorpayEmulator,
  subscriptionEvent,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';

const creds = { keyId: 'rzp_live_MemberMail001', keySecret: 'membermailsecret0000001' };
const WEBHOOK_SECRET = 'member-mail-webhook-secret';

describe('membership mails (live, over SMTP)', () => {
  let rzp: RazorpayEmulator;
  let smtp: SmtpSink;
  let server: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    smtp = await startSmtp();
    server = await startServer({
      isolatedDatabase: true,
      env: { ...gatewayEnv(rzp, creds, WEBHOOK_SECRET), SMTP_URL: smtp.url, STAFF_EMAILS: staffEmail },
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
    await smtp.close();
    await rzp.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const mailsTo = (email: string, subject: RegExp) =>
    smtp.messages.filter((m) => m.envelopeTo.includes(email) && subject.test(m.subject ?? ''));
  async function waitFor(email: string, subject: RegExp, n = 1): Promise<ParsedMail[]> {
    await drainJobs(server, async () => mailsTo(email, subject).length >= n);
    return mailsTo(email, subject);
  }
  const notify = async (body: string) => {
    const r = await call(server.url, 'POST', '/webhooks/razorpay', {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
      },
    });
    assert.equal(r.status, 200, r.text);
    return r.body.result as string;
  };

  it('a fixed term: the confirmation carries the id that admits a members-only booking by checkout key, and a receipt follows', async () => {
    const planId = (
      await api('POST', '/api/v1/memberships/plans', {
        name: 'Annual',
        amount: 1200,
        kind: 'fixed_term',
        termMonths: 12,
      })
    ).body.data.id;
    const email = uniqueEmail('member');
    const s = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Meera Iyer', email });
    assert.equal(s.status, 201, s.text);
    const payment = rzp.pay(s.body.orderId);
    assert.equal(
      (
        await api('POST', `/api/v1/memberships/${s.body.membershipId}/confirm`, {
          orderId: s.body.orderId,
          paymentId: payment.id,
        })
      ).status,
      200,
    );

    const [confirmation] = await waitFor(email, /^Your membership: Annual$/);
    const text = confirmation!.text!;
    const id = /^Membership id: (mem_\S+)$/m.exec(text)?.[1];
    assert.equal(id, s.body.membershipId);
    assert.match(text, /^Plan: Annual \(₹1,200 for 12 months\)$/m);
    assert.match(text, /^Period: \d{1,2} \w{3} 20\d\d – \d{1,2} \w{3} 20\d\d$/m);
    const [receipt] = await waitFor(email, /^Payment received: Annual$/);
    assert.match(receipt!.text!, /^Amount: ₹1,200$/m);
    assert.match(receipt!.text!, new RegExp(`^Payment: ${payment.id}$`, 'm'));

    // The id from the mail is the proof a browser's checkout key must give.
    const eventId = await createEvent(
      api,
      {
        title: 'Members night',
        startDate: '2026-12-12',
        price: 500,
        specialPrices: [{ name: 'Members', price: 0, membersOnly: true }],
      },
      { publish: true },
    );
    const pk = await createKey(server.url, org.token, { mode: 'live', class: 'checkout' });
    const book = (membershipId?: string) =>
      call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
        key: pk.key,
        body: { name: 'Meera Iyer', email, ticketType: 'Members', ...(membershipId ? { membershipId } : {}) },
      });
    assert.equal((await book()).status, 403, 'without the id: refused');
    const booked = await book(id);
    assert.equal(booked.status, 201, booked.text);
  });

  it('a recurring plan: one confirmation when the mandate is approved, one receipt per charge however often it is notified', async () => {
    const planId = (
      await api('POST', '/api/v1/memberships/plans', { name: 'Monthly club', amount: 299, period: 'monthly' })
    ).body.data.id;
    const email = uniqueEmail('monthly');
    const s = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Kabir', email });
    const sub = rzp.subscriptions.get(s.body.subscriptionId)!;
    await notify(subscriptionEvent('authenticated', sub, { status: 'authenticated' }));
    await notify(subscriptionEvent('authenticated', sub, { status: 'authenticated' }));
    const [confirmation] = await waitFor(email, /^Your membership: Monthly club$/);
    assert.match(confirmation!.text!, new RegExp(`^Membership id: ${s.body.membershipId}$`, 'm'));
    assert.match(confirmation!.text!, /^Plan: Monthly club \(₹299 every month\)$/m);

    const charge = (paymentId: string) => {
      const body = JSON.parse(
        subscriptionEvent('charged', sub, {
          status: 'active',
          current_end: Math.floor(Date.now() / 1000) + 30 * 86400,
        }),
      );
      body.payload.payment = {
        entity: {
          id: paymentId,
          entity: 'payment',
          amount: 29900,
          currency: 'INR',
          status: 'captured',
          captured: true,
          order_id: `order_${paymentId}`,
          amount_refunded: 0,
        },
      };
      return JSON.stringify(body);
    };
    await notify(charge('pay_Charge00000001'));
    await notify(charge('pay_Charge00000001'));
    await notify(charge('pay_Charge00000002'));
    await waitFor(email, /^Payment received: Monthly club$/, 2);
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    const receipts = mailsTo(email, /^Payment received/);
    assert.deepEqual(receipts.map((m) => /^Payment: (\S+)$/m.exec(m.text!)?.[1]).sort(), [
      'pay_Charge00000001',
      'pay_Charge00000002',
    ]);
    assert.equal(mailsTo(email, /^Your membership/).length, 1, 'one confirmation');
  });

  it('refunds at once a payment.captured for a membership order cancelled before it was paid', async () => {
    const planId = (
      await api('POST', '/api/v1/memberships/plans', {
        name: 'Term',
        amount: 600,
        kind: 'fixed_term',
        termMonths: 6,
      })
    ).body.data.id;
    const email = uniqueEmail('late');
    const s = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Late', email });
    assert.equal(
      (await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, { immediate: true })).status,
      201,
    );
    const late = rzp.pay(s.body.orderId);
    assert.equal(await notify(paymentCapturedEvent(late)), 'refunding');
    await drainJobs(server, async () => Number(rzp.payments.get(String(late.id))!.amount_refunded) === 60000);
    for (let i = 0; i < 3; i++) await server.deps.jobs.runOnce();
    assert.deepEqual(mailsTo(email, /./), [], 'no mail for a membership that never started');
  });
});

describe('membership mails in test mode', () => {
  let server: TestServer;
  const staffEmail = uniqueEmail('staff');
  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
  });
  after(async () => server.close());

  it('keeps the confirmation and the receipts for GET /api/v1/sandbox/emails; a staff-added member gets the id too', async () => {
    const org = await organiser(server.url);
    const api = keyApi(
      () => server.url,
      () => org.key,
    );
    const kept = async () =>
      (await api('GET', '/api/v1/sandbox/emails')).body.data as {
        to: string[];
        subject: string;
        text: string;
      }[];
    const planId = (
      await api('POST', '/api/v1/memberships/plans', { name: 'Sandbox club', amount: 100, period: 'monthly' })
    ).body.data.id;
    const email = uniqueEmail('sbx');
    const s = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Sandy', email });
    assert.equal(
      (await api('POST', `/api/v1/sandbox/subscriptions/${s.body.subscriptionId}/authenticate`)).status,
      200,
    );
    assert.equal(
      (await api('POST', `/api/v1/sandbox/subscriptions/${s.body.subscriptionId}/charge`)).status,
      200,
    );
    await drainJobs(server, async () => (await kept()).filter((m) => m.to.includes(email)).length >= 2);
    const mine = (await kept()).filter((m) => m.to.includes(email));
    assert.deepEqual(mine.map((m) => m.subject).sort(), [
      'Payment received: Sandbox club',
      'Your membership: Sandbox club',
    ]);
    assert.ok(
      mine
        .find((m) => m.subject.startsWith('Your membership'))!
        .text.includes(`Membership id: ${s.body.membershipId}`),
    );
    assert.match(mine.find((m) => m.subject.startsWith('Payment'))!.text, /^Amount: ₹100$/m);

    const staff = await signup(server.url, { email: staffEmail });
    const byHand = uniqueEmail('manual');
    const added = await call(server.url, 'POST', '/admin/api/memberships', {
      token: staff.token,
      body: { planId, name: 'Manu', email: byHand, validUntil: '2027-12-31' },
    });
    assert.equal(added.status, 201, added.text);
    await drainJobs(server, async () => (await kept()).some((m) => m.to.includes(byHand)));
    const welcome = (await kept()).find((m) => m.to.includes(byHand))!;
    assert.equal(welcome.subject, 'Your membership: Sandbox club');
    assert.match(welcome.text, new RegExp(`^Membership id: ${added.body.data.id}$`, 'm'));
    assert.match(welcome.text, /^Period: .+ – 31 Dec 2027$/m);
  });
});
