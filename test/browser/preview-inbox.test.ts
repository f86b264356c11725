// An organiser with no website of their own (docs/decisions/28-a-persons-day.md), in Chromium: from the event's
// overview in the dashboard they open the signed preview of their test event's booking page,
// book a paid ticket through the sandbox payment as a buyer would, and read the ticket mail in
// the dashboard's Test inbox, as it would be sent. No checkout key, no host page. Screenshots at
// 1280 and 390 px, and axe on each screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser, shootAt, signInToDashboard, type BrowserSession } from '../helpers/browser.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';

const PASSWORD = 'correct horse battery';

describe('the preview of a test event, booked from the dashboard and read in the Test inbox, in Chromium', {
  timeout: 300_000,
}, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let browser: BrowserSession;
  let page: Page;
  let eventId = '';
  const buyer = uniqueEmail('previewbuyer');
  const consoleErrors: string[] = [];

  const shoot = (p: Page, name: string) => shootAt(p, `preview-inbox-${name}`);

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    eventId = await createEvent(keyApi(server.url, org.key), {
      title: 'Kochi Design Meetup',
      description: 'An evening of talks.',
      startDate: '2026-12-12T18:00+05:30',
      endDate: '2026-12-12T20:30+05:30',
      price: 250,
      capacity: 40,
    });
    browser = await openBrowser();
    page = await browser.newPage();
    await page.route('https://checkout.razorpay.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico'))
        consoleErrors.push(`${m.location().url}: ${m.text()}`);
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens the preview from the overview and books a paid ticket through the sandbox payment', async () => {
    await signInToDashboard(page, server.url, org.email, PASSWORD, 'test');
    await page.goto(`${server.url}/dashboard/events/${eventId}`);
    const preview = page.getByRole('link', { name: 'Open the preview' });
    const href = (await preview.getAttribute('href'))!;
    assert.match(href, /^\/e\/kochi-design-meetup\?preview=/, 'a signed link, no key');
    await page.goto(server.url + href);
    await page.getByRole('heading', { name: 'Kochi Design Meetup' }).first().waitFor();
    assert.match(
      await page.locator('body').innerText(),
      /Preview: this page is shown to you through your preview link/,
    );
    await shoot(page, 'page');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Full name').fill('Asha Rao');
    await page.getByLabel('Email').fill(buyer);
    await page.locator('#submit').click();
    await page.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    await page.getByRole('button', { name: 'Pay successfully' }).click();
    await page.getByRole('heading', { name: 'You are registered' }).waitFor();
    await shoot(page, 'booked');
    const regs = await call(server.url, 'GET', `/api/v1/events/${eventId}/registrations`, { key: org.key });
    assert.deepEqual(
      (regs.body.data as any[]).map((r) => [r.email, r.status]),
      [[buyer, 'confirmed']],
      'one confirmed test booking of the buyer',
    );
  });

  it('reads the ticket mail in the Test inbox, as it would be sent', async () => {
    await server.deps.jobs.runOnce();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/dashboard/events`);
    await page.getByRole('link', { name: 'Test inbox' }).first().click();
    const row = page.locator('#inbox tr', { hasText: buyer });
    await row.waitFor();
    await shoot(page, 'inbox');
    await page.setViewportSize({ width: 1280, height: 900 });
    await row.getByRole('link').first().click();
    await page.locator('#mail-frame').waitFor();
    const frame = page.frameLocator('#mail-frame');
    await frame.locator('body', { hasText: 'Kochi Design Meetup' }).waitFor();
    assert.match(await frame.locator('body').innerText(), /Asha Rao/);
    await shoot(page, 'mail');
    assert.deepEqual(consoleErrors, []);
  });
});
