// The waiting room's page in Chromium (docs/decisions/26-a-fair-waiting-room.md): at 390 and 360 px
// a buyer joins with the keyboard (the proof of work solved in the page's Web Worker), enters the
// mailed code where the service asks for one, waits with place, people ahead and the wait in words
// shown and announced, keeps the place across a reload, is admitted when the service's clock moves,
// and books within the time left. Before the opening, a countdown to opensAt in IST. Sold out, the
// waiting page says so and offers the waitlist. A lapsed turn says so. The embed shows the same room.
// Time moves by the service's ManualClock and the page's Playwright clock; nothing sleeps.
// Screenshots at 1280 and 390 px (and 360), axe on each screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import {
  assertAccessible,
  type BrowserSession,
  fitsWidth,
  hostPage,
  hostUrl,
  openBrowser,
  openPage,
  shootAt,
  startHostPages,
  tabTo,
  type HostPages,
} from '../helpers/browser.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { place } from '../helpers/queue.js';
import { runJobs } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the waiting room on the hosted page, in Chromium', { timeout: 300_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  let browser: BrowserSession;
  let host: HostPages;
  const consoleErrors: string[] = [];

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    browser = await openBrowser();
    host = await startHostPages(server.url);
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
    assert.deepEqual(consoleErrors, []);
  });
  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  /** A free event behind a room admitting one buyer a minute, with one person already waiting. */
  async function roomEvent(fields: Record<string, unknown> = {}, opensAt: string | null = null) {
    const ev = await createEventData(api, {
      title: 'Coldplay, Navi Mumbai',
      description: 'One night only.',
      capacity: 10,
      waitlist: { enabled: true, offerMinutes: 60 },
      onSale: { opensAt, waitingRoom: { enabled: true, admitPerMinute: 1, sessionMinutes: 10 } },
      ...fields,
    });
    if (opensAt === null) await place(server.url, ev.slug, uniqueEmail('first'));
    return ev;
  }

  async function open(slug: string, width: number): Promise<Page> {
    const page = await openPage(browser, `${server.url}/e/${slug}?key=${pk}`, width, consoleErrors, {
      clock: true,
    });
    // The page's clock reads the service's (the countdowns compare the two).
    await page.clock.setSystemTime(server.clock.now());
    await page.locator('#queue-join').waitFor();
    return page;
  }

  /** Both clocks move by `ms`: the service's, and the page's, which fires its polls and ticks. */
  async function advance(page: Page, ms: number) {
    server.clock.advance(ms);
    await page.clock.runFor(ms);
  }

  /** The code the service mailed to `email` (test mode keeps it in the sandbox's mails). */
  async function mailedCode(email: string): Promise<string> {
    await runJobs(server, { due: true });
    const mails = (await api('GET', '/api/v1/sandbox/emails?limit=1000')).body.data as {
      to: string[];
      text: string;
    }[];
    const mail = mails.filter((m) => m.to.includes(email)).at(-1);
    assert.ok(mail, `a code mailed to ${email}`);
    return /\b(\d{6})\b/.exec(mail.text)![1]!;
  }

  /** Joins with the keyboard, reads the code from the mail and enters it. */
  async function join(page: Page | Frame, email: string) {
    await tabTo(page as Page, '#queue-email');
    await (page as Page).keyboard.type(email);
    await (page as Page).keyboard.press('Enter');
    await page.locator('#queue-verify:not([hidden])').waitFor();
    assert.match(
      await page.locator('#queue-status').innerText(),
      /^We sent a code to \w\*\*\*@example\.in\./,
    );
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'queue-code');
    await (page as Page).keyboard.type(await mailedCode(email));
    await (page as Page).keyboard.press('Enter');
    await page.locator('#queue-wait:not([hidden])').waitFor();
  }

  const shown = (page: Page | Frame, id: string) => page.locator(`#${id}`).innerText();

  for (const width of [390, 360]) {
    it(`at ${width} px: joins by keyboard, waits, keeps the place over a reload, is admitted and books`, async () => {
      const ev = await roomEvent();
      const page = await open(ev.slug, width);
      assert.ok(await page.locator('#booking').isHidden(), 'no booking form before the queue admits');
      const email = uniqueEmail('asha');
      await join(page, email);
      await page.waitForFunction(() => document.getElementById('queue-position')!.textContent === '2');
      assert.equal(await shown(page, 'queue-ahead'), '1');
      assert.equal(await shown(page, 'queue-estimate'), 'about 2 minutes');
      assert.equal(
        await shown(page, 'queue-status'),
        'Place 2 in the queue, 1 ahead of you, about 2 minutes to wait.',
      );
      assert.equal(await page.locator('#queue-status').getAttribute('aria-live'), 'polite');
      if (width === 390) await shootAt(page, 'waiting-room-waiting');
      else {
        assert.ok((await fitsWidth(page)).fits);
        await assertAccessible(page, `the waiting screen at ${width} px`);
      }

      // A minute on: the person ahead is let in, the page says so within 5 s, quietly.
      await advance(page, 60_000);
      await page.waitForFunction(
        () => document.getElementById('queue-ahead')!.textContent === 'You are next',
      );
      assert.equal(await shown(page, 'queue-position'), '2');

      await page.reload();
      await page.waitForFunction(() => document.getElementById('queue-position')!.textContent === '2');
      assert.ok(await page.locator('#queue-join').isHidden(), 'the reload came back to the place');

      await advance(page, 60_000);
      await page.locator('#booking:not([hidden])').waitFor();
      assert.ok(await page.locator('#queue').isHidden());
      assert.match(await shown(page, 'queue-session'), /^Your turn: (10:00|9:\d\d) left to book$/);
      assert.equal(await page.locator('#email').inputValue(), email.toLowerCase());
      assert.equal(await page.locator('#email').getAttribute('readonly'), '');
      if (width === 390) await shootAt(page, 'waiting-room-admitted');
      await tabTo(page, '#name');
      await page.keyboard.type('Asha Rao');
      await tabTo(page, '#submit');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'You are registered' }).waitFor();
      const regs = (await api('GET', `/api/v1/events/${ev.id}/registrations`)).body.data as {
        email: string;
      }[];
      assert.ok(regs.some((r) => r.email === email.toLowerCase()));
      await page.close();
    });
  }

  it('before the opening: a countdown to opensAt in IST, then places once it opens', async () => {
    const opensAt = new Date(server.clock.now().getTime() + 2 * 3600_000 + 5 * 60_000);
    const ev = await roomEvent({}, opensAt.toISOString());
    const page = await open(ev.slug, 390);
    await join(page, uniqueEmail('early'));
    await page.locator('#queue-countdown:not([hidden])').waitFor();
    assert.match(await shown(page, 'queue-opens'), /IST$/);
    assert.equal(await shown(page, 'queue-countdown'), 'Opens in 2 h 05 min');
    assert.ok(await page.locator('#queue-position-row').isHidden());
    await shootAt(page, 'waiting-room-before-opening');
    await advance(page, 2 * 3600_000 + 5 * 60_000);
    await page.waitForFunction(() => document.getElementById('queue-position')!.textContent === '1');
    await page.close();
  });

  it('sold out: everyone waiting is told, and offered the waitlist', async () => {
    const ev = await roomEvent({ capacity: 1 });
    const page = await open(ev.slug, 390);
    const email = uniqueEmail('ravi');
    await join(page, email);
    await page.waitForFunction(() => document.getElementById('queue-position')!.textContent === '2');
    const last = await api('POST', `/api/v1/events/${ev.id}/register`, {
      name: 'Kiran',
      email: uniqueEmail('k'),
    });
    assert.equal(last.status, 201, last.text);
    await advance(page, 5_000);
    await page.locator('#queue-sold-out:not([hidden])').waitFor();
    assert.equal(await shown(page, 'queue-status'), 'Sold out: the queue has closed.');
    assert.equal(await page.locator('#wl-email').inputValue(), email.toLowerCase());
    await shootAt(page, 'waiting-room-sold-out');
    await tabTo(page, '#wl-name');
    await page.keyboard.type('Ravi Kumar');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
    await page.close();
  });

  it('a turn not used in time says it lapsed', async () => {
    const ev = await roomEvent();
    const page = await open(ev.slug, 390);
    await join(page, uniqueEmail('late'));
    await page.waitForFunction(() => document.getElementById('queue-position')!.textContent === '2');
    await advance(page, 120_000);
    await page.locator('#booking:not([hidden])').waitFor();
    await advance(page, 10 * 60_000);
    await page.locator('#queue-closed:not([hidden])').waitFor();
    assert.ok(await page.locator('#booking').isHidden());
    assert.equal(await shown(page, 'queue-status'), 'Your time to book has run out.');
    await assertAccessible(page, 'the lapsed turn');
    await page.close();
  });

  it('the embed shows the same room', async () => {
    const ev = await roomEvent();
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(
      hostUrl(host, hostPage(server.url, `<div data-svc-event="${ev.slug}" data-svc-key="${pk}"></div>`)),
    );
    const frame = (await (await page.waitForSelector('iframe')).contentFrame())!;
    await frame.locator('#queue-join').waitFor();
    assert.ok(await frame.locator('#booking').isHidden());
    const email = uniqueEmail('embed');
    await frame.locator('#queue-email').fill(email);
    await frame.locator('#queue-join-submit').click();
    await frame.locator('#queue-verify:not([hidden])').waitFor();
    await frame.locator('#queue-code').fill(await mailedCode(email));
    await frame.locator('#queue-verify-submit').click();
    await frame.waitForFunction(() => document.getElementById('queue-position')!.textContent === '2');
    await page.close();
  });
});
