// A registration's history and tax documents in Chromium (docs/decisions/28-a-persons-day.md): the dashboard's registration
// page of a paid booking refunded in part and then transferred shows its history in order and
// links its tax invoice and credit note, whose link opens a PDF; the attendee's page links
// the same documents; and the GST settings page (/dashboard/account/gst) saves its form from
// the keyboard. Each page is checked with axe-core and photographed at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import {
  assertAccessible,
  fitsWidth,
  openBrowser,
  screenshot,
  type BrowserSession,
} from '../helpers/browser.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('a registration’s history in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;
  let org: Account & KeyInfo;

  before(async () => {
    server = await startServer();
    browser = await openBrowser();
    page = await browser.newPage();
    org = await organiser(server.url, 'test');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  const axe = () => assertAccessible(page, page.url());

  async function shoot(name: string): Promise<void> {
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, `history-${name}-desktop`);
    await page.setViewportSize({ width: 390, height: 844 });
    const w = await fitsWidth(page);
    assert.ok(w.fits, `${name} fits 390 px: ${w.scrollWidth}`);
    await screenshot(page, `history-${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('saves the GST settings on their own page with the keyboard', async () => {
    await page.goto(`${server.url}/dashboard/login`);
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard\/events/);
    const r = await page.goto(`${server.url}/dashboard/account/gst`);
    assert.equal(r?.status(), 200);
    await page.getByRole('heading', { name: 'GST (test mode)' }).waitFor();
    await page.getByLabel(/^GSTIN/).focus();
    await page.keyboard.type('29AAGCR4375J1ZU');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Rangashankara Arts LLP');
    await page.keyboard.press('Tab');
    await page.keyboard.type('36/2 8th Cross, Bengaluru');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('GST settings saved.').waitFor();
    assert.match(page.url(), /\/dashboard\/account\/gst$/);
    assert.equal(await page.getByLabel(/^GSTIN/).inputValue(), '29AAGCR4375J1ZU');
    assert.equal(await page.getByLabel(/^State/).inputValue(), '29');
    await axe();
    await shoot('gst-settings');
  });

  it('shows the history and links the invoice and credit note on the registration page and the attendee page', async () => {
    const eventId = await createEvent(api, {
      title: 'Hamlet',
      price: 1500,
      venueState: '29',
      startDate: '2030-05-01',
    });
    const b = await paidBooking(api, eventId, {
      name: 'Asha Rao',
      email: uniqueEmail('asha'),
      phone: '+919812345678',
    });
    assert.equal(
      (
        await api('POST', `/api/v1/events/${eventId}/registrations/${b.registrationId}/refund`, {
          amount: 300,
          reason: 'The second act was cut',
        })
      ).status,
      200,
    );
    const token = attendeeToken(server.deps.config.secretsKey, b.registrationId, b.registrationId);

    // The attendee's page before the transfer: their invoice and credit note.
    await page.goto(`${server.url}/t/${token}`);
    await page.getByRole('heading', { name: 'Tax documents' }).waitFor();
    assert.equal(await page.getByRole('link', { name: /^(Tax invoice|Credit note) / }).count(), 2);
    await axe();
    await shoot('attendee');

    assert.equal(
      (
        await api('POST', `/api/v1/events/${eventId}/registrations/${b.registrationId}/transfer`, {
          name: 'Ravi Kumar',
          email: uniqueEmail('ravi'),
        })
      ).status,
      200,
    );
    await page.goto(`${server.url}/dashboard/events/${eventId}/registrations/${b.registrationId}`);
    const history = page.getByRole('region', { name: 'History' }).getByRole('listitem');
    assert.equal(await history.count(), 4);
    assert.match(await history.nth(1).innerText(), /Paid ₹1,500/);
    assert.match(await history.nth(2).innerText(), /Partly refunded ₹300: The second act was cut/);
    assert.match(await history.nth(3).innerText(), /Transferred from Asha Rao .* to Ravi Kumar/);
    const invoice = page.getByRole('link', { name: /^Tax invoice / });
    assert.equal(await invoice.count(), 1);
    assert.equal(await page.getByRole('link', { name: /^Credit note / }).count(), 1);
    // The link opens the PDF with the session's cookie.
    const pdf = await page.request.get(new URL((await invoice.getAttribute('href'))!, server.url).href);
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');
    await invoice.focus();
    await axe();
    await shoot('registration');
  });
});
