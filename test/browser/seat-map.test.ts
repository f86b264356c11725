// The hosted page's seat map in Chromium (docs/decisions/23-reserved-seating.md): at 390 and 1280 px a
// buyer, with the keyboard alone, moves over the seats with the arrow keys, chooses two with Enter,
// sees them listed with the hold's countdown, removes one, takes the best available instead and
// books (a free event: confirmed, with the seats the API then answers). A seat another buyer takes
// turns taken at the next refresh; a seat taken just before the buyer's own click is refused
// plainly; the countdown's end drops the seats, and so does a booking that finds the hold lapsed.
// The map zooms and pans with its buttons and by dragging. Each seat is named for a screen reader;
// screenshots at both widths, and axe on the page with the map.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  assertAccessible,
  type BrowserSession,
  openBrowser,
  openPage,
  screenshot,
  shootAt,
  tabTo,
  WAIT_MS,
} from '../helpers/browser.js';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Rows A and B Gold, C and D Silver; twelve seats a row with an aisle after seat 6; A1 accessible.
const grid = {
  sections: [
    {
      name: 'Stalls',
      rows: 4,
      seatsPerRow: 12,
      category: ['Gold', 'Gold', 'Silver'],
      aisleAfter: [6],
      accessible: [{ row: 'A', seats: [1] }],
    },
  ],
};

describe('the seat map on the hosted page, in Chromium', { timeout: 300_000 }, () => {
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
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Rangashankara', grid });
    assert.equal(plan.status, 201, plan.text);
    planId = plan.body.data.id;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const seatedEvent = (prices: [number, number], fields: Record<string, unknown> = {}) =>
    createEventData(api, {
      title: 'Hamlet',
      description: 'Rangashankara’s Hamlet, in three hours.',
      location: 'Rangashankara, Bengaluru',
      seatingPlanId: planId,
      specialPrices: [
        { name: 'Gold', price: prices[0] },
        { name: 'Silver', price: prices[1] },
      ],
      ...fields,
    });

  async function open(slug: string, width: number, clock = false): Promise<Page> {
    // The refusals these tests bring about (a seat taken, a hold lapsed) are the browser's to log.
    const expected = (url: string, text: string) =>
      /\/seats\/hold$|\/register$/.test(url) && /status of 409/.test(text);
    const page = await openPage(browser, `${server.url}/e/${slug}?key=${pk}`, width, consoleErrors, {
      expected,
      clock,
    });
    await page.locator('#seat-map[role="listbox"]').waitFor();
    return page;
  }

  /** The name of the seat the keyboard is on. */
  const activeName = (page: Page) =>
    page.evaluate(() => {
      const map = document.getElementById('seat-map')!;
      return document.getElementById(map.getAttribute('aria-activedescendant')!)!.getAttribute('aria-label');
    });
  const seat = (page: Page, index: number) => page.locator('#seat-map circle').nth(index);
  const chosen = (page: Page) => page.locator('#chosen-list li span').allInnerTexts();
  /** The seats' ids as the page lists them ("Row C, seat 5 · Silver · Free" is Stalls-C-5). */
  const idsOf = (items: string[]) =>
    items.map((t) => {
      const [, row, n] = /Row (\w+), seat (\d+)/.exec(t)!;
      return `Stalls-${row}-${n}`;
    });
  /** Waits until the page holds exactly `n` seats (the list shows them and the countdown runs). */
  async function held(page: Page, n: number) {
    await page.waitForFunction(
      (k) =>
        document.querySelectorAll('#chosen-list li').length === k &&
        (k === 0 || /^Seats held for \d+:\d\d$/.test(document.getElementById('hold-timer')!.textContent!)) &&
        document.querySelectorAll('#seat-map circle.m').length === k,
      n,
      { timeout: WAIT_MS },
    );
  }

  for (const width of [390, 1280]) {
    it(`at ${width} px: arrows and Enter choose two seats, one is removed, best available replaces it, the booking has the seats`, async () => {
      const event = await seatedEvent([0, 0], { maxTeamSize: 4 });
      const page = await open(event.slug, width);
      await tabTo(page, '#seat-map');
      assert.equal(await activeName(page), 'Row A, seat 1, Gold, Free, accessible seat, available');
      await page.keyboard.press('ArrowRight');
      assert.equal(await activeName(page), 'Row A, seat 2, Gold, Free, available');
      await page.keyboard.press('ArrowDown');
      assert.equal(await activeName(page), 'Row B, seat 2, Gold, Free, available');
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await held(page, 2);
      assert.deepEqual(await chosen(page), ['Row B, seat 2 · Gold · Free', 'Row B, seat 3 · Gold · Free']);
      assert.match(await page.locator('#hold-timer').innerText(), /^Seats held for (10:00|9:5\d)$/);
      assert.equal(await activeName(page), 'Row B, seat 3, Gold, Free, chosen');
      assert.equal(await seat(page, 14).getAttribute('aria-selected'), 'true', 'B3 is selected');
      assert.equal(
        await page.getByLabel('Team member 1: name').count(),
        1,
        'a team member for the second seat',
      );
      assert.equal(await page.locator('#sum-tier dd').innerText(), 'Gold');
      if (width === 390) await shootAt(page, 'seat-map-chosen');
      else {
        await screenshot(page, 'seat-map-chosen-wide-1280');
        await assertAccessible(page, 'the seat map with two seats chosen, 1280 px');
      }

      await page.locator('#seat-map').focus();
      await tabTo(page, 'button[aria-label="Remove Row B, seat 3"]');
      await page.keyboard.press('Enter');
      await held(page, 1);
      assert.deepEqual(await chosen(page), ['Row B, seat 2 · Gold · Free']);
      assert.equal(await page.getByLabel('Team member 1: name').count(), 0, 'one seat, no team member');
      assert.equal(await seat(page, 14).getAttribute('aria-label'), 'Row B, seat 3, Gold, Free, available');

      await tabTo(page, '#best-category');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.locator('#best-category').inputValue(), 'Silver');
      await tabTo(page, '#best-quantity');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('2');
      await tabTo(page, '#best-find');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() =>
        /Silver[\s\S]*Silver/.test(document.getElementById('chosen-list')!.textContent!),
      );
      await held(page, 2);
      const best = await chosen(page);
      assert.ok(
        best.every((t) => /^Row C, seat \d+ · Silver · Free$/.test(t)),
        best.join(' | '),
      );
      assert.match(
        await page.locator('#seat-status').innerText(),
        /^Held for you: Row C, seat \d+; Row C, seat \d+\.$/,
      );
      assert.equal(await seat(page, 13).getAttribute('aria-label'), 'Row B, seat 2, Gold, Free, available');
      assert.equal(await page.locator('#sum-tier dd').innerText(), 'Silver');

      const email = uniqueEmail('asha');
      await page.getByLabel('Full name').fill('Asha Rao');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Team member 1: name').fill('Ravi Rao');
      await page.getByLabel('Team member 1: email').fill(uniqueEmail('ravi'));
      await page.locator('#submit').focus();
      assert.equal(await page.locator('#submit').innerText(), 'Register');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'You are registered' }).waitFor();
      assert.ok(await page.locator('#seats').isHidden(), 'the map has done its part');
      const list = await api('GET', `/api/v1/events/${event.id}/registrations`);
      const booking = list.body.data.find((r: { email: string }) => r.email === email);
      assert.deepEqual(
        booking.seats.map((s: { id: string }) => s.id),
        idsOf(best),
      );
      assert.equal(booking.ticketType, 'Silver');
      await page.close();
    });
  }

  it('a seat another buyer takes turns taken at the next refresh; one taken just before the click is refused plainly', async () => {
    const event = await seatedEvent([1500, 800], { maxTeamSize: 2 });
    const page = await open(event.slug, 390, true);
    await page.clock.pauseAt(Date.now() + 10_000);
    // The jump may have started a refresh: it is answered before the other buyer's hold, so the
    // refresh that the next 5 seconds start is the one that must show it.
    await page.waitForFunction(() => !document.querySelector('#seat-map')!.hasAttribute('aria-busy'));
    assert.equal(await seat(page, 11).getAttribute('aria-label'), 'Row A, seat 12, Gold, ₹1,500, available');
    // Row A, seat 12 (the 12th seat): taken by another buyer through the API.
    const other = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-12'] });
    assert.equal(other.status, 201, other.text);
    await page.clock.runFor(5_000);
    await page.waitForFunction(() =>
      document.querySelectorAll('#seat-map circle')[11]!.getAttribute('aria-label')!.endsWith(', held'),
    );
    assert.match((await seat(page, 11).getAttribute('class'))!, /\bh\b/);

    // Row A, seat 11 goes to another buyer before this page's refresh: its click is refused.
    const sold = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-11'] });
    assert.equal(sold.status, 201, sold.text);
    await seat(page, 10).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Someone took one of those seats; choose again.' })
      .waitFor();
    await page.waitForFunction(() =>
      document.querySelectorAll('#seat-map circle')[10]!.getAttribute('aria-label')!.endsWith(', held'),
    );
    assert.deepEqual(await chosen(page), [], 'nothing was held');
    await seat(page, 9).click();
    await held(page, 1);
    assert.deepEqual(await chosen(page), ['Row A, seat 10 · Gold · ₹1,500']);
    assert.equal(await page.locator('#submit').innerText(), 'Pay ₹1,500');
    await page.clock.resume(); // axe waits on timers of its own
    await assertAccessible(page, 'the seat map with a seat taken and one chosen');
    await page.close();
  });

  it('the countdown’s end drops the seats and says so; a booking that finds its hold lapsed drops them too', async () => {
    const event = await seatedEvent([0, 0]);
    const page = await open(event.slug, 1280, true);
    await page.clock.pauseAt(Date.now() + 10_000);
    await seat(page, 30).click(); // Row C, seat 7
    await held(page, 1);
    assert.equal(await page.locator('#hold-timer').innerText(), 'Seats held for 10:00');
    await page.clock.runFor(18_000);
    assert.equal(await page.locator('#hold-timer').innerText(), 'Seats held for 9:42');
    await page.clock.runFor(9 * 60_000 + 42_000);
    await page
      .getByRole('alert')
      .filter({ hasText: 'The hold on your seats ended and they have been let go. Choose your seats again.' })
      .waitFor();
    await held(page, 0);
    assert.equal(await page.locator('#hold-timer').innerText(), '');
    assert.equal(await seat(page, 30).getAttribute('aria-label'), 'Row C, seat 7, Silver, Free, available');

    // The service's clock passes the hold while the page still counts: the booking is refused.
    await seat(page, 31).click(); // Row C, seat 8
    await held(page, 1);
    await page.getByLabel('Full name').fill('Zoya Khan');
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('zoya'));
    const moved = await api('POST', '/api/v1/sandbox/clock', { advanceDays: 11 / (24 * 60) });
    assert.equal(moved.status, 200, moved.text);
    try {
      await page.locator('#submit').click();
      await page
        .locator('#form-error')
        .filter({ hasText: 'Your seats were let go before the booking was made. Choose your seats again.' })
        .waitFor();
      await held(page, 0);
      assert.equal(await page.locator('#submit').innerText(), 'Choose your seats');
      await page.locator('#submit').click();
      await page.locator('#seat-map-error').filter({ hasText: 'Choose your seats on the map' }).waitFor();
      assert.equal(await page.locator('#seat-map').getAttribute('aria-invalid'), 'true');
    } finally {
      await api('DELETE', '/api/v1/sandbox/clock');
    }
    await page.close();
  });

  it('zooms with its buttons and the keyboard, pans by dragging, and refuses seats of a second category', async () => {
    const event = await seatedEvent([1500, 800], { maxTeamSize: 3 });
    const page = await open(event.slug, 390);
    const viewBox = async () =>
      ((await page.locator('#seat-map').getAttribute('viewBox')) ?? '').split(' ').map(Number);
    const whole = await viewBox();
    assert.equal(await page.locator('#map-zoom-out').getAttribute('aria-disabled'), 'true');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await viewBox();
    assert.ok(Math.abs(zoomed[2]! - whole[2]! / 2) < 0.01, `half as wide: ${zoomed} from ${whole}`);
    const box = (await page.locator('#seat-map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 100, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const panned = await viewBox();
    assert.ok(panned[0]! > zoomed[0]!, `dragging left shows what lies right: ${panned} from ${zoomed}`);
    assert.deepEqual(await chosen(page), [], 'a drag chooses no seat');
    await page.getByRole('button', { name: 'Whole plan' }).click();
    assert.deepEqual(await viewBox(), whole);
    await page.locator('#seat-map').focus();
    await page.keyboard.press('+');
    assert.ok((await viewBox())[2]! < whole[2]!, 'the + key zooms in');
    await page.keyboard.press('-');
    assert.deepEqual(await viewBox(), whole);

    await page.keyboard.press('Enter'); // Row A, seat 1
    await held(page, 1);
    await seat(page, 24).click(); // Row C, seat 1: Silver
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'One booking is one category: your seats are Gold. Remove them first to choose Silver seats.',
      })
      .waitFor();
    await seat(page, 1).click();
    await seat(page, 2).click();
    await held(page, 3);
    await seat(page, 3).click();
    await page.getByRole('alert').filter({ hasText: 'One booking takes at most 3 seats' }).waitFor();
    assert.equal(await page.locator('#submit').innerText(), 'Pay ₹4,500');
    await screenshot(page, 'seat-map-three-390');
    await page.close();
    assert.deepEqual(consoleErrors, []);
  });
});
