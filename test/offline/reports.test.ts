// Offline sales in the reports (docs/decisions/24-payment-outside-the-gateway.md): the registrations
// export names each booking's payment method, the reference the buyer quotes, its pay-by and what
// the organiser recorded on marking it paid; GSTR-1 holds the tax invoice of a booking marked paid
// and the credit note of its offline refund; the ledger's recomputation counts offline sales and
// refunds, so a set of them marked paid and refunded reports no mismatch (and a planted
// offline_sale without a paid booking is reported); the reconciliation sweep, which asks the
// gateway about its orders, leaves bookings that have none alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { recordOfflineSale } from '../../src/modules/ledger/offline-sales.service.js';
import { REFERENCE_PATTERN } from '../../src/modules/registrations/offline-reference.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_OfflineReports01', keySecret: 'offlinereportssecret0000' };
const OFFLINE = { enabled: true, methods: ['bank_transfer', 'cash_at_venue'], instructions: 'HDFC 5010' };
const STAFF = 'offline-reports-staff@example.in';

/** An instant as the files write it: India time, offset written out. */
const ist = (iso: string) => `${new Date(Date.parse(iso) + 330 * 60_000).toISOString().slice(0, 19)}+05:30`;

describe('offline sales in exports, GSTR-1, the ledger check and reconciliation', {
  timeout: 120_000,
}, () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  let staff: Account;
  let eventId: string;
  const regs: Record<
    'paid' | 'refunded' | 'cashPaid' | 'unpaid',
    { id: string; reference: string; payBy: string }
  > = {} as never;

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    // The ledger check and the sweep look at every account: a database of its own on PostgreSQL.
    server = await startServer({
      isolatedDatabase: true,
      env: { ...gatewayEnv(rzp, creds), STAFF_EMAILS: STAFF },
    });
    org = await organiser(server.url, 'live');
    staff = await signup(server.url, { email: STAFF });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const gst = await api('PUT', '/api/v1/gst/settings', {
      gstin: '29AAGCR4375J1ZU',
      legalName: 'Rangashankara Arts LLP',
      address: '36/2 8th Cross, JP Nagar, Bengaluru 560078',
    });
    assert.equal(gst.status, 200, gst.text);
    const ev = await createEventData(
      api,
      { price: 1000, capacity: 10, offlinePayment: OFFLINE },
      { publish: true },
    );
    eventId = ev.id;
    for (const name of ['paid', 'refunded', 'cashPaid', 'unpaid'] as const) {
      const r = await api('POST', `/api/v1/events/${eventId}/register`, {
        name: `Buyer ${name}`,
        email: uniqueEmail(name),
        paymentMethod: 'bank_transfer',
      });
      assert.equal(r.status, 201, r.text);
      regs[name] = { id: r.body.registrationId, ...r.body.awaitingPayment };
    }
    const mark = async (id: string, body: Record<string, unknown>) => {
      const r = await api('POST', `/api/v1/events/${eventId}/registrations/${id}/mark-paid`, body);
      assert.equal(r.status, 200, r.text);
    };
    await mark(regs.paid.id, {
      method: 'bank_transfer',
      reference: 'UTR 412345678901',
      amountPaid: 1000,
      paidAt: '2026-12-02T11:20:00+05:30',
    });
    await mark(regs.refunded.id, { method: 'bank_transfer', amountPaid: 1000 });
    // Told transfer, paid cash: the method recorded is what the file says.
    await mark(regs.cashPaid.id, { method: 'cash_at_venue', reference: 'Receipt 17', amountPaid: 1000 });
    const refund = await api('POST', `/api/v1/events/${eventId}/registrations/${regs.refunded.id}/refund`, {
      offline: true,
      reason: 'Could not come',
    });
    assert.equal(refund.status, 200, refund.text);
  });
  after(async () => {
    await server?.close();
    await rzp?.close();
  });
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const ledgerCheck = async () => {
    const r = await call(server.url, 'GET', `/admin/api/ledger/check?accountId=${org.userId}`, {
      token: staff.token,
    });
    assert.equal(r.status, 200, r.text);
    return r.body as { ok: boolean; mismatches: { source: string; expected: number; ledger: number }[] };
  };

  it('the registrations export shows each booking’s method and reference', async () => {
    const res = await fetch(`${server.url}/api/v1/events/${eventId}/registrations/export`, {
      headers: { 'x-api-key': org.key },
    });
    assert.equal(res.status, 200);
    const [header, ...rows] = parse(Buffer.from(await res.arrayBuffer()), { bom: true }) as string[][];
    const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
    const byId = (id: string) => records.find((r) => r.registration_id === id)!;
    const cells = (id: string) => {
      const r = byId(id);
      return [r.status, r.payment_method, r.payment_reference, r.pay_by, r.paid_reference, r.paid_at];
    };
    for (const name of ['paid', 'refunded', 'cashPaid', 'unpaid'] as const)
      assert.match(byId(regs[name].id).payment_reference!, REFERENCE_PATTERN);
    assert.deepEqual(cells(regs.paid.id), [
      'confirmed',
      'bank_transfer',
      regs.paid.reference,
      ist(regs.paid.payBy),
      'UTR 412345678901',
      '2026-12-02T11:20:00+05:30',
    ]);
    assert.deepEqual(cells(regs.cashPaid.id).slice(0, 3), [
      'confirmed',
      'cash_at_venue',
      regs.cashPaid.reference,
    ]);
    assert.equal(byId(regs.cashPaid.id).paid_reference, 'Receipt 17');
    assert.deepEqual(cells(regs.refunded.id).slice(0, 3), [
      'refunded',
      'bank_transfer',
      regs.refunded.reference,
    ]);
    assert.ok(byId(regs.refunded.id).credit_note_number, 'the refund’s credit note is named');
    assert.deepEqual(cells(regs.unpaid.id), [
      'pending',
      'bank_transfer',
      regs.unpaid.reference,
      ist(regs.unpaid.payBy),
      '',
      '',
    ]);
    assert.equal(byId(regs.paid.id).invoice_number, await invoiceNumber(regs.paid.id));
  });

  const invoiceNumber = async (id: string) => {
    const r = await api('GET', `/api/v1/events/${eventId}/registrations/${id}/invoice`);
    assert.equal(r.status, 200, r.text);
    return r.body.data.number as string;
  };

  it('GSTR-1 holds the invoices of offline sales and the credit note of an offline refund', async () => {
    const note = await api('GET', `/api/v1/events/${eventId}/registrations/${regs.refunded.id}/credit-note`);
    assert.equal(note.status, 200, note.text);
    const month = new Date(server.clock.now().getTime() + 330 * 60_000).toISOString().slice(0, 7);
    const r = await api('GET', `/api/v1/gst/gstr1?month=${month}`);
    assert.equal(r.status, 200, r.text);
    const [supplier] = r.body.data.suppliers;
    assert.equal(supplier.gstin, '29AAGCR4375J1ZU');
    const invoices = supplier.documents.find((d: { kind: string }) => d.kind === 'tax_invoice');
    const notes = supplier.documents.find((d: { kind: string }) => d.kind === 'credit_note');
    assert.equal(invoices.issued, 3, 'the three bookings marked paid');
    const numbers = await Promise.all(
      [regs.paid, regs.refunded, regs.cashPaid].map((x) => invoiceNumber(x.id)),
    );
    assert.deepEqual([invoices.from, invoices.to], [numbers.sort()[0], numbers.sort()[2]]);
    assert.equal(notes.issued, 1);
    assert.equal(notes.from, note.body.data.number);
    // Net of the credit note: two sales of ₹1,000 stand.
    assert.equal(supplier.totals.value, 2000);
  });

  it('the ledger check counts offline sales and refunds: no mismatch', async () => {
    const check = await ledgerCheck();
    assert.deepEqual(check.mismatches, []);
    assert.equal(check.ok, true);
  });

  it('the reconciliation sweep expects no gateway payment for them', async () => {
    server.clock.advance(60 * 60_000);
    const r = await call(server.url, 'POST', '/admin/api/reconciliation/sweep', { token: staff.token });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.errors, 0);
    assert.equal(r.body.data.expired, 0);
    assert.equal(r.body.data.refunded, 0);
    const list = (await api('GET', `/api/v1/events/${eventId}/registrations`)).body.data as {
      id: string;
      status: string;
    }[];
    assert.deepEqual(Object.fromEntries(list.map((x) => [x.id, x.status])), {
      [regs.paid.id]: 'confirmed',
      [regs.refunded.id]: 'refunded',
      [regs.cashPaid.id]: 'confirmed',
      [regs.unpaid.id]: 'pending',
    });
    assert.deepEqual((await ledgerCheck()).mismatches, []);
  });

  // Last: ledger entries are immutable, so the planted one stays.
  it('still reports a real mismatch: an offline_sale with no paid booking', async () => {
    await recordOfflineSale(server.deps.db, {
      accountId: org.userId,
      mode: 'live',
      registrationId: regs.unpaid.id,
      grossPaise: 100_000,
      platformFeePaise: 0,
      at: server.clock.now(),
    });
    const check = await ledgerCheck();
    assert.equal(check.ok, false);
    assert.equal(check.mismatches.length, 1, JSON.stringify(check.mismatches));
    const [m] = check.mismatches as unknown as { source: string; expected: number; ledger: number }[];
    assert.equal(m!.source, 'registration');
    assert.equal(m!.ledger - m!.expected, 1000, 'off by the planted sale');
  });
});
