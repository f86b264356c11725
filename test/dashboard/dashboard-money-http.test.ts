// The dashboard's money forms over plain HTTP: the withdrawal and the sandbox settle
// forms refuse a post from another site or without the session's token and change
// nothing; refusals of the payouts service come back to the page as its message
// (the minimum, an unverified email, payouts not configured); the settle buttons
// are for test mode only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { markEmailVerified } from '../../src/modules/accounts/accounts.repo.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, createKey, uniqueEmail } from '../helpers/http.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';
import { payoutsOf, sandboxClocksOf } from '../helpers/rows.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { formatDate } from '../../src/lib/event-time.js';

const PASSWORD = 'correct horse battery';

describe('dashboard money forms over HTTP', () => {
  let server: TestServer;
  before(async () => {
    // Sales are available at once, so a withdrawal could succeed if a forged post got through.
    server = await startServer({ env: { PAYOUT_CLEARING_DAYS: '0' } });
  });
  after(async () => {
    await server.close();
  });

  /** A dashboard session with ₹500 of test-mode sales available. */
  async function organiserWithSale(): Promise<{ c: DashboardClient; userId: string; key: string }> {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('money-http');
    await c.signup(email);
    const login = await call(server.url, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
    // Live mode in the dashboard needs a verified address, as with the API.
    await markEmailVerified(server.deps.db, login.body.userId, email, server.clock.now());
    const key = (await createKey(server.url, login.body.idToken, { mode: 'test' })).key;
    const api = keyApi(server.url, key);
    const eventId = await createEvent(api, {
      title: 'Paid evening',
      description: 'A paid test event.',
      startDate: '2030-05-01',
      price: 500,
    });
    await paidBooking(api, eventId, { name: 'Buyer', email: 'buyer@example.in' });
    return { c, userId: login.body.userId, key };
  }

  it('the withdrawal form refuses another site’s post and a missing or foreign token, and holds nothing', async () => {
    const { c, userId } = await organiserWithSale();
    const page = await c.get('/dashboard/money');
    assert.equal(page.status, 200);
    assert.match(page.text, /id="bal-available">₹500</);
    const token = DashboardClient.csrf(page.text);
    const fields = { _csrf: token, amount: '200', upiId: 'asha@okaxis' };

    const crossOrigin = await c.post('/dashboard/money/payouts', fields, {
      origin: 'http://attacker.example',
    });
    assert.equal(crossOrigin.status, 403);
    assert.match(crossOrigin.text, /another site/);
    assert.equal(
      (await c.post('/dashboard/money/payouts', fields, { 'sec-fetch-site': 'cross-site' })).status,
      403,
    );
    assert.equal((await c.post('/dashboard/money/payouts', { ...fields, _csrf: '' })).status, 403);
    const other = await organiserWithSale();
    const otherToken = DashboardClient.csrf((await other.c.get('/dashboard/money')).text);
    assert.equal(
      (await c.post('/dashboard/money/payouts', { ...fields, _csrf: otherToken })).status,
      403,
      'another session’s token',
    );
    assert.deepEqual(await payoutsOf(server, userId), []);
    assert.match((await c.get('/dashboard/money')).text, /id="bal-available">₹500</);

    const ok = await c.post('/dashboard/money/payouts', fields, { referer: `${server.url}/dashboard/money` });
    assert.equal(ok.status, 303);
    assert.equal(ok.location, '/dashboard/money');
    const after = await c.get('/dashboard/money');
    assert.match(after.text, /Test withdrawal of ₹200 to asha@okaxis sent to the sandbox payout gateway\./);
    assert.match(after.text, /id="bal-available">₹300</);
    assert.equal((await payoutsOf(server, userId)).length, 1);
  });

  it('the settle forms refuse a forged post, and work only in test mode', async () => {
    const { c, userId } = await organiserWithSale();
    const token = DashboardClient.csrf((await c.get('/dashboard/money')).text);
    await c.post('/dashboard/money/payouts', { _csrf: token, amount: '150', upiId: 'asha@okaxis' });
    const [payout] = await payoutsOf(server, userId);
    assert.equal(payout!.status, 'processing');
    const path = `/dashboard/money/payouts/${payout!.id}/process`;

    assert.equal((await c.post(path, { _csrf: token }, { origin: 'http://attacker.example' })).status, 403);
    assert.equal((await c.post(path, {})).status, 403);
    assert.equal(
      (await payoutsOf(server, userId))[0]!.status,
      'processing',
      'a refused post changes nothing',
    );

    // Live mode: the sandbox buttons do not apply (the test payout is not touched either).
    await c.post('/dashboard/mode', { _csrf: token, mode: 'live' });
    const live = await c.post(path, { _csrf: token }, { referer: `${server.url}/dashboard/money` });
    assert.equal(live.status, 303);
    assert.match((await c.get('/dashboard/money')).text, /Only test-mode payouts are settled by hand\./);
    assert.equal((await payoutsOf(server, userId))[0]!.status, 'processing');
    await c.post('/dashboard/mode', { _csrf: token, mode: 'test' });

    const ok = await c.post(path, { _csrf: token });
    assert.equal(ok.status, 303);
    assert.match((await c.get('/dashboard/money')).text, /is now processed \(UTR SANDBOX/);
    assert.equal((await payoutsOf(server, userId))[0]!.status, 'processed');
    const again = await c.post(
      `/dashboard/money/payouts/${payout!.id}/fail`,
      { _csrf: token },
      { referer: `${server.url}/dashboard/money` },
    );
    assert.equal(again.status, 303);
    assert.match((await c.get('/dashboard/money')).text, /A processed payout cannot become failed\./);
    assert.equal(
      (await c.post(`/dashboard/money/payouts/${payout!.id}/explode`, { _csrf: token })).status,
      303,
      'an unknown action is refused like any form',
    );
    assert.equal((await payoutsOf(server, userId))[0]!.status, 'processed');
  });

  it('shows the payouts service’s refusals as the page’s message', async () => {
    const { c, userId } = await organiserWithSale();
    const token = DashboardClient.csrf((await c.get('/dashboard/money')).text);
    const referer = { referer: `${server.url}/dashboard/money` };
    const refusal = async (fields: Record<string, string>) => {
      const r = await c.post('/dashboard/money/payouts', { _csrf: token, ...fields }, referer);
      assert.equal(r.status, 303);
      assert.equal(r.location, '/dashboard/money');
      const shown = /<div class="flash error" role="alert">\s*<p>([^<]*)<\/p>/.exec(
        (await c.get('/dashboard/money')).text,
      );
      assert.ok(shown, 'an error message on the page');
      return shown[1]!;
    };
    assert.equal(
      await refusal({ amount: '99.99', upiId: 'asha@okaxis' }),
      'Amount must be at least 100 rupees.',
    );
    assert.match(
      await refusal({ amount: '600', upiId: 'asha@okaxis' }),
      /^Amount exceeds the available balance of 500 rupees\.$/,
    );
    assert.match(
      await refusal({ amount: '150', upiId: 'not a upi id' }),
      /^The UPI id must be a UPI id like name@bank/,
    );
    assert.equal(await refusal({ amount: 'lots', upiId: 'asha@okaxis' }), 'Amount must be a number.');

    // (An unverified account cannot switch to live mode at all: test/security/dashboard-rules.test.ts.)
    await c.post('/dashboard/mode', { _csrf: token, mode: 'live' });
    const livePage = await c.get('/dashboard/money');
    assert.doesNotMatch(livePage.text, /Settle \(test\)/);
    assert.match(
      await refusal({ amount: '150', upiId: 'asha@okaxis' }),
      /^Live payouts are not configured on this service/,
    );
    assert.deepEqual(await payoutsOf(server, userId), []);
  });

  it('settles test sales now only in test mode, and says so when nothing is pending', async () => {
    const { c } = await organiserWithSale();
    const token = DashboardClient.csrf((await c.get('/dashboard/money')).text);
    assert.doesNotMatch(
      (await c.get('/dashboard/money')).text,
      /Settle now/,
      'no button while nothing is pending (clearing days 0)',
    );
    const nothing = await c.post(
      '/dashboard/money/settle-now',
      { _csrf: token },
      { referer: `${server.url}/dashboard/money` },
    );
    assert.equal(nothing.status, 303);
    assert.match((await c.get('/dashboard/money')).text, /No test-mode sale is pending/);
    assert.equal(
      (await c.post('/dashboard/money/settle-now', {})).status,
      403,
      'a post without the token is refused',
    );

    await c.post('/dashboard/mode', { _csrf: token, mode: 'live' });
    const live = await c.post(
      '/dashboard/money/settle-now',
      { _csrf: token },
      { referer: `${server.url}/dashboard/money` },
    );
    assert.equal(live.status, 303);
    assert.match((await c.get('/dashboard/money')).text, /Only test-mode sales can be settled by hand/);
    await c.post('/dashboard/mode', { _csrf: token, mode: 'test' });
  });

  it('pages the ledger, and refuses a cursor it did not give', async () => {
    const { c } = await organiserWithSale();
    const ledger = await c.get('/dashboard/money/ledger');
    assert.equal(ledger.status, 200);
    assert.match(ledger.text, /Ticket sale/);
    // A row links to its booking rather than showing the raw id.
    assert.match(
      ledger.text,
      /<a href="\/dashboard\/registrations\/reg_[A-Za-z0-9_-]+" title="reg_[A-Za-z0-9_-]+">Booking<\/a>/,
    );
    assert.doesNotMatch(ledger.text, /Registration <span class="mono">reg_/);
    const bad = await c.get('/dashboard/money/ledger?after=abc');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /cursor/);
  });
});

describe('settle now (test) without moving time', () => {
  let server: TestServer;
  before(async () => {
    // Sales clear after three working days, so a fresh test sale is pending.
    server = await startServer({ env: { PAYOUT_CLEARING_DAYS: '3' } });
  });
  after(async () => {
    await server.close();
  });

  const sale = async (key: string, eventId: string) =>
    (await paidBooking(keyApi(server.url, key), eventId)).registrationId;

  it('makes pending test sales available while the account’s clock, and the dates of later test mails, stay as they are', async () => {
    const c = new DashboardClient(server.url);
    const email = uniqueEmail('settle');
    await c.signup(email);
    const login = await call(server.url, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
    const userId = login.body.userId as string;
    const key = (await createKey(server.url, login.body.idToken, { mode: 'test' })).key;
    const eventId = await createEvent(keyApi(server.url, key), {
      title: 'Paid evening',
      description: 'A paid test event.',
      startDate: '2030-05-01',
      price: 500,
    });
    await sale(key, eventId);
    const balance = async () =>
      (await call(server.url, 'GET', '/dashboard/api/balance?mode=test', { token: login.body.idToken })).body;
    assert.deepEqual([(await balance()).available, (await balance()).pending], [0, 500]);

    const page = await c.get('/dashboard/money');
    assert.match(page.text, /Settle now \(test\)/);
    const r = await c.post(
      '/dashboard/money/settle-now',
      { _csrf: DashboardClient.csrf(page.text) },
      { referer: `${server.url}/dashboard/money` },
    );
    assert.equal(r.status, 303);
    const after = await c.get('/dashboard/money');
    assert.match(after.text, /Test sales settled: ₹500 is available now\./);
    assert.doesNotMatch(after.text, /clock/);
    assert.deepEqual([(await balance()).available, (await balance()).pending], [500, 0]);

    // The account's clock did not move: no offset, and the next test booking's mail is dated today.
    const clock = await sandboxClocksOf(server, userId);
    assert.deepEqual(clock, []);
    server.clock.set(new Date(server.clock.now().getTime() + 60_000));
    const later = await sale(key, eventId);
    assert.deepEqual(
      [(await balance()).available, (await balance()).pending],
      [500, 500],
      'a later sale is pending again',
    );
    await drainJobs(server, async () =>
      (await call(server.url, 'GET', '/api/v1/sandbox/emails', { key })).body.data.some((m: any) =>
        m.text.includes(later),
      ),
    );
    const mail = (await call(server.url, 'GET', '/api/v1/sandbox/emails', { key })).body.data.find((m: any) =>
      m.text.includes(later),
    );
    assert.match(
      mail.text,
      new RegExp(`received on ${formatDate(server.clock.now(), 'Asia/Kolkata')} for booking ${later}`),
    );
  });
});
