// 200 paid bookings of one GST-registered organiser, paid through the Razorpay emulator and
// confirmed at once through two service processes on one database — each booking by its
// step 2 on one process and the gateway's paid notification on the other, racing — get
// exactly one tax invoice each, numbered 1 to 200 in the organiser's series: no gap, no
// repeat. On the embedded pass the first process runs the embedded server and the second
// reaches it through its socket; on the PostgreSQL pass both use TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { call, createKey, signup, uniqueEmail, verifyFromMailFiles } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import {
  gatewayEnv,
  signWebhook,
  startRazorpayEmulator,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const BOOKINGS = 200;
const creds = { keyId: 'rzp_live_GstRaceEmulator1', keySecret: 'gstraceemulatorsecret00' };
const WEBHOOK_SECRET = 'gst-race-webhook-secret';

describe('invoice numbers under concurrency across two processes', () => {
  const procs: ServiceProcess[] = [];
  const dirs: string[] = [];
  let rzp: RazorpayEmulator;
  const staffEmail = uniqueEmail('gststaff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    const shared = {
      ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
      SESSION_SECRET: 'gst-concurrency-session-secret-0123456789',
      SECRETS_KEY: 'gst-concurrency-secrets-key-0123456789abcde',
      ...RAISED_LIMITS,
      EMAIL_DNS_CHECK: 'false',
      STAFF_EMAILS: staffEmail,
      RECONCILE_EVERY_SECONDS: '0',
      RAZORPAY_TIMEOUT_MS: '30000',
    };
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-gst-'));
      dirs.push(dir);
      const databaseUrl = onPostgres
        ? process.env.TEST_DATABASE_URL
        : i === 0
          ? undefined
          : embeddedDatabaseUrl(dirs[0]!);
      if (onPostgres && !databaseUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
      procs.push(
        await startProcess({
          ...shared,
          DATA_DIR: dir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        }),
      );
    }
  });
  after(async () => {
    // A process that logged an error says what it was, for a failure's reader.
    for (const p of procs) if (/"level":[56]\d/.test(p.stderr())) console.log(p.stderr().slice(-4000));
    for (const p of [...procs].reverse()) await p.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await rzp?.close();
  });

  it(`numbers ${BOOKINGS} invoices 1 to ${BOOKINGS}, one per booking, whichever process and path confirmed it`, async () => {
    const url0 = procs[0]!.url;
    // Live keys and staff rights need verified addresses: each opens the link of its mail.
    const staff = await signup(url0, { email: staffEmail });
    const org = await signup(url0);
    for (const a of [staff, org]) await verifyFromMailFiles(url0, dirs, a.email);
    const { key } = await createKey(url0, org.token, { mode: 'live' });
    await call(url0, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const put = await call(url0, 'PUT', '/api/v1/gst/settings', {
      key,
      body: { gstin: '29AAGCR4375J1ZU', legalName: 'Race Events LLP', address: 'Bengaluru' },
    });
    assert.equal(put.status, 200, put.text);
    const eventId = await createEvent(
      keyApi(url0, key),
      { title: 'Rush', startDate: '2027-01-10', price: 250, venueState: '29' },
      { publish: true },
    );
    // The ticket mails render QR codes: not what this test measures.
    await call(url0, 'POST', `/admin/api/events/${eventId}/ticket-emails`, {
      token: staff.token,
      body: { enabled: false },
    });

    const orders = await Promise.all(
      Array.from({ length: BOOKINGS }, async (_, i) => {
        const r = await call(procs[i % 2]!.url, 'POST', `/api/v1/events/${eventId}/register`, {
          key,
          body: { name: `P${i}`, email: uniqueEmail(`g${i}`) },
        });
        assert.equal(r.status, 201, r.text);
        return r.body as { registrationId: string; orderId: string };
      }),
    );
    const payments = orders.map((o) => String(rzp.pay(o.orderId).id));
    const notifications = new Map(
      rzp
        .takeNotifications()
        .filter((n) => n.event === 'order.paid')
        .map((n) => [n.paymentId, n.body]),
    );
    assert.equal(notifications.size, BOOKINGS);

    // Every booking confirmed twice at once: step 2 on one process, the notification on the other.
    const answers = await Promise.all(
      orders.flatMap((o, i) => [
        call(procs[i % 2]!.url, 'POST', `/api/v1/events/${eventId}/register`, {
          key,
          body: { registrationId: o.registrationId, orderId: o.orderId, paymentId: payments[i] },
        }),
        call(procs[(i + 1) % 2]!.url, 'POST', '/webhooks/razorpay', {
          raw: notifications.get(payments[i]!)!,
          headers: {
            'content-type': 'application/json',
            'x-razorpay-signature': signWebhook(notifications.get(payments[i]!)!, WEBHOOK_SECRET),
          },
        }),
      ]),
    );
    assert.deepEqual(
      [...new Set(answers.map((a) => a.status))],
      [200],
      'every step 2 and notification answered 200',
    );

    let fy = '';
    let month = '';
    const invoices = await Promise.all(
      orders.map(async (o, i) => {
        const r = await call(
          procs[i % 2]!.url,
          'GET',
          `/api/v1/events/${eventId}/registrations/${o.registrationId}/invoice`,
          { key },
        );
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.data.registrationId, o.registrationId);
        return r.body.data as { number: string; date: string; financialYear: string };
      }),
    ).then((docs) => {
      // Read from the documents, not this machine's clock: a month or a year may turn meanwhile.
      fy = docs[0]!.financialYear;
      month = docs[0]!.date.slice(0, 7);
      return docs.map((d) => d.number);
    });
    const prefix = `TIXI${fy.slice(2, 4)}${fy.slice(5, 7)}-`;
    assert.ok(
      invoices.every((n) => n.startsWith(prefix) && n.length <= 16),
      invoices.find((n) => !n.startsWith(prefix)),
    );
    const seqs = invoices.map((n) => Number(n.slice(prefix.length))).sort((a, b) => a - b);
    assert.deepEqual(
      seqs,
      Array.from({ length: BOOKINGS }, (_, i) => i + 1),
      'numbers 1…200: no gap, no repeat',
    );

    // The month's document range says the same.
    const summary = await call(procs[1]!.url, 'GET', `/api/v1/gst/gstr1?month=${month}`, { key });
    assert.equal(summary.status, 200, summary.text);
    const docs = summary.body.data.suppliers[0].documents;
    assert.deepEqual(docs, [
      {
        series: 'TIXI',
        kind: 'tax_invoice',
        from: `${prefix}000001`,
        to: `${prefix}000200`,
        issued: BOOKINGS,
        cancelled: 0,
      },
    ]);
  });
});
