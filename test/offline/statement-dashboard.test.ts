// Marking offline bookings paid from the dashboard (docs/decisions/24-payment-outside-the-gateway.md),
// over HTTP as members of one organisation: a finance member uploads a statement (the columns step
// offers the recognised mapping; the upload marks the exact match, audited with their name) and
// marks another booking paid with the booking page's Mark paid form; a viewer and a door member are
// refused both (403 role_forbidden) and are not shown the form or the tab.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { joinOrganisation, userByEmail } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('marking offline bookings paid from the dashboard', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let eventId: string;
  const refs: string[] = [];
  const ids: string[] = [];

  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
    const api = keyApi(server.url, org.key);
    const ev = await createEventData(
      api,
      {
        price: 650,
        capacity: 5,
        offlinePayment: { enabled: true, methods: ['bank_transfer', 'cash_at_venue'] },
      },
      { publish: true },
    );
    eventId = ev.id;
    for (let i = 0; i < 2; i++) {
      const r = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: `Buyer ${i}`,
        email: uniqueEmail(`dashpay${i}`),
        paymentMethod: 'bank_transfer',
      });
      assert.equal(r.status, 201, r.text);
      refs.push(r.body.awaitingPayment.reference);
      ids.push(r.body.registrationId);
    }
  });
  after(async () => server?.close());

  let financeId = '';
  async function member(role: 'finance' | 'viewer' | 'door', name: string): Promise<DashboardClient> {
    const email = uniqueEmail(role);
    const dash = new DashboardClient(server.url);
    await dash.signup(email, undefined, name);
    const person = (await userByEmail(server, email))!;
    await joinOrganisation(server, org.userId, person.id, role, role === 'door' ? [eventId] : null);
    if (role === 'finance') financeId = person.id;
    return dash;
  }
  const bookingPage = (id: string) => `/dashboard/events/${eventId}/registrations/${id}`;

  it('a finance member uploads a statement through the columns step and marks a booking paid by hand', async () => {
    const dash = await member('finance', 'Farah Finance');
    const money = await dash.get('/dashboard/money');
    assert.match(money.text, /href="\/dashboard\/money\/statements"/, 'the Bank statement tab');
    const upload = await dash.get('/dashboard/money/statements');
    assert.equal(upload.status, 200, upload.text);
    const csv = `Account 50100012345678\nTxn Date,Narration,Withdrawal Amt.,Deposit Amt.,Closing Balance\n02/12/2026,NEFT ${refs[0]},,650.00,"1,650.00"\n`;
    const step = await dash.post('/dashboard/money/statements/columns', {
      _csrf: DashboardClient.csrf(upload.text),
      csv,
    });
    assert.equal(step.status, 200, step.text);
    assert.match(step.text, /<option selected>Txn Date<\/option>/);
    assert.match(step.text, /<option selected>Deposit Amt\.<\/option>/);
    const done = await dash.post('/dashboard/money/statements', {
      _csrf: DashboardClient.csrf(step.text),
      csv,
      date: 'Txn Date',
      narration: 'Narration',
      amount: '',
      credit: 'Deposit Amt.',
      debit: 'Withdrawal Amt.',
    });
    assert.equal(done.status, 200, done.text);
    assert.match(done.text, /<span class="stat" id="st-marked">1<\/span>/);
    const audit = await sql<{
      actor_kind: string;
      actor_id: string;
    }>`select actor_kind, actor_id from audit_log
      where target_id = ${ids[0]!} and action = 'registration.mark_paid'`.execute(server.deps.db);
    assert.equal(audit.rows.length, 1);
    assert.deepEqual(
      audit.rows[0],
      { actor_kind: 'user', actor_id: financeId },
      'the person, not the organisation',
    );

    // A mapping naming a column the statement lacks: the step again, saying which.
    const wrong = await dash.post('/dashboard/money/statements', {
      _csrf: DashboardClient.csrf(step.text),
      csv,
      date: 'Value Date',
      narration: 'Narration',
      credit: 'Deposit Amt.',
    });
    assert.equal(wrong.status, 200, wrong.text);
    assert.match(wrong.text, /no column &quot;Value Date&quot;|no column "Value Date"/);

    const page = await dash.get(bookingPage(ids[1]!));
    assert.match(page.text, /Mark paid/);
    const marked = await dash.post(`${bookingPage(ids[1]!)}/mark-paid`, {
      _csrf: DashboardClient.csrf(page.text),
      method: 'cash_at_venue',
      amountPaid: '650',
      reference: 'Receipt 4',
      paidAt: '',
    });
    assert.equal(marked.status, 303, marked.text);
    const after = await dash.get(bookingPage(ids[1]!));
    assert.match(after.text, /Marked paid/);
    assert.match(after.text, /badge confirmed/);
  });

  for (const role of ['viewer', 'door'] as const)
    it(`a ${role} is refused the upload and the Mark paid form (403 role_forbidden)`, async () => {
      const dash = await member(role, `A ${role}`);
      const upload = await dash.get('/dashboard/money/statements');
      assert.equal(upload.status, 403, upload.text);
      assert.match(upload.text, /data-code="role_forbidden"/);
      if (role === 'viewer') {
        const money = await dash.get('/dashboard/money');
        assert.doesNotMatch(money.text, /\/dashboard\/money\/statements/, 'no Bank statement tab');
        const page = await dash.get(bookingPage(ids[1]!));
        assert.equal(page.status, 200);
        assert.doesNotMatch(page.text, /mark-paid/, 'no Mark paid form');
      }
      const csrf = DashboardClient.csrf((await dash.get('/dashboard/account')).text);
      const post = await dash.post('/dashboard/money/statements', {
        _csrf: csrf,
        csv: 'a',
        date: 'a',
        narration: 'a',
      });
      assert.equal(post.status, 403, post.text);
      const mark = await dash.post(`${bookingPage(ids[1]!)}/mark-paid`, {
        _csrf: csrf,
        method: 'bank_transfer',
        amountPaid: '650',
      });
      assert.equal(mark.status, 403, mark.text);
    });
});
