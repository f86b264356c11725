// Prices before buyers see them (docs/decisions/28-a-persons-day.md) in Chromium at 390 and 360 px: the
// buyer's form of a two-day event that sells its days one by one shows no "whole event", and
// each ticket type's price in the chosen day; a promo code typed and left unapplied is applied
// on the first press of Pay and said (not charged silently); the confirmation's header names
// the booked day and its end. The organiser's setup page shows the session × tier price table
// without sideways scrolling. Screenshots, axe-core (WCAG 2.1 A/AA), no console errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { ConsoleMessage, Page } from 'playwright-core';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { createKey, signup, uniqueEmail, type Account } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEventData, keyApi } from '../helpers/factories.js';

const PASSWORD = 'correct horse battery';
const WIDTHS = [390, 360] as const;

describe('prices before buyers see them, in Chromium', { timeout: 300_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let org: Account;
  let key = '';
  let pk = '';
  let ev: { id: string; slug: string };

  const api = keyApi(
    () => server.url,
    () => key,
  );

  before(async () => {
    server = await startServer();
    browser = await openBrowser();
    org = await signup(server.url, { name: 'Asha Organiser' });
    key = (await createKey(server.url, org.token, { mode: 'test' })).key;
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    ev = await createEventData(api, {
      title: 'Two-day fest',
      description: 'Music on two evenings.',
      startDate: '2026-12-20T18:30+05:30',
      endDate: '2026-12-21T21:00+05:30',
      location: 'Bengaluru',
      price: 1500,
      wholeEventOption: false,
      tracks: [
        { title: 'Day 1', price: 1200, startsAt: '2026-12-20T18:30+05:30', endsAt: '2026-12-20T21:00+05:30' },
        { title: 'Day 2', price: 1800, startsAt: '2026-12-21T18:30+05:30', endsAt: '2026-12-21T21:00+05:30' },
      ],
      specialPrices: [{ name: 'Student', price: 500 }],
    });
    assert.equal(
      (await api('POST', `/api/v1/events/${ev.id}/promo-codes`, { code: 'TENOFF', discountPercent: 10 }))
        .status,
      201,
    );
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(width: number): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    await page.setViewportSize({ width, height: 740 });
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error' && !/favicon\.ico/.test(m.location().url))
        errors.push(`${m.location().url}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    return { page, errors };
  }

  async function axe(page: Page, what: string) {
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
    assert.deepEqual(violations, [], `axe-core: ${what}`);
  }

  const priceOf = (page: Page, id: string) => page.locator(`label[for="${id}"] .option-price`).innerText();
  const summary = (page: Page, row: string) => page.locator(`#sum-${row} dd`).innerText();

  for (const width of WIDTHS) {
    it(`${width} px: the chosen day’s tier prices, a promo code that says what it did, and Day 2 in the confirmation’s header`, async () => {
      const { page, errors } = await open(width);
      await page.goto(`${server.url}/e/${ev.slug}?key=${pk}`);
      assert.equal(await page.locator('#session-none').count(), 0, 'the whole event is not sold');
      assert.equal(
        await priceOf(page, 'tier-general'),
        '₹1,200 – ₹1,800',
        'before a day is chosen: the range',
      );
      assert.match(
        await page.locator('label[for="session-1"]').innerText(),
        /Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST/,
      );

      await page.locator('label[for="session-1"]').click();
      assert.equal(await priceOf(page, 'tier-general'), '₹1,800', 'General in Day 2');
      assert.equal(await priceOf(page, 'tier-0'), '₹500');
      assert.equal(await summary(page, 'total'), '₹1,800');
      await page.locator('label[for="session-0"]').click();
      assert.equal(await priceOf(page, 'tier-general'), '₹1,200', 'General in Day 1');
      await page.locator('label[for="session-1"]').click();

      await page.getByLabel('Full name').fill('Asha Rao');
      await page.getByLabel('Email').fill(uniqueEmail(`asha${width}`));
      await page.getByLabel('Promo code (optional)').fill('TENOFF');
      const submit = page.locator('#submit');
      assert.equal(
        await submit.innerText(),
        'Pay ₹1,800',
        'a typed code does not change the price by itself',
      );
      await submit.click();
      // The first press applies the code and says so; nothing is paid yet.
      await page
        .locator('#promo-status', { hasText: 'Code TENOFF applied: ₹180 off. Total ₹1,620.' })
        .waitFor();
      assert.match(await page.locator('#promo-status').innerText(), /press the button again/);
      assert.equal(await submit.innerText(), 'Pay ₹1,620');
      assert.ok(
        await page.locator('#result').isHidden(),
        'nothing booked on the press that applied the code',
      );
      assert.equal(await summary(page, 'discount'), '−₹180 (TENOFF)');
      const w = await fitsWidth(page);
      assert.ok(w.fits, `the form fits ${width} px: ${w.scrollWidth} > ${w.width}`);
      await screenshot(page, `prices-buyer-form-${width}`);
      await axe(page, `the buyer’s form at ${width} px`);

      await submit.click();
      await page.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
      assert.match(await page.locator('#result').innerText(), /₹1,620/);
      await page.getByRole('button', { name: 'Pay successfully' }).click();
      await page.getByRole('heading', { name: 'You are registered' }).waitFor();
      await page.locator('#ticket-qr').waitFor();
      assert.equal(
        await page.locator('#event-when').innerText(),
        'Day 2: Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST',
        'the header names the booked day',
      );
      assert.match(await page.locator('.booked').innerText(), /Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST/);
      const google = new URL(
        (await page.getByRole('link', { name: 'Add to Google Calendar' }).getAttribute('href'))!,
      );
      assert.equal(google.searchParams.get('dates'), '20261221T130000Z/20261221T153000Z');
      assert.ok((await fitsWidth(page)).fits);
      await screenshot(page, `prices-buyer-confirmed-${width}`);
      await axe(page, `the confirmation at ${width} px`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  it('the setup page’s price table at 390 and 360 px, and at 1280', async () => {
    const { page, errors } = await open(1280);
    await page.goto(`${server.url}/dashboard/login`);
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await page.goto(`${server.url}/dashboard/events/${ev.id}/setup`);
    const table = page.getByRole('table', { name: 'Prices buyers see' });
    await table.waitFor();
    assert.deepEqual(
      await table
        .locator('tbody tr')
        .allInnerTexts()
        .then((rows) => rows.map((r) => r.replace(/\s+/g, ' ').trim())),
      ['Track 1: Day 1 ₹1,200 ₹500', 'Track 2: Day 2 ₹1,800 ₹500'],
    );
    await screenshot(page, 'prices-setup-1280');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 740 });
      const w = await fitsWidth(page);
      assert.ok(w.fits, `setup fits ${width} px: ${w.scrollWidth} > ${w.width}`);
      // Under 600 px each row is a card whose cells are labelled by their column.
      const card = await table
        .locator('tbody tr')
        .nth(1)
        .evaluate((tr) => ({
          display: getComputedStyle(tr).display,
          cells: [...tr.querySelectorAll('td')].map(
            (td) => `${getComputedStyle(td, '::before').content.replace(/"/g, '')} ${td.textContent}`,
          ),
        }));
      assert.deepEqual(card, { display: 'block', cells: ['General ₹1,800', 'Student ₹500'] });
      await table.scrollIntoViewIfNeeded();
      await screenshot(page, `prices-setup-${width}`);
      await axe(page, `setup at ${width} px`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});
