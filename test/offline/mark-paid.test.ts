// Marking a booking paid outside the gateway (docs/decisions/24-payment-outside-the-gateway.md),
// live mode with GST settings and a webhook: mark-paid confirms it through the lifecycle with
// every effect of a paid confirmation (ticket mail, the registration.confirmed webhook, the tax
// invoice, the audit entry naming the key), the ledger's offline_sale (never payable) and the
// platform fee against the balance (no gateway charge); marking twice confirms once; a wrong
// amount, a checkout key and a booking cancelled at payBy are refused. Money: payouts are refused
// while the fees take the available balance below zero; the organiser records an offline refund
// (`offline: true`), which issues the credit note and asks the gateway nothing, once.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { tokenApi } from '../helpers/callers.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_OfflineEmulator1', keySecret: 'offlineemulatorsecret000' };
const DAY = 86_400_000;
const OFFLINE = {
  enabled: true,
  methods: ['bank_transfer', 'cash_at_venue'],
  instructions: 'Pay at the box office',
};

describe('marking an offline booking paid', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      isolatedDatabase: true,
      env: {
        ...gatewayEnv(rzp, creds, 'offline-webhook-secret'),
        STAFF_EMAILS: 'offline-staff@example.in',
        RAZORPAYX_ACCOUNT_NUMBER: '7878780080316316',
      },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: 'offline-staff@example.in' });
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
    const hook = await api('PUT', '/api/v1/webhooks', { url: 'https://hooks.example.in/ticketing' });
    assert.equal(hook.status, 200, hook.text);
    pk = (await createKey(server.url, org.token, { mode: 'live', class: 'checkout' })).key;
    // Test setup: mark the address verified directly in the database (payouts need it).
    await sql`update users set email_verified_at = now() where id = ${org.userId}`.execute(server.deps.db);
  });
  after(async () => {
    await server?.close();
    await rzp?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const balance = async () =>
    (await tokenApi(server.url, org.token)('GET', '/dashboard/api/balance')).body as {
      available: number;
      pending: number;
    };
  async function offlineBooking(price = 1000): Promise<{ eventId: string; id: string; email: string }> {
    const ev = await createEventData(
      api,
      { price, capacity: 10, offlinePayment: OFFLINE },
      { publish: true },
    );
    const email = uniqueEmail('cash');
    const r = await api('POST', `/api/v1/events/${ev.id}/register`, {
      name: 'Ravi',
      email,
      paymentMethod: 'bank_transfer',
    });
    assert.equal(r.status, 201, r.text);
    return { eventId: ev.id, id: r.body.registrationId, email };
  }
  const markPaid = (eventId: string, id: string, body: Record<string, unknown>, key?: string) =>
    api('POST', `/api/v1/events/${eventId}/registrations/${id}/mark-paid`, body, key);
  const rows = async (q: ReturnType<typeof sql<{ n: number }>>) =>
    Number((await q.execute(server.deps.db)).rows[0]!.n);
  const ledgerOf = async (id: string) =>
    (
      await sql<{
        kind: string;
        amount: string;
      }>`select kind, amount_paise::text as amount from ledger_entries
        where source_id = ${id} order by kind`.execute(server.deps.db)
    ).rows.map((r) => [r.kind, Number(r.amount)]);

  it('confirms with every effect of a paid confirmation, once however often it is marked', async () => {
    const before = await balance();
    const { eventId, id } = await offlineBooking(1000);
    const body = {
      method: 'cash_at_venue',
      reference: 'Receipt 17',
      amountPaid: 1000,
      paidAt: '2026-12-02T11:20:00+05:30',
    };
    const first = await markPaid(eventId, id, body);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.status, 'confirmed');
    assert.equal(first.body.data.awaitingPayment, null);
    assert.equal(first.body.data.gatewayFee, 0, 'no gateway charge');
    assert.equal(first.body.data.platformFee, 45, '4.5 % of ₹1,000 (the first paid ticket)');
    assert.equal(first.body.data.kept, 1000);
    const again = await markPaid(eventId, id, body);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, first.body.data, 'the same answer');

    assert.deepEqual(await ledgerOf(id), [
      ['offline_sale', 100000],
      ['platform_fee', -4500],
    ]);
    const after = await balance();
    assert.equal(
      after.available,
      before.available - 45,
      'the fee counts against the balance at once; the sale never',
    );
    assert.equal(after.pending, before.pending);

    const invoice = await api('GET', `/api/v1/events/${eventId}/registrations/${id}/invoice`);
    assert.equal(invoice.status, 200, invoice.text);
    assert.equal(invoice.body.data.kind, 'tax_invoice');
    assert.equal(
      await rows(
        sql`select count(*)::int as n from gst_documents where registration_id = ${id} and role = 'sale'`,
      ),
      1,
      'one invoice',
    );
    const audit = await api('GET', `/api/v1/audit-log?targetId=${id}&action=registration.mark_paid`);
    assert.equal(audit.body.data.length, 1, audit.text);
    assert.equal(audit.body.data[0].actor.kind, 'key');
    assert.equal(audit.body.data[0].after.method, 'cash_at_venue');
    assert.equal(
      await rows(
        sql`select count(*)::int as n from jobs where topic = 'ticket.email' and payload->>'attendeeId' = ${id}`,
      ),
      1,
      'one ticket mail',
    );
    assert.equal(
      await rows(sql`select count(*)::int as n from jobs where payload->>'type' = 'registration.confirmed'
        and payload->'data'->>'registrationId' = ${id}`),
      1,
      'one registration.confirmed webhook',
    );
  });

  it('refuses a wrong amount (409 amount_mismatch), a checkout key (403), bad input (400), and a booking cancelled at payBy (409)', async () => {
    const { eventId, id } = await offlineBooking(500);
    const short = await markPaid(eventId, id, { method: 'bank_transfer', amountPaid: 499 });
    assert.equal(short.status, 409, short.text);
    assert.equal(short.body.code, 'amount_mismatch');
    assert.equal(short.body.amountDue, 500);
    const checkout = await markPaid(eventId, id, { method: 'bank_transfer', amountPaid: 500 }, pk);
    assert.equal(checkout.status, 403, checkout.text);
    for (const bad of [
      { method: 'cheque', amountPaid: 500 },
      { method: 'bank_transfer' },
      { method: 'bank_transfer', amountPaid: 500, paidAt: 'yesterday' },
      { method: 'bank_transfer', amountPaid: 5.001 },
    ]) {
      const r = await markPaid(eventId, id, bad);
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
      assert.equal(typeof r.body.code, 'string');
    }
    const reg = (await api('GET', `/api/v1/events/${eventId}/registrations/${id}`)).body.data;
    assert.equal(reg.status, 'pending', 'nothing changed');

    server.clock.advance(3 * DAY + 60_000);
    await drainJobs(
      server,
      async () =>
        (await api('GET', `/api/v1/events/${eventId}/registrations/${id}`)).body.data.status === 'cancelled',
    );
    const late = await markPaid(eventId, id, { method: 'bank_transfer', amountPaid: 500 });
    assert.equal(late.status, 409, late.text);
    assert.equal(late.body.code, 'registration_not_pending');
    assert.deepEqual(await ledgerOf(id), [], 'no money recorded');
  });

  it('refuses payouts while the fees of offline sales take the balance below zero, with the reason', async () => {
    // Sessions last 12 hours and the clock has moved on by days: sign in again.
    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email: org.email, password: 'correct horse battery' },
    });
    assert.equal(login.status, 200, login.text);
    org.token = login.body.idToken;
    const { eventId, id } = await offlineBooking(2000);
    const marked = await markPaid(eventId, id, { method: 'bank_transfer', amountPaid: 2000 });
    assert.equal(marked.status, 200, marked.text);
    const { available } = await balance();
    assert.ok(available < 0, `available ${available}`);
    const payout = await tokenApi(server.url, org.token)('POST', '/dashboard/api/payouts', {
      amount: 100,
      upiId: 'club@okhdfc',
    });
    assert.equal(payout.status, 409, payout.text);
    assert.equal(payout.body.code, 'insufficient_balance');
    assert.equal(payout.body.reason, 'negative_balance');
    assert.match(payout.body.error, /below zero/);
    assert.equal(rzp.payouts.size, 0, 'nothing sent');
  });

  it('records an offline refund: refunded, the credit note issued, the fee reversed, no gateway call; twice refunds once', async () => {
    const { eventId, id } = await offlineBooking(800);
    assert.equal((await markPaid(eventId, id, { method: 'upi_to_organiser', amountPaid: 800 })).status, 200);
    const atGateway = await api('POST', `/api/v1/events/${eventId}/registrations/${id}/refund`, {});
    assert.equal(atGateway.status, 409, atGateway.text);
    assert.equal(atGateway.body.code, 'nothing_to_refund');
    assert.match(atGateway.body.error, /offline: true/);
    const partial = await api('POST', `/api/v1/events/${eventId}/registrations/${id}/refund`, {
      offline: true,
      amount: 100,
    });
    assert.equal(partial.status, 400, partial.text);
    const requestsBefore = rzp.requests.length;
    const path = `/api/v1/events/${eventId}/registrations/${id}/refund`;
    const first = await api('POST', path, { offline: true, reason: 'Paid back in cash' });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.status, 'refunded');
    assert.equal(first.body.data.refunded, 800);
    const second = await api('POST', path, { offline: true, reason: 'Paid back in cash' });
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body.data, first.body.data, 'the same answer');
    assert.equal(rzp.requests.length, requestsBefore, 'the gateway was asked nothing');
    assert.equal(rzp.refunds.length, 0);
    assert.deepEqual(await ledgerOf(id), [
      ['offline_refund', -80000],
      ['offline_sale', 80000],
      ['platform_fee', -3600],
      ['platform_fee_reversal', 3600],
    ]);
    const note = await api('GET', `/api/v1/events/${eventId}/registrations/${id}/credit-note`);
    assert.equal(note.status, 200, note.text);
    assert.equal(
      await rows(
        sql`select count(*)::int as n from gst_documents where registration_id = ${id} and role = 'refund'`,
      ),
      1,
      'one credit note',
    );
    const audit = await api('GET', `/api/v1/audit-log?targetId=${id}&action=registration.refund_offline`);
    assert.equal(audit.body.data.length, 1, audit.text);
    const ev = (await api('GET', `/api/v1/events/${eventId}`)).body.data;
    assert.equal(ev.taken, 0, 'its seat freed');
  });
});
