// GST documents end to end (docs/decisions/17-the-organisers-office.md): a registered organiser's paid bookings, paid through the
// Razorpay emulator, get tax invoices whose PDF — read back with pdftotext — shows every
// rule 46 field with the right tax split; exempt tickets get bills of supply; a refund gets
// a credit note naming its invoice; every confirmation path issues exactly one.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { financialYear } from '../../src/modules/gst/tax.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { field, pdfText } from '../helpers/pdf.js';
import {
  gatewayEnv,
  signWebhook,
  startRazorpayEmulator,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_GstEmulatorKey1', keySecret: 'gstemulatorsecret000000' };
const WEBHOOK_SECRET = 'gst-webhook-secret';
/** Karnataka; Chandigarh (a union territory without a legislature); a Delhi buyer. */
const KA = '29AAGCR4375J1ZU';
const CH = '04AABCU9603R1ZV';
const BUYER = '07AAACH7409R1Z3';

describe('GST documents for paid bookings', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  let fyCode: string;

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      isolatedDatabase: true,
      env: { ...gatewayEnv(rzp, creds, WEBHOOK_SECRET), STAFF_EMAILS: 'gst-staff@example.in' },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: 'gst-staff@example.in' });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const settings = await api('PUT', '/api/v1/gst/settings', {
      gstin: KA,
      legalName: 'Rangashankara Arts LLP',
      address: '36/2 8th Cross, JP Nagar, Bengaluru 560078',
    });
    assert.equal(settings.status, 200, settings.text);
    const fy = financialYear(server.clock.now());
    fyCode = fy.slice(2, 4) + fy.slice(5, 7);
  });
  after(async () => {
    await server?.close();
    await rzp?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const liveEvent = (fields: Record<string, unknown>) =>
    createEvent(api, { title: 'Hamlet', price: 999, ...fields }, { publish: true });
  async function step1(eventId: string, extra: Record<string, unknown> = {}) {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Asha Rao',
      email: uniqueEmail('buyer'),
      ...extra,
    });
    assert.equal(r.status, 201, r.text);
    return r.body as { registrationId: string; orderId: string };
  }
  async function book(eventId: string, extra: Record<string, unknown> = {}): Promise<string> {
    const s = await step1(eventId, extra);
    const payment = rzp.pay(s.orderId);
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s.registrationId,
      orderId: s.orderId,
      paymentId: payment.id,
    });
    assert.equal(r.status, 200, r.text);
    return s.registrationId;
  }
  async function pdfOf(eventId: string, registrationId: string, which = 'invoice'): Promise<string> {
    const res = await fetch(
      `${server.url}/api/v1/events/${eventId}/registrations/${registrationId}/${which}`,
      { headers: { 'x-api-key': org.key, accept: 'application/pdf' } },
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
    return pdfText(bytes);
  }
  const json = async (eventId: string, registrationId: string, which = 'invoice') =>
    api('GET', `/api/v1/events/${eventId}/registrations/${registrationId}/${which}`);

  it('an intra-state booking: a tax invoice with every rule 46 field and CGST + SGST', async () => {
    const eventId = await liveEvent({ venueState: '29', sac: '999622' });
    const reg = await book(eventId);
    const text = await pdfOf(eventId, reg);
    assert.match(text, /^\s*Tax Invoice\s*$/m);
    const number = field(text, 'Invoice number')!;
    assert.match(number, new RegExp(`^TIXI${fyCode}-\\d{6}$`));
    assert.ok(number.length <= 16);
    assert.match(field(text, 'Date')!, /^\d{2} [A-Z][a-z]{2} \d{4}$/);
    // Supplier: name, address, GSTIN, state.
    assert.equal(field(text, 'Name', 'Supplier'), 'Rangashankara Arts LLP');
    assert.equal(field(text, 'Address', 'Supplier'), '36/2 8th Cross, JP Nagar, Bengaluru 560078');
    assert.equal(field(text, 'GSTIN', 'Supplier'), KA);
    assert.equal(field(text, 'State', 'Supplier'), 'Karnataka (29)');
    // Recipient: name and state at any value (a sale through a platform).
    assert.equal(field(text, 'Name', 'Recipient'), 'Asha Rao');
    assert.equal(field(text, 'State', 'Recipient'), 'Karnataka (29)');
    assert.equal(field(text, 'Place of supply'), 'Karnataka (29)');
    assert.equal(field(text, 'Reverse charge'), 'No');
    assert.equal(field(text, 'Description'), 'Admission: Hamlet (General), 2026-12-20');
    assert.equal(field(text, 'SAC'), '999622');
    assert.equal(field(text, 'Quantity'), '1 person');
    // ₹999 at 18 % within the state: CGST 76.19 + SGST 76.19 on 846.62.
    assert.equal(field(text, 'Taxable value'), 'INR 846.62');
    assert.equal(field(text, 'CGST @ 9%'), 'INR 76.19');
    assert.equal(field(text, 'SGST @ 9%'), 'INR 76.19');
    assert.equal(field(text, 'IGST @ 18%'), undefined);
    assert.equal(field(text, 'Total (tax inclusive)'), 'INR 999.00');
    assert.match(field(text, 'Signature')!, /^Issued electronically for Rangashankara Arts LLP/);
    assert.doesNotMatch(text, /TEST MODE/);
  });

  it('a seated booking’s invoice names its seats in the description', async () => {
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Main hall',
      grid: { sections: [{ name: 'Stalls', rows: 1, seatsPerRow: 4, category: 'Gold' }] },
    });
    assert.equal(plan.status, 201, plan.text);
    const eventId = await liveEvent({
      venueState: '29',
      seatingPlanId: plan.body.data.id,
      specialPrices: [{ name: 'Gold', price: 999 }],
      maxTeamSize: 2,
    });
    const held = await api('POST', `/api/v1/events/${eventId}/seats/hold`, {
      seats: ['Stalls-A-3', 'Stalls-A-2'],
    });
    assert.equal(held.status, 201, held.text);
    const reg = await book(eventId, {
      holdToken: held.body.data.holdToken,
      teamMembers: [{ name: 'Ravi Rao', email: uniqueEmail('ravi') }],
    });
    const text = await pdfOf(eventId, reg);
    assert.equal(
      field(text, 'Description'),
      'Admission: Hamlet (Gold · Stalls · Row A, seat 2 · Stalls · Row A, seat 3), 2026-12-20',
    );
    assert.equal(field(text, 'Quantity'), '2 people');
  });

  it('an inter-state booking with the buyer’s GSTIN: IGST, and the buyer’s GSTIN and state on it (B2B)', async () => {
    const eventId = await liveEvent({ venueState: '27' });
    const reg = await book(eventId, {
      billing: {
        gstin: BUYER.toLowerCase(),
        name: 'Hindustan Co Ltd',
        address: '1 Parliament St, New Delhi',
      },
    });
    const text = await pdfOf(eventId, reg);
    assert.equal(field(text, 'Place of supply'), 'Maharashtra (27)');
    assert.equal(field(text, 'Taxable value'), 'INR 846.61');
    assert.equal(field(text, 'IGST @ 18%'), 'INR 152.39');
    assert.equal(field(text, 'CGST @ 9%'), undefined);
    assert.equal(field(text, 'SAC'), '9996', 'no SAC chosen: the heading');
    assert.equal(field(text, 'Name', 'Recipient'), 'Hindustan Co Ltd');
    assert.equal(field(text, 'GSTIN', 'Recipient'), BUYER);
    assert.equal(field(text, 'Address', 'Recipient'), '1 Parliament St, New Delhi');
    assert.equal(field(text, 'State', 'Recipient'), 'Delhi (07)');
    const read = await api('GET', `/api/v1/events/${eventId}/registrations/${reg}`);
    assert.deepEqual(read.body.data.billing, {
      gstin: BUYER,
      name: 'Hindustan Co Ltd',
      address: '1 Parliament St, New Delhi',
      state: '07',
    });
  });

  it('an event of a casual registration in a union territory: its own GSTIN and series, CGST + UTGST', async () => {
    const eventId = await liveEvent({
      supplierGstin: CH,
      venueState: '04',
      taxCategory: 'premium_sporting',
      price: 2800,
      specialPrices: [{ name: 'Stand', price: 1400, sac: '999652' }],
    });
    const reg = await book(eventId, { ticketType: 'Stand' });
    const text = await pdfOf(eventId, reg);
    assert.equal(field(text, 'GSTIN', 'Supplier'), CH);
    assert.equal(field(text, 'State', 'Supplier'), 'Chandigarh (04)');
    assert.equal(field(text, 'SAC'), '999652', 'the tier’s SAC');
    // ₹1,400 at 40 %: 20 % each, 1400 × 20 / 140 = 200.00.
    assert.equal(field(text, 'CGST @ 20%'), 'INR 200.00');
    assert.equal(field(text, 'UTGST @ 20%'), 'INR 200.00');
    assert.equal(field(text, 'SGST @ 20%'), undefined);
    assert.equal(field(text, 'Taxable value'), 'INR 1,000.00');
    assert.equal(field(text, 'Invoice number'), `TIXI${fyCode}-000001`, 'the event’s GSTIN numbers from 1');
  });

  it('exempt admission at ₹500 or less per person: a bill of supply; above, a tax invoice on the whole price', async () => {
    const eventId = await liveEvent({
      venueState: '29',
      taxCategory: 'admission_exempt_upto_500',
      price: 500,
      specialPrices: [{ name: 'Premium', price: 501 }],
    });
    const cheap = await pdfOf(eventId, await book(eventId));
    assert.match(cheap, /^\s*Bill of Supply\s*$/m);
    assert.match(field(cheap, 'Bill number')!, new RegExp(`^TIXB${fyCode}-\\d{6}$`));
    assert.equal(field(cheap, 'Tax'), 'Nil (exempt supply)');
    assert.equal(field(cheap, 'Taxable value'), 'INR 500.00');
    assert.match(field(cheap, 'Exemption')!, /12\/2017-Central Tax \(Rate\), entry 81/);
    const dear = await json(eventId, await book(eventId, { ticketType: 'Premium' }));
    assert.equal(dear.body.data.kind, 'tax_invoice');
    assert.deepEqual(
      [
        dear.body.data.line.rate,
        dear.body.data.line.cgst,
        dear.body.data.line.sgst,
        dear.body.data.line.taxableValue,
      ],
      [18, 38.21, 38.21, 424.58],
    );
  });

  it('a refund issues a credit note from its own series naming the invoice; a cancel of a paid booking too', async () => {
    const eventId = await liveEvent({ venueState: '29' });
    for (const action of ['refund', 'cancel'] as const) {
      const reg = await book(eventId);
      const invoice = (await json(eventId, reg)).body.data;
      assert.equal((await json(eventId, reg, 'credit-note')).status, 404, 'none before the refund');
      assert.equal(
        (await api('POST', `/api/v1/events/${eventId}/registrations/${reg}/${action}`)).status,
        200,
      );
      const text = await pdfOf(eventId, reg, 'credit-note');
      assert.match(text, /^\s*Credit Note\s*$/m);
      assert.match(field(text, 'Credit note number')!, new RegExp(`^TIXC${fyCode}-\\d{6}$`));
      assert.equal(
        field(text, 'Original document'),
        `Tax Invoice ${invoice.number} dated ${field(await pdfOf(eventId, reg), 'Date')}`,
      );
      assert.equal(field(text, 'CGST @ 9%'), 'INR 76.19');
      assert.equal(field(text, 'Total credited (tax inclusive)'), 'INR 999.00');
      const note = (await json(eventId, reg, 'credit-note')).body.data;
      assert.deepEqual(note.original, { kind: 'tax_invoice', number: invoice.number, date: invoice.date });
      assert.equal(
        (await json(eventId, reg)).body.data.number,
        invoice.number,
        'the invoice itself is unchanged',
      );
    }
  });

  it('the gateway’s notification confirms with one invoice; step 2 afterwards issues nothing more', async () => {
    const eventId = await liveEvent({ venueState: '29' });
    const s = await step1(eventId);
    const payment = rzp.pay(s.orderId);
    for (const n of rzp.takeNotifications()) {
      const r = await call(server.url, 'POST', '/webhooks/razorpay', {
        raw: n.body,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': signWebhook(n.body, WEBHOOK_SECRET),
        },
      });
      assert.equal(r.status, 200, r.text);
    }
    const first = await json(eventId, s.registrationId);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.paymentId, payment.id);
    const again = await api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s.registrationId,
      orderId: s.orderId,
      paymentId: payment.id,
    });
    assert.equal(again.status, 200);
    const docs = await server.deps.db
      .selectFrom('gst_documents')
      .select('number')
      .where('registration_id', '=', s.registrationId)
      .execute();
    assert.deepEqual(
      docs.map((d) => d.number),
      [first.body.data.number],
    );
  });

  it('answers HTML and JSON too: by ?format= or by Accept', async () => {
    const eventId = await liveEvent({ venueState: '29' });
    const reg = await book(eventId);
    const base = `${server.url}/api/v1/events/${eventId}/registrations/${reg}/invoice`;
    const html = await fetch(`${base}?format=html`, {
      headers: { 'x-api-key': org.key, accept: 'application/pdf' },
    });
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    const page = await html.text();
    assert.match(page, /<h1>Tax Invoice<\/h1>/);
    assert.match(page, /<th scope="row">CGST @ 9%<\/th><td>INR 76.19<\/td>/);
    assert.doesNotMatch(page, /<script|style=/);
    const browser = await fetch(base, {
      headers: { 'x-api-key': org.key, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    assert.match(browser.headers.get('content-type') ?? '', /^text\/html/);
    const plain = await api('GET', `/api/v1/events/${eventId}/registrations/${reg}/invoice`);
    assert.equal(plain.body.data.line.total, 999);
    assert.equal(
      (await api('GET', `/api/v1/events/${eventId}/registrations/${reg}/invoice?format=xml`)).status,
      400,
    );
  });

  it('no document for a free booking, an event taxed none, or another account; 404 document_not_found', async () => {
    const free = await liveEvent({ price: 0 });
    const r = await api('POST', `/api/v1/events/${free}/register`, { name: 'F', email: uniqueEmail('f') });
    assert.equal(r.status, 201);
    const none = await json(free, r.body.registrationId);
    assert.deepEqual([none.status, none.body.code], [404, 'document_not_found']);
    const untaxed = await liveEvent({ taxCategory: 'none' });
    assert.equal((await json(untaxed, await book(untaxed))).status, 404);
    const taxed = await liveEvent({ venueState: '29' });
    const reg = await book(taxed);
    const stranger = await organiser(server.url, 'live');
    const other = await call(server.url, 'GET', `/api/v1/events/${taxed}/registrations/${reg}/invoice`, {
      key: stranger.key,
    });
    assert.equal(other.status, 403);
  });

  it('the ticket mail carries the invoice as its one tax document; a transferred ticket’s mail shows none of the giver’s payment', async () => {
    const eventId = await liveEvent({ venueState: '29' });
    const email = uniqueEmail('mailed');
    const s = await step1(eventId, { email });
    const payment = rzp.pay(s.orderId);
    assert.equal(
      (
        await api('POST', `/api/v1/events/${eventId}/register`, {
          registrationId: s.registrationId,
          orderId: s.orderId,
          paymentId: payment.id,
        })
      ).status,
      200,
    );
    const number = (await json(eventId, s.registrationId)).body.data.number;
    const mailTo = async (to: string): Promise<ParsedMail | undefined> => {
      const dir = join(server.dataDir, 'mail');
      for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.eml')) : []) {
        const parsed = await simpleParser(readFileSync(join(dir, f)));
        if (parsed.text?.includes(to) || JSON.stringify(parsed.to).includes(to)) return parsed;
      }
      return undefined;
    };
    await drainJobs(server, async () => (await mailTo(email)) !== undefined);
    const mail = (await mailTo(email))!;
    // One tax document: the invoice attached, no receipt line calling itself "not a tax invoice".
    assert.match(mail.text ?? '', new RegExp(`^Tax Invoice: ${number} \\(attached\\)$`, 'm'));
    assert.doesNotMatch(mail.text ?? '', /receipt/i);
    assert.doesNotMatch(String(mail.html), /receipt/i);
    const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
    assert.equal(pdf?.filename, `${number}.pdf`);
    assert.equal(field(pdfText(pdf!.content), 'Invoice number'), number);

    const newHolder = uniqueEmail('newholder');
    assert.equal(
      (
        await api('POST', `/api/v1/events/${eventId}/registrations/${s.registrationId}/transfer`, {
          name: 'New Holder',
          email: newHolder,
        })
      ).status,
      200,
    );
    await drainJobs(server, async () => (await mailTo(newHolder)) !== undefined);
    const transferred = (await mailTo(newHolder))!;
    assert.equal(transferred.attachments.filter((a) => a.contentType === 'application/pdf').length, 0);
    // The new holder is told who passed the ticket on, and sees nothing of what they paid.
    assert.match(transferred.text ?? '', /^Asha Rao passed this ticket on to you\. It is yours now\.$/m);
    for (const leak of [/₹/, /999/, /pay_/, String(payment.id), /Amount paid/, /Receipt/, /Tax Invoice/]) {
      assert.doesNotMatch(transferred.text ?? '', typeof leak === 'string' ? new RegExp(leak) : leak);
      assert.doesNotMatch(String(transferred.html), typeof leak === 'string' ? new RegExp(leak) : leak);
    }
  });
});
