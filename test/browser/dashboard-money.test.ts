// The dashboard's money screens and the embed preview in a real browser: a test-mode
// paid sale made through the API shows as pending and then available once the sandbox
// clock passes the clearing days; a withdrawal below the minimum is refused on the
// page; a test withdrawal (typed from the keyboard) is listed, settled with the sandbox
// buttons and credited back when reversed; the ledger lists every entry with its source;
// live mode shows the payouts service's refusals; a published live event's overview
// frames its hosted page; phone width; screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { sql } from 'kysely';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { call, createKey, signup, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';

const PASSWORD = 'a long enough password';
const CHECKOUT_JS = 'https://checkout.razorpay.com/**';

describe('dashboard money screens in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;
  const organiser = uniqueEmail('money');
  const staffEmail = uniqueEmail('staff');
  let userId = '';
  let key = '';
  let liveEventId = '';
  let testEventId = '';
  const consoleErrors: string[] = [];

  /** The header's mode switch; waits for the page it lands on. */
  async function switchMode(mode: 'test' | 'live') {
    const name = mode === 'test' ? 'Test' : 'Live';
    if ((await page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')) === 'true')
      return;
    await page.getByRole('button', { name, exact: true }).click();
    await page.locator(`.mode button[value=${mode}][aria-pressed=true]`).waitFor();
  }
  const text = async (selector: string) => (await page.locator(selector).innerText()).trim();
  const main = () => page.locator('main').innerText();

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    browser = await openBrowser();
    page = await browser.newPage();
    // The live hosted page loads Razorpay's checkout.js; no network here, and none needed.
    await page.route(CHECKOUT_JS, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.location().url}: ${m.text()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs up; a test-mode paid sale made through the API shows as pending, then available after the clearing days', async () => {
    await page.goto(`${server.url}/dashboard/signup`);
    await page.getByLabel('Your name').fill('Asha Organiser');
    await page.getByLabel('Email').fill(organiser);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    // A new account lands on the verification screen; the money screens work before it.
    await page.waitForURL(/\/dashboard\/verify/);

    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email: organiser, password: PASSWORD },
    });
    assert.equal(login.status, 200, login.text);
    userId = login.body.userId;
    key = (await createKey(server.url, login.body.idToken, { mode: 'test', class: 'full' })).key;
    const api = keyApi(server.url, key);
    testEventId = await createEvent(api, {
      title: 'Sandbox Sitar Evening',
      description: 'Test sale.',
      startDate: '2030-03-14T18:30:00+05:30',
      price: 500,
      capacity: 50,
    });
    await paidBooking(api, testEventId, { name: 'Ravi Kumar', email: 'ravi@example.in' });

    await page.getByRole('link', { name: 'Money' }).click();
    await page.getByRole('heading', { name: 'Money', level: 1 }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Money' }).getAttribute('aria-current'), 'page');
    assert.equal(await text('#bal-pending'), '₹500');
    assert.equal(await text('#bal-available'), '₹0');
    assert.match(await main(), /test mode/i);
    await screenshot(page, 'money-pending-desktop');

    // The sandbox clock past the two working days of clearing.
    const clock = await call(server.url, 'POST', '/api/v1/sandbox/clock', { key, body: { advanceDays: 5 } });
    assert.equal(clock.status, 200, clock.text);
    await page.reload();
    assert.equal(await text('#bal-available'), '₹500');
    assert.equal(await text('#bal-pending'), '₹0');
  });

  it('refuses a withdrawal below the minimum with the payouts service’s message', async () => {
    await page.getByLabel(/^Amount in rupees/).fill('50');
    await page.getByLabel(/^UPI id/).fill('asha@okaxis');
    await page.getByRole('button', { name: 'Withdraw (test)' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Amount must be at least 100 rupees\./);
    assert.match(page.url(), /\/dashboard\/money$/);
    assert.equal(await text('#bal-available'), '₹500', 'nothing held');
    await screenshot(page, 'money-refused-desktop');

    await page.getByLabel(/^Amount in rupees/).fill('900');
    await page.getByLabel(/^UPI id/).fill('asha@okaxis');
    await page.getByRole('button', { name: 'Withdraw (test)' }).click();
    assert.match(await page.getByRole('alert').innerText(), /exceeds the available balance of 500 rupees/);
  });

  it('takes a test withdrawal from the keyboard, lists it, and settles it with the sandbox buttons', async () => {
    await page.getByLabel(/^Amount in rupees/).focus();
    await page.keyboard.type('200');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'wd-upi');
    await page.keyboard.type('Asha@OKAXIS');
    await page.keyboard.press('Enter');
    await page
      .getByText('Test withdrawal of ₹200 to asha@okaxis sent to the sandbox payout gateway.')
      .waitFor();
    assert.equal(await text('#bal-available'), '₹300');
    const row = page.locator('tbody tr').first();
    assert.match(await row.innerText(), /₹200[\s\S]*asha@okaxis[\s\S]*processing/);
    assert.match(await row.innerText(), /spout_/, 'the sandbox gateway’s payout id');
    assert.match(await main(), /Settle \(test\)/);
    await screenshot(page, 'money-withdrawal-desktop');

    await page.getByRole('button', { name: /^Process test payout/ }).click();
    await page.getByText(/Test payout po_\S+ is now processed \(UTR SANDBOX/).waitFor();
    const processed = await page.locator('tbody tr').first().innerText();
    assert.match(processed, /processed/);
    assert.match(processed, /SANDBOX[A-Z0-9]+/, 'the UTR is shown');
    assert.equal(
      await page.getByRole('button', { name: /^Fail test payout/ }).count(),
      0,
      'a processed payout cannot fail',
    );
    await screenshot(page, 'money-processed-desktop');

    await page.getByRole('button', { name: /^Reverse test payout/ }).click();
    await page.getByText(/is now reversed/).waitFor();
    assert.match(await page.locator('tbody tr').first().innerText(), /reversed[\s\S]*returned by the bank/);
    assert.equal(await text('#bal-available'), '₹500', 'a reversed payout is credited back');
    assert.equal(
      await page.getByRole('button', { name: /test payout/ }).count(),
      0,
      'nothing left to settle',
    );
  });

  it('lists the ledger entries newest first with their source', async () => {
    await page.getByRole('link', { name: 'Ledger' }).click();
    await page.getByRole('table').waitFor();
    const rows = await page.locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 3);
    // The source is a link (to the withdrawal, or to the booking), not a raw id.
    assert.match(rows[0]!, /Withdrawal returned[\s\S]*₹200[\s\S]*Withdrawal/);
    assert.match(rows[1]!, /Withdrawal[\s\S]*−₹200[\s\S]*Withdrawal/);
    assert.match(rows[2]!, /Ticket sale[\s\S]*₹500[\s\S]*Booking[\s\S]*available/);
    assert.match(
      (await page.locator('tbody tr').nth(0).getByRole('link', { name: 'Withdrawal' }).getAttribute('href'))!,
      /^\/dashboard\/money#payout-po_/,
    );
    assert.match(
      (await page.locator('tbody tr').nth(2).getByRole('link', { name: 'Booking' }).getAttribute('href'))!,
      /^\/dashboard\/registrations\/reg_/,
    );
    await screenshot(page, 'money-ledger-desktop');
  });

  it('live mode: its own balance, and the payouts service’s refusals on the page', async () => {
    // Live mode needs a verified address: an unverified account is refused the switch
    // (test/security/dashboard-rules.test.ts). Test setup: mark it verified in the database.
    await sql`update users set email_verified_at = now() where id = ${userId}`.execute(server.deps.db);
    await switchMode('live');
    await page.getByRole('heading', { name: 'Money: ledger', level: 1 }).waitFor();
    assert.match(await main(), /No entries yet/);
    await page.getByRole('link', { name: 'Balance and withdrawals' }).click();
    assert.equal(await text('#bal-available'), '₹0');
    assert.match(await main(), /Live payouts are not configured/);
    assert.equal(
      await page.getByRole('button', { name: /test payout/ }).count(),
      0,
      'no sandbox buttons in live mode',
    );
    await screenshot(page, 'money-live-desktop');

    await page.getByLabel(/^Amount in rupees/).fill('150');
    await page.getByLabel(/^UPI id/).fill('asha@okaxis');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    assert.match(
      await page.getByRole('alert').innerText(),
      /Live payouts are not configured on this service/,
    );
    assert.match(page.url(), /\/dashboard\/money$/);
  });

  it('previews a live draft through a preview link, a published live event’s hosted page itself, and a test event through a preview link', async () => {
    // Live mode is still on: a live draft, published once staff grant access.
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('link', { name: 'Create an event' }).click();
    await page.getByLabel('Title').fill('Kathak by the Lake');
    await page.getByLabel(/^Starts/).fill('2030-11-02T18:00');
    await page.getByLabel(/^Capacity/).fill('80');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByText('Draft created').waitFor();
    liveEventId = decodeURIComponent(/\/dashboard\/events\/([^/?#]+)/.exec(page.url())![1]!);
    // A live draft: shown through its preview link, without taking bookings.
    assert.match(await main(), /takes no bookings until the event is published/);
    const draftFrame = await (await page.locator('iframe.embed-preview').elementHandle())!.contentFrame();
    assert.ok(draftFrame);
    await draftFrame.waitForSelector('#preview-note');
    assert.match(draftFrame.url(), /\/e\/kathak-by-the-lake\?preview=/);
    assert.equal(await draftFrame.locator('#submit').isDisabled(), true, 'a draft takes no bookings');

    const staff = await signup(server.url, { email: staffEmail });
    const grant = await call(server.url, 'POST', `/admin/api/accounts/${userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    assert.equal(grant.status, 200, grant.text);
    await page.reload();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published.').waitFor();

    const iframe = page.locator('iframe.embed-preview');
    assert.match(
      (await iframe.getAttribute('title')) ?? '',
      /Preview of the booking page for Kathak by the Lake/,
    );
    const frame = await (await iframe.elementHandle())!.contentFrame();
    assert.ok(frame, 'the iframe has a document');
    await frame.waitForSelector('#register-form');
    assert.match(frame.url(), /\/e\/kathak-by-the-lake/);
    assert.match(await frame.locator('body').innerText(), /Kathak by the Lake/);
    await iframe.scrollIntoViewIfNeeded();
    await screenshot(page, 'event-overview-embed-desktop');
    assert.deepEqual(
      consoleErrors.filter((e) => /Refused|Content Security Policy|frame/i.test(e)),
      [],
      'no framing or CSP refusals',
    );

    assert.doesNotMatch(frame.url(), /preview=/, 'a published live event is previewed as the public sees it');

    // The test event (test mode): the snippet carries the key attribute, and a preview link shows the page.
    await switchMode('test');
    await page.goto(`${server.url}/dashboard/events/${encodeURIComponent(testEventId)}`);
    const snippet = await text('#embed-snippet');
    assert.match(snippet, /data-svc-event="sandbox-sitar-evening[a-z0-9-]*" data-svc-key="pk_test_…"/);
    assert.match(await main(), /test checkout key/);
    assert.match(await main(), /Bookings made in it are test bookings/);
    const testFrame = await (await page.locator('iframe.embed-preview').elementHandle())!.contentFrame();
    assert.ok(testFrame);
    await testFrame.waitForSelector('#register-form');
    assert.match(testFrame.url(), /\/e\/sandbox-sitar-evening[a-z0-9-]*\?preview=/);
    await page.locator('#embed-snippet').scrollIntoViewIfNeeded();
    await screenshot(page, 'event-overview-test-embed-desktop');
  });

  it('fits a 390 px phone screen without horizontal scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const screens: [string, string, 'test' | 'live'][] = [
      ['money', '/dashboard/money', 'test'],
      ['money-ledger', '/dashboard/money/ledger', 'test'],
      ['event-overview-test-embed', `/dashboard/events/${encodeURIComponent(testEventId)}`, 'test'],
      ['money-live', '/dashboard/money', 'live'],
      ['event-overview-embed', `/dashboard/events/${encodeURIComponent(liveEventId)}`, 'live'],
    ];
    for (const [name, path, mode] of screens) {
      await page.goto(`${server.url}/dashboard/money`);
      await switchMode(mode);
      await page.goto(server.url + path);
      const w = await fitsWidth(page);
      assert.ok(w.fits, `${name} is ${w.scrollWidth} px wide at ${w.width} px`);
      await screenshot(page, `${name}-phone`);
    }
  });
});
