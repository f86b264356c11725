// Marking offline bookings paid in the dashboard, in Chromium (docs/decisions/24-payment-outside-the-gateway.md):
// the owner chooses a bank statement file on Money → Bank statement, checks the columns step (the
// recognised mapping chosen first), and sees the results table — one booking marked, the rest listed
// with their reasons; the next upload offers the remembered mapping. A booking awaiting payment is
// marked paid from its page with the keyboard. Each page is checked with axe-core and photographed at
// 1280 and 390 px, without sideways scrolling.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  assertAccessible,
  openBrowser,
  shootAt,
  signInToDashboard,
  tabTo,
  type BrowserSession,
} from '../helpers/browser.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('offline payments in the dashboard, in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;
  let org: Account & KeyInfo;
  let eventId = '';
  const refs: string[] = [];
  const ids: string[] = [];
  const errors: string[] = [];

  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
    const api = keyApi(server.url, org.key);
    const ev = await createEventData(
      api,
      {
        title: 'Weekend Pottery Workshop',
        price: 1250,
        capacity: 10,
        offlinePayment: { enabled: true, methods: ['bank_transfer', 'cash_at_venue'] },
      },
      { publish: true },
    );
    eventId = ev.id;
    for (let i = 0; i < 3; i++) {
      const r = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: ['Meera Iyer', 'Kabir Shah', 'Anil Rao'][i],
        email: uniqueEmail(`pottery${i}`),
        paymentMethod: 'bank_transfer',
      });
      assert.equal(r.status, 201, r.text);
      refs.push(r.body.awaitingPayment.reference);
      ids.push(r.body.registrationId);
    }
    browser = await openBrowser();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await signInToDashboard(page, server.url, org.email, 'correct horse battery');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('uploads a statement file through the columns step and shows what was marked and what is listed', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Money' }).click();
    await page.getByRole('link', { name: 'Bank statement' }).click();
    await page.getByRole('heading', { name: 'Upload bank statement' }).waitFor();
    await shootAt(page, 'statement-upload');

    const csv = [
      'HDFC BANK Ltd.,,,,',
      'Statement From : 01/12/2026 To : 05/12/2026,,,,',
      'Date,Narration,Withdrawal Amt.,Deposit Amt.,Closing Balance',
      `02/12/26,NEFT CR-HDFC0000123-MEERA IYER-${refs[0]},,"1,250.00","11,250.00"`,
      `03/12/26,UPI/412345678901/${refs[1]!.toLowerCase()}/okaxis,,500.00,"11,750.00"`,
      '03/12/26,IMPS-UNKNOWN PAYER,,"1,250.00","13,000.00"',
      '04/12/26,ATM WDL,"2,000.00",,"11,000.00"',
    ].join('\n');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Statement file (CSV)').setInputFiles({
      name: 'statement.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.waitForFunction(
      () => (document.getElementById('st-csv') as HTMLTextAreaElement).value.length > 0,
    );
    await page.getByRole('button', { name: 'Next: match the columns' }).click();
    await page.getByRole('heading', { name: 'Match the statement’s columns' }).waitFor();
    assert.equal(await page.getByLabel('Date', { exact: true }).inputValue(), 'Date');
    assert.equal(await page.getByLabel('Credit (deposit)').inputValue(), 'Deposit Amt.');
    assert.equal(await page.getByLabel('Debit (withdrawal)').inputValue(), 'Withdrawal Amt.');
    await shootAt(page, 'statement-columns');

    // The keyboard alone: to the button, and Enter.
    await tabTo(page, 'button:text("Mark matching bookings paid")');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Statement read' }).waitFor();
    assert.equal((await page.locator('#st-marked').innerText()).trim(), '1');
    assert.equal((await page.locator('#st-listed').innerText()).trim(), '2');
    const listed = await page.locator('#st-listed-table tbody').innerText();
    assert.match(listed, /The amount is not the amount due[\s\S]*₹500[\s\S]*₹1,250/);
    assert.match(listed, /No booking reference in the narration/);
    await shootAt(page, 'statement-results');

    // The next statement: the remembered columns come first.
    await page.getByRole('link', { name: 'Upload another statement' }).click();
    await page.getByLabel('The statement’s text').fill(csv);
    await page.getByRole('button', { name: 'Next: match the columns' }).click();
    await page.getByText('These are the columns your last statement used.').waitFor();
  });

  it('marks a booking paid from its page with the keyboard', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/dashboard/events/${eventId}/registrations/${ids[2]}`);
    await page.getByRole('heading', { name: 'Mark paid' }).waitFor();
    assert.match(await page.locator('main').innerText(), new RegExp(refs[2]!));
    await shootAt(page, 'mark-paid-form');
    await page.setViewportSize({ width: 1280, height: 900 });
    await tabTo(page, '#mp-method');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'mp-amount');
    assert.equal(await page.locator('#mp-amount').inputValue(), '1250');
    await page.keyboard.press('Tab');
    await page.keyboard.type('UTR 412345678901');
    await tabTo(page, 'button:text("Mark paid")');
    await page.keyboard.press('Enter');
    await page.getByText(/Marked paid \(₹1,250\)/).waitFor();
    assert.match(await page.locator('main').innerText(), /confirmed/);
    assert.equal(await page.getByRole('heading', { name: 'Mark paid' }).count(), 0, 'the form is gone');
    await assertAccessible(page, 'the booking marked paid');
    assert.deepEqual(errors, []);
  });
});
