// The dashboard's activity screen (the audit log) in Chromium: changes made in the dashboard
// and through an API key are listed with who made them, filtered by target from a row's
// link, on a desktop and a 390 px phone without horizontal scrolling; screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { call, createKey, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';

const PASSWORD = 'a long enough password';

describe('dashboard activity screen in Chromium', { timeout: 180_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;
  const organiser = uniqueEmail('activity');
  let key = '';
  let keyPrefix = '';
  let eventId = '';
  const consoleErrors: string[] = [];

  before(async () => {
    server = await startServer();
    browser = await openBrowser();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.location().url}: ${m.text()}`);
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists each change with its actor and filters by target', async () => {
    await page.goto(`${server.url}/dashboard/signup`);
    await page.getByLabel('Your name').fill('Asha Organiser');
    await page.getByLabel('Email').fill(organiser);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/dashboard\/verify/);

    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email: organiser, password: PASSWORD },
    });
    const made = await createKey(server.url, login.body.idToken, { mode: 'test', class: 'full' });
    key = made.key;
    keyPrefix = key.slice(0, 12);
    eventId = await createEvent(keyApi(server.url, key), {
      title: 'Kathak Workshop',
      description: 'Audit',
      startDate: '2030-03-14T18:30:00+05:30',
      capacity: 20,
    });
    assert.equal(
      (
        await call(server.url, 'PATCH', `/api/v1/events/${eventId}`, {
          key,
          body: { title: 'Kathak Workshop, Day 1' },
        })
      ).status,
      200,
    );

    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Activity' }).getAttribute('aria-current'), 'page');
    const rows = page.locator('main tbody tr');
    assert.equal(await rows.count(), 3, await page.locator('main').innerText());
    // Newest first: the key's edit, the key's create, the organiser's key creation.
    assert.match(
      await rows.nth(0).innerText(),
      new RegExp(
        `API key\\s+${keyPrefix}[\\s\\S]*event\\.update[\\s\\S]*title: Kathak Workshop → Kathak Workshop, Day 1`,
      ),
    );
    assert.match(await rows.nth(1).innerText(), /event\.create/);
    assert.match(
      await rows.nth(2).innerText(),
      new RegExp(`Organiser\\s+${organiser.replace(/[.]/g, '\\.')}[\\s\\S]*key\\.create`),
    );
    assert.doesNotMatch(await page.locator('main').innerText(), new RegExp(key));
    await screenshot(page, 'activity-desktop');

    // A row's target link filters to that target.
    await rows.nth(0).getByRole('link', { name: eventId }).click();
    await page.waitForURL(/targetId=/);
    assert.equal(await page.locator('main tbody tr').count(), 2);
    assert.equal(await page.getByLabel('Id').inputValue(), eventId);
    assert.deepEqual(
      consoleErrors.filter((e) => !e.includes('/favicon.ico')),
      [],
    );
  });

  it('fits a 390 px phone screen without horizontal scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/dashboard/activity`);
    const width = await fitsWidth(page);
    assert.ok(width.fits, `page is ${width.scrollWidth}px wide in a ${width.width}px screen`);
    await screenshot(page, 'activity-phone');
  });
});
