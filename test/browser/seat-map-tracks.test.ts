// An event seated track by track on the hosted page, in Chromium (docs/decisions/23-reserved-seating.md,
// "Tracks with plans"): at 390 and 1280 px a buyer, with the keyboard alone, chooses a session,
// opens its seats with "Show the seats", sees the seat another buyer holds in that session (and
// not the one held in the other session) as taken, chooses a seat and books: the booking is of
// that session and seat. A waitlist offer's page (an event seated from its own plan) draws the map
// with only the offer's category on sale, and books the freed seat. Screenshots of each step at both widths, axe on each.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  assertAccessible,
  type BrowserSession,
  openBrowser,
  openPage,
  screenshot,
  tabTo,
  WAIT_MS,
} from '../helpers/browser.js';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { offerMailTo } from '../helpers/waitlist.js';

const grid = { sections: [{ name: 'Stalls', rows: 2, seatsPerRow: 6, category: ['Gold', 'Silver'] }] };

describe('the hosted page of an event seated track by track, in Chromium', { timeout: 300_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let pk: string;
  let planId: string;
  let browser: BrowserSession;
  const consoleErrors: string[] = [];

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    planId = plan.body.data.id;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    assert.deepEqual(consoleErrors, []);
  });

  const open = (slug: string, width: number) =>
    openPage(browser, `${server.url}/e/${slug}?key=${pk}`, width, consoleErrors);
  const label = (page: Page, index: number) =>
    page.locator('#seat-map circle').nth(index).getAttribute('aria-label');

  for (const width of [390, 1280]) {
    it(`at ${width} px: a session is chosen, its seats shown, a seat chosen and booked, all by keyboard`, async () => {
      const event = await createEventData(
        api,
        {
          title: 'Hamlet, two shows',
          specialPrices: [
            { name: 'Gold', price: 0 },
            { name: 'Silver', price: 0 },
          ],
          tracks: [
            { title: 'Matinee', seatingPlanId: planId },
            { title: 'Evening', seatingPlanId: planId },
          ],
        },
        { publish: true },
      );
      for (const [track, seat] of [
        ['0', 'Stalls-A-2'],
        ['1', 'Stalls-A-1'],
      ]) {
        const other = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
          seats: [seat],
          subEventId: track,
        });
        assert.equal(other.status, 201, other.text);
      }
      const page = await open(event.slug, width);
      await page.locator('#session-pick').waitFor();
      assert.equal(await page.locator('#seat-map').count(), 0, 'no map before a session is chosen');
      assert.equal(await page.locator('#register-form').count(), 0, 'nothing to book before the seats');
      await screenshot(page, `seat-map-tracks-sessions-${width}`);
      await assertAccessible(page, `the sessions of a seated-by-track event, ${width} px`);

      await tabTo(page, '#session-0');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.locator('#session-1').isChecked(), true, 'the evening, by the arrow key');
      await tabTo(page, '#session-seats');
      await page.keyboard.press('Enter');
      await page.locator('#seat-map[role="listbox"]').waitFor();
      assert.match(page.url(), /subEventId=1/);
      assert.match(page.url(), new RegExp(`key=${pk}`), 'the key rides along');
      assert.equal(await page.locator('#session-1').isChecked(), true, 'the chosen session, alone');
      assert.equal(await page.locator('#session-0').count(), 0);
      assert.equal(await page.locator('#other-session').innerText(), 'Choose another session');
      assert.equal(await label(page, 0), 'Row A, seat 1, Gold, Free, held', 'held in the evening');
      assert.equal(await label(page, 1), 'Row A, seat 2, Gold, Free, available', 'held only in the matinee');

      await tabTo(page, '#seat-map');
      // The keyboard starts on the first seat free in this session: A-1 is the evening's held one.
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('#chosen-list li').length === 1, undefined, {
        timeout: WAIT_MS,
      });
      assert.match(await page.locator('#chosen-list li span').innerText(), /^Row A, seat 2 · Gold · Free$/);
      await screenshot(page, `seat-map-tracks-seat-${width}`);
      await assertAccessible(page, `a session’s seat map with a seat chosen, ${width} px`);
      const email = uniqueEmail('asha');
      await page.getByLabel('Full name').fill('Asha Rao');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.locator('#submit').focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'You are registered' }).waitFor();
      const list = await api('GET', `/api/v1/events/${event.id}/registrations`);
      const booking = list.body.data.find((r: { email: string }) => r.email === email);
      assert.equal(booking.subEventId, '1');
      assert.deepEqual(
        booking.seats.map((s: { id: string }) => s.id),
        ['Stalls-A-2'],
      );
      await page.close();
    });
  }

  it('a waitlist offer’s page draws the map with only the offer’s category on sale, and books the freed seat', async () => {
    const event = await createEventData(
      api,
      {
        title: 'Hamlet, waitlisted',
        maxTeamSize: 6,
        seatingPlanId: planId,
        specialPrices: [
          { name: 'Gold', price: 0 },
          { name: 'Silver', price: 0 },
        ],
        waitlist: { enabled: true, offerMinutes: 30 },
      },
      { publish: true },
    );
    const gold = Array.from({ length: 6 }, (_, i) => `Stalls-A-${i + 1}`);
    const hold = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: gold });
    assert.equal(hold.status, 201, hold.text);
    const booked = await api('POST', `/api/v1/events/${event.id}/register`, {
      name: 'Full Row',
      email: uniqueEmail('row'),
      holdToken: hold.body.data.holdToken,
      teamMembers: gold.slice(1).map((_, i) => ({ name: `Friend ${i + 1}`, email: uniqueEmail(`f${i}`) })),
    });
    assert.equal(booked.status, 201, booked.text);
    const email = uniqueEmail('wen');
    const joined = await api('POST', `/api/v1/events/${event.id}/waitlist`, {
      name: 'Waiting Wen',
      email,
      ticketType: 'Gold',
    });
    assert.equal(joined.status, 201, joined.text);
    const cancel = await api(
      'POST',
      `/api/v1/events/${event.id}/registrations/${booked.body.registrationId}/cancel`,
      {},
    );
    assert.equal(cancel.status, 200, cancel.text);
    const { token } = await offerMailTo(server, api, email);

    const page = await openPage(
      browser,
      `${server.url}/e/${event.slug}?key=${pk}&offer=${token}`,
      390,
      consoleErrors,
    );
    await page.locator('#offer-held').waitFor();
    await page.locator('#seat-map[role="listbox"]').waitFor();
    await tabTo(page, '#seat-map');
    await page.keyboard.press('ArrowDown');
    assert.equal(
      await page.evaluate(() => {
        const map = document.getElementById('seat-map')!;
        return document
          .getElementById(map.getAttribute('aria-activedescendant')!)!
          .getAttribute('aria-label');
      }),
      'Row B, seat 1, Silver, Free, available',
    );
    await page.keyboard.press('Enter');
    await page.getByText('Silver seats are not on sale now.').waitFor();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#chosen-list li').length === 1, undefined, {
      timeout: WAIT_MS,
    });
    await screenshot(page, 'seat-map-tracks-offer-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'seat-map-tracks-offer-1280');
    await assertAccessible(page, 'a waitlist offer’s seat map');
    await page.getByLabel('Full name').fill('Waiting Wen');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.locator('#submit').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'You are registered' }).waitFor();
    const list = await api('GET', `/api/v1/events/${event.id}/registrations`);
    const mine = list.body.data.find((r: { email: string }) => r.email === email);
    assert.equal(mine.ticketType, 'Gold');
    assert.equal(mine.seats.length, 1);
    assert.match(mine.seats[0].id, /^Stalls-A-\d$/);
    await page.close();
  });
});
