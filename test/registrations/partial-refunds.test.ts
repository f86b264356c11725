// Partial refunds (docs/decisions/28-a-persons-day.md): the organiser gives back part of a paid booking with
// a reason, through the booking lifecycle (claim → gateway with an idempotency key → complete);
// the booking stays confirmed, never more than the capture is given back, the ledger and a
// partial credit note follow each part, and the buyer is mailed the amount and when to expect
// it. Live mode at the Razorpay emulator, mails over SMTP, a GST-registered organiser.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';
import { gstDocumentsOf, ledgerOf } from '../helpers/rows.js';

const creds = { keyId: 'rzp_live_PartialRefunds1', keySecret: 'partialrefundssecret001' };
const KA = '29AAGCR4375J1ZU';

describe('partial refunds of a paid booking', () => {
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
      env: { ...gatewayEnv(rzp, creds), SMTP_URL: smtp.url, STAFF_EMAILS: staffEmail },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const gst = await api('PUT', '/api/v1/gst/settings', {
      gstin: KA,
      legalName: 'Rangashankara Arts LLP',
      address: '36/2 8th Cross, Bengaluru',
    });
    assert.equal(gst.status, 200, gst.text);
  });
  after(async () => {
    await server?.close();
    await smtp?.close();
    await rzp?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  async function paid(fields: Record<string, unknown> = {}) {
    const eventId = await createEvent(
      api,
      { title: 'Hamlet', price: 1500, venueState: '29', ...fields },
      { publish: true },
    );
    const buyer = uniqueEmail('buyer');
    const s = (await api('POST', `/api/v1/events/${eventId}/register`, { name: 'Asha Rao', email: buyer }))
      .body;
    const payment = rzp.pay(s.orderId);
    const c = await api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s.registrationId,
      orderId: s.orderId,
      paymentId: payment.id,
    });
    assert.equal(c.status, 200, c.text);
    return { eventId, registrationId: s.registrationId as string, paymentId: String(payment.id), buyer };
  }
  const refund = (b: { eventId: string; registrationId: string }, body?: unknown) =>
    api('POST', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}/refund`, body);
  const read = async (b: { eventId: string; registrationId: string }) =>
    (await api('GET', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}`)).body.data;
  const gatewayRefunds = (paymentId: string) =>
    rzp.refunds.filter((r) => r.payment_id === paymentId).map((r) => Number(r.amount));
  const ledgerRows = async (registrationId: string) =>
    (await ledgerOf(server, registrationId)).map((e) => [e.kind, Number(e.amount_paise)]);
  async function mailsTo(email: string, n: number): Promise<ParsedMail[]> {
    await drainJobs(
      server,
      async () => smtp.messages.filter((m) => m.envelopeTo.includes(email)).length >= n,
    ).catch((err) => {
      throw new Error(
        `${err}: ${smtp.messages
          .filter((m) => m.envelopeTo.includes(email))
          .map((m) => m.subject)
          .join('; ')}`,
      );
    });
    return smtp.messages.filter((m) => m.envelopeTo.includes(email));
  }

  it('gives back part with a reason: confirmed still, one refund at the gateway, the ledger, a partial credit note and the buyer’s mail', async () => {
    const b = await paid();
    const r = await refund(b, { amount: 500, reason: 'The second act was cancelled' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      [r.body.data.status, r.body.data.amount, r.body.data.refunded, r.body.data.kept],
      ['confirmed', 1500, 500, 1000],
    );
    assert.deepEqual(gatewayRefunds(b.paymentId), [50000]);
    const key = rzp.requests.find(
      (q) => q.method === 'POST' && q.path === `/v1/payments/${b.paymentId}/refund`,
    )?.headers['x-refund-idempotency'];
    assert.ok(key, 'the refund is asked with an idempotency key');
    assert.deepEqual(
      (await ledgerRows(b.registrationId)).filter(([k]) => k === 'ticket_refund'),
      [['ticket_refund', -50000]],
    );

    const note = await api(
      'GET',
      `/api/v1/events/${b.eventId}/registrations/${b.registrationId}/credit-note`,
    );
    assert.equal(note.status, 200, note.text);
    assert.equal(note.body.data.kind, 'credit_note');
    assert.equal(note.body.data.line.total, 500, 'the credit note credits the part refunded');
    assert.equal(note.body.data.reason, 'The second act was cancelled');
    // ₹500 at 18 % within the state: CGST and SGST each 500 × 9 / 118 = 38.14.
    assert.deepEqual(
      [note.body.data.line.cgst, note.body.data.line.sgst, note.body.data.line.taxableValue],
      [38.14, 38.14, 423.72],
    );

    const audit = (await api('GET', `/api/v1/audit-log?targetId=${b.registrationId}`)).body.data.map(
      (e: any) => e.action,
    );
    assert.ok(audit.includes('registration.partial_refund'), audit.join(', '));

    const mail = (await mailsTo(b.buyer, 2)).find((m) => /refunded/.test(m.subject ?? ''))!;
    assert.ok(mail, 'a refund mail to the buyer');
    assert.equal(mail.subject, 'Part of your booking is refunded: Hamlet');
    assert.match(mail.text!, /₹500 of your booking for Hamlet is refunded: The second act was cancelled/);
    assert.match(mail.text!, /stays confirmed/);
    assert.match(mail.text!, /within 5 to 7 working days/);
    assert.ok(
      mail.attachments.some((a) => a.filename === `${note.body.data.number}.pdf`),
      'the credit note is attached',
    );
    assert.match(String(mail.html), /<html lang="en-IN">/);
    assert.match(String(mail.html), /<title>Part of your booking is refunded: Hamlet<\/title>/);
  });

  it('never gives back more than was captured; the rest refunded ends it refunded, the fee reversed once', async () => {
    const b = await paid();
    assert.equal((await refund(b, { amount: 600, reason: 'Seat moved' })).status, 200);
    const over = await refund(b, { amount: 1000, reason: 'Too much' });
    assert.equal(over.status, 409, over.text);
    assert.equal(over.body.code, 'refund_exceeds_capture');
    assert.match(over.body.error, /only ₹900 of this booking is left to refund/);
    assert.deepEqual([(await read(b)).status, (await read(b)).refunded], ['confirmed', 600]);
    // A second part of the same amount is a refund of its own (its own idempotency key).
    assert.equal((await refund(b, { amount: 600, reason: 'Seat moved again' })).status, 200);
    const rest = await refund(b);
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual(
      [rest.body.data.status, rest.body.data.refunded, rest.body.data.kept],
      ['refunded', 1500, 0],
    );
    assert.deepEqual(gatewayRefunds(b.paymentId), [60000, 60000, 30000]);
    const ledger = await ledgerRows(b.registrationId);
    assert.deepEqual(
      ledger.filter(([k]) => k === 'ticket_refund').map(([, a]) => a),
      [-60000, -60000, -30000],
    );
    assert.equal(ledger.filter(([k]) => k === 'platform_fee_reversal').length, 1);
    const sum = ledger.reduce((s, [, a]) => s + (a as number), 0);
    const gatewayFee = -(ledger.find(([k]) => k === 'gateway_fee')?.[1] as number);
    assert.equal(sum, -gatewayFee, 'refunded in full: the organiser is left with the gateway’s charge only');
    // Three credit notes, one per refund, that add up to the invoice.
    const docs = await gstDocumentsOf(server, b.registrationId);
    assert.deepEqual(
      docs.map((d) => [d.role, Number(d.total_paise)]),
      [
        ['sale', 150000],
        ['refund', 60000],
        ['refund', 60000],
        ['refund', 30000],
      ],
    );
    assert.equal((await refund(b, { amount: 1, reason: 'x' })).body.code, 'already_ended');
  });

  it('refuses a part of nothing, without a reason, or with more than two decimals (400), and a free booking (409)', async () => {
    const b = await paid();
    for (const [body, code] of [
      [{ amount: 0, reason: 'x' }, 'invalid_request'],
      [{ amount: -5, reason: 'x' }, 'invalid_request'],
      [{ amount: 10.001, reason: 'x' }, 'invalid_amount'],
      [{ amount: 100 }, 'invalid_field'],
      [{ amount: 100, reason: '   ' }, 'invalid_field'],
      [{ amount: 100, reason: 'x', extra: 1 }, 'invalid_request'],
    ] as const) {
      const r = await refund(b, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.code, code, JSON.stringify(body));
    }
    assert.deepEqual(gatewayRefunds(b.paymentId), []);
    const free = await createEvent(api, { title: 'Free talk' }, { publish: true });
    const f = (
      await api('POST', `/api/v1/events/${free}/register`, { name: 'Ravi', email: uniqueEmail('free') })
    ).body;
    const r = await refund({ eventId: free, registrationId: f.registrationId }, { amount: 10, reason: 'x' });
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'nothing_to_refund');
  });

  it('the attendee’s cancellation under a 10 % fee after a part was given back: the fee kept on the price, the rest refunded', async () => {
    const b = await paid({ selfService: { cancel: true, refund: { feePercent: 10 } } });
    assert.equal((await refund(b, { amount: 300, reason: 'Late start' })).status, 200);
    const { attendeeToken } = await import('../../src/lib/attendee-token.js');
    const token = attendeeToken(server.deps.config.secretsKey, b.registrationId, b.registrationId);
    const page = await fetch(`${server.url}/t/${token}`).then((r) => r.text());
    assert.match(page, /You will be refunded ₹1,050 of the ₹1,200/);
    const csrf = /action="\/t\/[^"]+\/cancel">\s*<input type="hidden" name="csrf" value="([^"]+)"/.exec(
      page,
    )![1]!;
    const done = await fetch(`${server.url}/t/${token}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ csrf, confirm: 'yes' }).toString(),
    });
    assert.equal(done.status, 200);
    const after = await read(b);
    assert.deepEqual([after.status, after.refunded, after.kept], ['cancelled', 1350, 150]);
    assert.deepEqual(gatewayRefunds(b.paymentId), [30000, 105000]);
    // (The ticket mail, run after the cancellation, is not sent: the ticket no longer admits.)
    const mail = (await mailsTo(b.buyer, 2)).find((m) => /cancelled/.test(m.subject ?? ''))!;
    assert.ok(mail, 'a cancellation mail');
    assert.match(mail.text!, /₹1,050 comes back to you; the organiser keeps ₹150 of the ₹1,500 you paid/);
  });
});
