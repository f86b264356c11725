// GST in Chromium (docs/decisions/17-the-organisers-office.md): the dashboard's GST settings filled in with the keyboard, the
// event form's tax fields, and a tax invoice's HTML page — each checked with axe-core and
// photographed at 1280 and 390 px (no sideways scrolling on a phone).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';

describe('GST screens in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;

  before(async () => {
    server = await startServer();
    browser = await openBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function axe(): Promise<void> {
    // Evaluated through the debugging protocol: the pages' CSP admits no injected script.
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const r = await (window as any).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return r.violations.map(
        (v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
      );
    });
    assert.deepEqual(violations, [], 'axe-core finds no WCAG 2.1 A/AA violations');
  }

  async function shoot(name: string): Promise<void> {
    await screenshot(page, `gst-${name}-desktop`);
    await page.setViewportSize({ width: 390, height: 844 });
    const w = await fitsWidth(page);
    assert.ok(w.fits, `${name} fits 390 px: ${w.scrollWidth}`);
    await screenshot(page, `gst-${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('fills in the GST settings with the keyboard and saves them', async () => {
    await page.goto(`${server.url}/dashboard/signup`);
    await page.getByLabel('Your name').fill('Meera Organiser');
    await page.getByLabel('Email').fill(uniqueEmail('gstbrowser'));
    await page.getByLabel(/^Password/).fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Verify your email address', level: 1 }).waitFor();
    await page.goto(`${server.url}/dashboard/account`);
    await page.getByRole('heading', { name: 'GST (test mode)' }).waitFor();
    // From the GSTIN field onwards, by keyboard only.
    await page.getByLabel(/^GSTIN/).focus();
    await page.keyboard.type('27AAPFU0939F1ZV');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Meera Arts LLP');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12 MG Road, Pune 411001');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('MA');
    await page.keyboard.press('Enter');
    await page.getByText('GST settings saved.').waitFor();
    assert.equal(await page.getByLabel(/^GSTIN/).inputValue(), '27AAPFU0939F1ZV');
    assert.equal(await page.getByLabel(/^State/).inputValue(), '27');
    assert.equal(await page.getByLabel(/^Number prefix/).inputValue(), 'MA');
    await axe();
    await shoot('settings');
  });

  it('shows the tax fields on the event form', async () => {
    await page.goto(`${server.url}/dashboard/events/new`);
    await page.getByLabel('Tax category').selectOption('admission_exempt_upto_500');
    await page.getByLabel(/^Venue state/).selectOption('29');
    await axe();
    await shoot('event-form');
  });

  it('shows a tax invoice as an accessible HTML page', async () => {
    const org = await organiser(server.url, 'test');
    const api = keyApi(
      () => server.url,
      () => org.key,
    );
    await api('PUT', '/api/v1/gst/settings', {
      gstin: '29AAGCR4375J1ZU',
      legalName: 'Rangashankara Arts LLP',
      address: '36/2 8th Cross, JP Nagar, Bengaluru 560078',
    });
    const ev = await createEvent(api, { title: 'Hamlet', price: 999, venueState: '29', sac: '999622' });
    const { registrationId } = await paidBooking(api, ev, { name: 'Asha Rao', email: uniqueEmail('buyer') });
    const invoicePage = await browser.newPage();
    await invoicePage.setExtraHTTPHeaders({ 'x-api-key': org.key });
    page = invoicePage;
    await page.goto(`${server.url}/api/v1/events/${ev}/registrations/${registrationId}/invoice`);
    await page.getByRole('heading', { name: 'Tax Invoice', level: 1 }).waitFor();
    assert.equal(
      await page
        .getByRole('row', { name: /CGST @ 9%/ })
        .innerText()
        .then((t) => t.replace(/\s+/g, ' ').trim()),
      'CGST @ 9% INR 76.19',
    );
    await axe();
    await shoot('invoice');
  });
});
