// Payment outside the gateway, step 1 and its deadlines (docs/decisions/24-payment-outside-the-gateway.md):
// `paymentMethod` makes a paid booking pending with `awaitingPayment { method, reference, payBy }`
// in every answer; it takes its seats at once; the buyer is mailed the instructions, amount and
// reference (and, for UPI to the organiser, a upi://pay link and its QR); a reminder goes a day
// before payBy, once; at payBy it is cancelled through the lifecycle, its seats freed and
// offered to the waitlist, once however often the jobs and the sweep run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweepOfflineDeadlines } from '../../src/modules/registrations/offline-deadlines.js';
import { REFERENCE_PATTERN } from '../../src/modules/registrations/offline-reference.js';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
type Mail = { to: string[]; text: string; subject: string; attachments: string[] };

const OFFLINE = {
  enabled: true,
  methods: ['bank_transfer', 'upi_to_organiser'],
  instructions: 'HDFC Bank, account 50100012345678, IFSC HDFC0000123',
  payWithinDays: 3,
  upiId: 'chessclub@okhdfc',
  upiName: 'Chess Club',
};

describe('a booking awaiting payment outside the gateway', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  before(async () => {
    // Its sweeps walk every due booking: a database of its own on PostgreSQL.
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => server.close());
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const mails = async (): Promise<Mail[]> =>
    (await api('GET', '/api/v1/sandbox/emails?limit=1000')).body.data as Mail[];
  const mailsTo = async (email: string, subject: RegExp) =>
    (await mails()).filter((m) => m.to.some((t) => t.includes(email)) && subject.test(m.subject));
  const book = (eventId: string, email: string, paymentMethod: string, key?: string) =>
    api('POST', `/api/v1/events/${eventId}/register`, { name: 'Priya', email, paymentMethod }, key);

  it('is pending with awaitingPayment everywhere, holds its seat, and mails how to pay', async () => {
    const ev = await createEventData(
      api,
      { price: 500, capacity: 5, offlinePayment: OFFLINE },
      { publish: true },
    );
    const email = uniqueEmail('upi');
    const now = server.clock.now().getTime();
    const r = await book(ev.id, email, 'upi_to_organiser');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'pending');
    assert.equal(r.body.orderId, undefined, 'no gateway order');
    assert.equal(r.body.amount, 50000);
    const ap = r.body.awaitingPayment;
    assert.equal(ap.method, 'upi_to_organiser');
    assert.match(ap.reference, REFERENCE_PATTERN);
    assert.equal(new Date(ap.payBy).getTime(), now + 3 * DAY);

    const got = (await api('GET', `/api/v1/events/${ev.id}/registrations/${r.body.registrationId}`)).body
      .data;
    assert.equal(got.status, 'pending');
    assert.equal(got.pendingReason, 'offline_payment');
    assert.deepEqual(got.awaitingPayment, ap);
    const listed = (await api('GET', `/api/v1/events/${ev.id}/registrations`)).body.data;
    assert.deepEqual(listed.find((x: any) => x.id === r.body.registrationId).awaitingPayment, ap);
    assert.equal((await api('GET', `/api/v1/events/${ev.id}`)).body.data.taken, 1, 'the seat is taken now');

    let mail: Mail | undefined;
    await drainJobs(server, async () => {
      mail = (await mailsTo(email, /^Pay /))[0];
      return mail !== undefined;
    });
    assert.ok(mail!.text.includes(ap.reference));
    assert.ok(mail!.text.includes('₹500'));
    assert.ok(mail!.text.includes(OFFLINE.instructions));
    assert.ok(
      mail!.text.includes(
        `upi://pay?pa=chessclub%40okhdfc&pn=Chess%20Club&am=500.00&cu=INR&tn=${ap.reference}`,
      ),
      mail!.text,
    );
    assert.deepEqual(mail!.attachments, [`pay-${ap.reference}.png`], 'the QR of the UPI link');
  });

  it('takes paymentMethod from a checkout key; refuses a method the event does not take; a free booking ignores it', async () => {
    const ev = await createEventData(api, { price: 500, offlinePayment: OFFLINE }, { publish: true });
    const viaCheckout = await book(ev.id, uniqueEmail('pk'), 'bank_transfer', pk);
    assert.equal(viaCheckout.status, 201, viaCheckout.text);
    assert.equal(viaCheckout.body.awaitingPayment.method, 'bank_transfer');
    const cash = await book(ev.id, uniqueEmail('cash'), 'cash_at_venue');
    assert.equal(cash.status, 400, cash.text);
    assert.equal(cash.body.code, 'payment_method_not_offered');
    const cheque = await book(ev.id, uniqueEmail('cheque'), 'cheque');
    assert.equal(cheque.status, 400, cheque.text);
    assert.equal(typeof cheque.body.code, 'string');
    const off = await createEventData(api, { price: 500 }, { publish: true });
    const notEnabled = await book(off.id, uniqueEmail('off'), 'bank_transfer');
    assert.equal(notEnabled.status, 400, notEnabled.text);
    assert.equal(notEnabled.body.code, 'payment_method_not_offered');
    const gateway = await book(off.id, uniqueEmail('gw'), 'gateway');
    assert.equal(gateway.status, 201, gateway.text);
    assert.ok(gateway.body.orderId, 'gateway is the default way');
    const free = await createEventData(
      api,
      { price: 0, offlinePayment: { ...OFFLINE, methods: ['cash_at_venue'] } },
      { publish: true },
    );
    const freeBooking = await book(free.id, uniqueEmail('free'), 'cash_at_venue');
    assert.equal(freeBooking.status, 201, freeBooking.text);
    assert.equal(freeBooking.body.status, 'confirmed');
  });

  it('counts toward the unpaid bookings an email may hold, with gateway bookings: the fourth of one email is 429 too_many_pending', async () => {
    const ev = await createEventData(api, { price: 100, offlinePayment: OFFLINE }, { publish: true });
    const email = uniqueEmail('hoarder');
    for (const method of ['bank_transfer', 'upi_to_organiser', 'gateway']) {
      const r = await book(ev.id, email, method);
      assert.equal(r.status, 201, r.text);
    }
    for (const method of ['bank_transfer', 'gateway']) {
      const refused = await book(ev.id, email, method);
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.code, 'too_many_pending');
    }
    // Another email still books: the cap is per email.
    assert.equal((await book(ev.id, uniqueEmail('other'), 'bank_transfer')).status, 201);
  });

  it('gives out references unique in the account', async () => {
    const ev = await createEventData(api, { price: 100, offlinePayment: OFFLINE }, { publish: true });
    const refs = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const r = await book(ev.id, uniqueEmail(`ref${i}`), 'bank_transfer');
      assert.equal(r.status, 201, r.text);
      refs.add(r.body.awaitingPayment.reference);
    }
    assert.equal(refs.size, 15);
  });

  it('reminds once a day before payBy, then at payBy cancels it, frees its seat and offers it to the waitlist, once', async () => {
    const ev = await createEventData(
      api,
      { price: 500, capacity: 1, offlinePayment: OFFLINE, waitlist: { enabled: true } },
      { publish: true },
    );
    const email = uniqueEmail('late');
    const r = await book(ev.id, email, 'bank_transfer');
    assert.equal(r.status, 201, r.text);
    const id = r.body.registrationId as string;
    const full = await book(ev.id, uniqueEmail('full'), 'bank_transfer');
    assert.equal(full.status, 409, 'the pending booking holds the only seat');
    assert.equal(full.body.code, 'sold_out');
    const waiter = uniqueEmail('waiter');
    assert.equal(
      (await api('POST', `/api/v1/events/${ev.id}/waitlist`, { name: 'W', email: waiter })).status,
      201,
    );

    server.clock.advance(2 * DAY + 60_000);
    await drainJobs(server, async () => (await mailsTo(email, /^Reminder/)).length === 1);
    await sweepOfflineDeadlines(server.deps);
    await drainJobs(server, async () => true);
    assert.equal(
      (await mailsTo(email, /^Reminder/)).length,
      1,
      'one reminder, however often it is looked for',
    );
    assert.equal(
      (await api('GET', `/api/v1/events/${ev.id}/registrations/${id}`)).body.data.status,
      'pending',
    );

    server.clock.advance(DAY);
    await drainJobs(server, async () => {
      const reg = (await api('GET', `/api/v1/events/${ev.id}/registrations/${id}`)).body.data;
      return reg.status === 'cancelled';
    });
    await sweepOfflineDeadlines(server.deps);
    const after = (await api('GET', `/api/v1/events/${ev.id}/registrations/${id}`)).body.data;
    assert.equal(after.status, 'cancelled');
    assert.equal(after.awaitingPayment, null);
    assert.equal(
      (await api('GET', `/api/v1/events/${ev.id}`)).body.data.taken,
      1,
      'the seat is held for the waitlist offer',
    );
    const list = (await api('GET', `/api/v1/events/${ev.id}/waitlist`)).body.data;
    assert.equal(list.find((e: any) => e.email === waiter).status, 'offered');
    const lapses = await api('GET', `/api/v1/audit-log?targetId=${id}&action=registration.lapse_unpaid`);
    assert.equal(lapses.body.data.length, 1, lapses.text);
    assert.equal(lapses.body.data[0].actor.kind, 'system');
    await drainJobs(server, async () => (await mailsTo(email, /cancelled/)).length === 1);
  });

  it('runs payBy by the sandbox clock in test mode', async () => {
    const ev = await createEventData(
      api,
      { price: 500, offlinePayment: { ...OFFLINE, payWithinDays: 1 } },
      { publish: true },
    );
    const r = await book(ev.id, uniqueEmail('sandbox'), 'bank_transfer');
    const id = r.body.registrationId as string;
    assert.equal((await api('POST', '/api/v1/sandbox/clock', { advanceDays: 2 })).status, 200);
    await sweepOfflineDeadlines(server.deps);
    assert.equal(
      (await api('GET', `/api/v1/events/${ev.id}/registrations/${id}`)).body.data.status,
      'cancelled',
    );
    // A booking made on the moved clock is due a day after that clock's now.
    const later = await book(ev.id, uniqueEmail('sandbox2'), 'bank_transfer');
    const sandboxNow = server.clock.now().getTime() + 2 * DAY;
    assert.equal(new Date(later.body.awaitingPayment.payBy).getTime(), sandboxNow + DAY);
    await api('DELETE', '/api/v1/sandbox/clock');
  });
});
