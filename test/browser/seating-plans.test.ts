// The dashboard's seating plan screens in Chromium: an organiser makes a plan from a grid with
// the keyboard alone, sees it drawn (a seat per circle, blocked seats grey), blocks seats by
// name, is told plainly when a name fits no seat, and renames the plan; on an event's setup page
// seats every track of the event from the plan with the keyboard (the missing tiers added) and
// sets a category's price. Screenshots at 1280 and 390 px and axe on each screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openBrowser, shootAt, signInToDashboard, type BrowserSession } from '../helpers/browser.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';

describe('seating plans on the dashboard, in Chromium', { timeout: 300_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let browser: BrowserSession;
  let page: Page;
  const consoleErrors: string[] = [];

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    browser = await openBrowser();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico'))
        consoleErrors.push(`${m.location().url}: ${m.text()}`);
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const seats = () => page.locator('svg.plan circle.seat');
  const blocked = () => page.locator('svg.plan circle.seat.blocked');

  it('makes a plan from a grid with the keyboard and draws it', async () => {
    await signInToDashboard(page, server.url, org.email, PASSWORD);
    await page.getByRole('link', { name: 'Seating plans' }).click();
    await page.getByRole('heading', { name: 'Seating plans', level: 1 }).waitFor();
    assert.ok(await page.locator('#plans-empty').isVisible());
    await shootAt(page, 'seating-plans-empty');

    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('Rangashankara');
    await page.keyboard.press('Tab'); // section: Stalls stays
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('4');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('12');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Gold, Gold, Silver');
    await page.keyboard.press('Tab');
    await page.keyboard.type('6');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Rangashankara', level: 1 }).waitFor();
    assert.match(await page.locator('main').innerText(), /Made Rangashankara: 48 seats\./);
    assert.equal(await seats().count(), 48);
    const table = await page.locator('#plan-categories').innerText();
    assert.match(table, /Gold\s+24/);
    assert.match(table, /Silver\s+24/);
    assert.equal(
      await seats().first().locator('title').textContent(),
      'Row A, seat 1, Stalls, Gold',
      'each seat is named for a screen reader',
    );
    await shootAt(page, 'seating-plan');
  });

  it('blocks seats by name, and says plainly when a name fits no seat', async () => {
    await page.getByRole('textbox', { name: 'Seats' }).fill('A1-A3, D12');
    await page.getByLabel('Make them').selectOption('block');
    await page.getByRole('button', { name: 'Change the seats' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('4 seats blocked.').waitFor();
    assert.equal(await blocked().count(), 4);
    assert.match(await page.locator('#plan-categories').innerText(), /Gold\s+21[\s\S]*Silver\s+23/);

    await page.getByRole('textbox', { name: 'Seats' }).fill('Z99');
    await page.getByRole('button', { name: 'Change the seats' }).click();
    await page.getByText('"Z99" names no seat of this plan').waitFor();
    assert.equal(await blocked().count(), 4, 'nothing changed');
    await shootAt(page, 'seating-plan-refused');

    await page.getByRole('textbox', { name: 'Seats' }).fill('A2');
    await page.getByLabel('Make them').selectOption('release');
    await page.getByRole('button', { name: 'Change the seats' }).click();
    await page.getByText('1 seat for sale again.').waitFor();
    assert.equal(await blocked().count(), 3);
  });

  it('renames the plan and lists it', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Rangashankara main hall');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Renamed to Rangashankara main hall.').waitFor();
    await page.getByRole('link', { name: '← Seating plans' }).click();
    const row = page.locator('#plans tbody tr');
    assert.equal(await row.count(), 1);
    assert.match(await row.innerText(), /Rangashankara main hall\s+48/);
    await shootAt(page, 'seating-plans');
    assert.deepEqual(consoleErrors, []);
  });

  it('seats every track of an event from the plan on its setup page, and prices a category', async () => {
    const api = keyApi(server.url, org.key);
    const event = await createEventData(api, {
      title: 'Two shows',
      price: 500,
      tracks: [{ title: 'Matinee' }, { title: 'Evening' }],
    });
    await page.goto(`${server.url}/dashboard/events/${event.id}/setup`);
    await page.getByRole('heading', { name: 'Seating', level: 2 }).waitFor();
    assert.equal(
      await page.locator('#seating-now').innerText(),
      'Not seated: buyers get a ticket, not a seat.',
    );
    await page.getByLabel('Sell every track’s seats from').focus();
    await page.keyboard.press('ArrowDown');
    assert.match(await page.getByLabel('Sell every track’s seats from').inputValue(), /^seatplan_/);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Seated from Rangashankara main hall. Tiers added: Gold, Silver.').waitFor();
    assert.equal(
      await page.locator('#seating-now').innerText(),
      'Seated: every track sold from Rangashankara main hall.',
    );
    const price = page.getByLabel('Price of Gold in rupees');
    await price.fill('1500');
    await price.press('Enter');
    await page.getByText('Tier Gold now costs ₹1500.').waitFor();
    await shootAt(page, 'event-seating');
    const after = (await api('GET', `/api/v1/events/${event.id}`)).body.data;
    assert.deepEqual(
      after.tracks.map((t: { seatingPlanId: string | null; capacity: number }) => [
        !!t.seatingPlanId,
        t.capacity,
      ]),
      [
        [true, 45],
        [true, 45],
      ],
      'each show has the plan’s 45 seats for sale',
    );
    assert.deepEqual(
      after.specialPrices.map((t: { name: string; price: number; capacity: number }) => [
        t.name,
        t.price,
        t.capacity,
      ]),
      [
        ['Gold', 1500, 44],
        ['Silver', 500, 46],
      ],
    );
    assert.deepEqual(consoleErrors, []);
  });
});
