// The buyer's ticket in Chromium (docs/decisions/16-the-buyers-ticket.md): on a 390 px page nothing is chosen
// for the buyer, errors show at their fields, the order summary and the button follow the
// choice ("Register" / "Pay ₹X", a promo code priced by the service), the sandbox payment
// confirms, and the confirmation shows what was booked and paid, the ticket's QR and a
// calendar file that a calendar parser reads. An empty [data-svc-button] gets "Get tickets".
// Screenshots at 390 and 1280 px, axe-core, keyboard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import type { ConsoleMessage, Page } from 'playwright-core';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import {
  fitsWidth,
  hostPage,
  hostUrl,
  launchBrowser,
  screenshot,
  startHostPages,
  type Browser,
  type HostPages,
} from '../helpers/browser.js';
import { decodeQr } from '../helpers/qr.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEventData, keyApi } from '../helpers/factories.js';

describe('the buyer’s ticket in Chromium', { timeout: 240_000 }, () => {
  let server: TestServer;
  let host: HostPages;
  let browser: Browser;
  let org: Account & KeyInfo;
  let pk: string;

  before(async () => {
    server = await startServer();
    host = await startHostPages(server.url);
    browser = await launchBrowser();
    org = await organiser(server.url, 'test');
    pk = (
      await createKey(server.url, org.token, { mode: 'test', class: 'checkout', allowedOrigin: host.origin })
    ).key;
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  async function open(url: string, width: number): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 844 });
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') errors.push(`${m.location().url}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    return { page, errors };
  }

  async function axe(page: Page): Promise<string[]> {
    // Evaluated through the debugging protocol: the page's CSP admits no injected script.
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    return page.evaluate(async () => {
      const r = await (window as any).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return r.violations.map(
        (v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
      );
    });
  }

  /** Console errors but the browser's own note that a standalone page has no favicon. */
  const real = (errors: string[]) => errors.filter((e) => !/favicon\.ico/.test(e));
  const summary = (page: Page, row: string) => page.locator(`#sum-${row} dd`).innerText();
  const describedBy = (page: Page, selector: string) =>
    page.locator(selector).getAttribute('aria-describedby');

  it('390 px: summary, errors at fields, a paid test booking, the QR and a valid .ics', async () => {
    const ev = await createEventData(api, {
      title: 'Monsoon Meetup',
      description: 'Talks and chai.',
      startDate: '2026-12-12T10:00+05:30',
      endDate: '2026-12-12T17:30+05:30',
      location: 'Hall 3, Bengaluru',
      price: 0,
      tracks: [{ title: 'Workshop', price: 499, capacity: 20 }],
    });
    assert.equal(
      (await api('POST', `/api/v1/events/${ev.id}/promo-codes`, { code: 'MONSOON', discountAmount: 100 }))
        .status,
      201,
    );
    const { page, errors } = await open(`${server.url}/e/${ev.slug}?key=${pk}`, 390);

    // Nothing is chosen for the buyer: not the free "whole event" over the ₹499 workshop.
    assert.equal(await page.locator('input[name="subEventId"]:checked').count(), 0);
    assert.match(await page.locator('.facts').innerText(), /Sat 12 Dec 2026, 10:00 am – 5:30 pm IST/);
    assert.equal(await summary(page, 'session'), 'not chosen yet');
    const submit = page.locator('#submit');
    assert.equal(await submit.innerText(), 'Choose a session');

    // Pressed with nothing filled in: each error at its own field, the first one focused.
    await submit.click();
    assert.equal(await page.locator('#session').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#session-error').innerText(), 'Choose a session.');
    for (const id of ['name', 'email']) {
      assert.equal(await page.locator(`#${id}`).getAttribute('aria-invalid'), 'true', id);
      assert.ok(
        (await describedBy(page, `#${id}`))!.split(' ').includes(`${id}-error`),
        `${id} is described by its error`,
      );
      assert.ok(await page.locator(`#${id}-error`).isVisible());
    }
    assert.ok(await page.locator('#form-error').isHidden(), 'no error at the bottom of the form');
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'session-none',
      'focus moves to the first field in error',
    );
    await screenshot(page, 'buyer-errors-390');
    assert.deepEqual(await axe(page), [], 'axe-core: the form with its errors');

    // Keyboard: arrows choose within the sessions; the summary and the button follow.
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#session-1, #session-0').first().isChecked(), true);
    assert.equal(await summary(page, 'session'), 'Workshop');
    assert.equal(await summary(page, 'total'), '₹499');
    assert.equal(await submit.innerText(), 'Pay ₹499');
    assert.equal(
      await page.locator('#session').getAttribute('aria-invalid'),
      null,
      'a choice clears its error',
    );
    await page.keyboard.press('ArrowUp');
    assert.equal(await summary(page, 'total'), 'Free');
    assert.equal(await submit.innerText(), 'Register', 'a free choice registers');
    await page.keyboard.press('ArrowDown');

    // Details by keyboard; a promo code is applied with its button, which says what it did.
    await page.locator('#name').focus();
    await page.keyboard.type('Asha Rao');
    await page.keyboard.press('Tab');
    const email = uniqueEmail('asha');
    await page.keyboard.type(email);
    await page.locator('#promo').fill('MONSOON');
    await page.keyboard.press('Tab');
    assert.ok(await page.locator('#sum-discount').isHidden(), 'a typed code changes nothing until applied');
    assert.equal(await page.locator('#promo-status').innerText(), 'Press Apply to use this code.');
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'promo-apply',
      'Apply is next to the code',
    );
    await page.keyboard.press('Enter');
    await page.locator('#promo-status', { hasText: 'Code MONSOON applied: ₹100 off. Total ₹399.' }).waitFor();
    await page.locator('#sum-discount dd', { hasText: '−₹100 (MONSOON)' }).waitFor();
    assert.equal(await summary(page, 'price'), '₹499');
    assert.equal(await summary(page, 'total'), '₹399');
    assert.equal(await submit.innerText(), 'Pay ₹399');
    assert.equal((await fitsWidth(page)).fits, true, 'no sideways scrolling at 390 px');
    await screenshot(page, 'buyer-summary-390');

    await page.locator('#name').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    assert.match(await page.locator('#result').innerText(), /₹399/);
    await page.getByRole('button', { name: 'Pay successfully' }).click();
    await page.getByRole('heading', { name: 'You are registered' }).waitFor();
    await page.locator('#ticket-qr').waitFor();

    const regs = (await api('GET', `/api/v1/events/${ev.id}/registrations`)).body.data as {
      id: string;
      status: string;
      amount: number;
    }[];
    assert.deepEqual(
      regs.map((r) => [r.status, r.amount]),
      [['confirmed', 399]],
    );
    const ticketId = regs[0]!.id;
    const src = (await page.locator('#ticket-qr').getAttribute('src'))!;
    assert.ok(src.startsWith('data:image/png;base64,'));
    assert.equal(
      decodeQr(Buffer.from(src.split(',')[1]!, 'base64')),
      ticketId,
      'the QR on screen is the ticket id',
    );
    const booked = await page.locator('.booked').innerText();
    for (const part of [
      'Monsoon Meetup',
      'Sat 12 Dec 2026, 10:00 am – 5:30 pm IST',
      'Hall 3, Bengaluru',
      'Workshop',
      '₹399',
    ])
      assert.ok(booked.includes(part), `${part} in ${booked}`);
    assert.equal((await fitsWidth(page)).fits, true);
    await screenshot(page, 'buyer-confirmed-390');
    assert.deepEqual(await axe(page), [], 'axe-core: the confirmation');

    // "Add to calendar": a file a calendar parser reads, UID = the ticket id, with a reminder.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Add to calendar (.ics)' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.ics$/);
    const ics = readFileSync((await download.path())!, 'utf8');
    const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
    const entry = new ICAL.Event(vevent);
    assert.equal(entry.uid, ticketId);
    assert.equal(entry.location, 'Hall 3, Bengaluru');
    assert.equal(entry.startDate.toJSDate().toISOString(), '2026-12-12T04:30:00.000Z');
    assert.equal(String(vevent.getFirstSubcomponent('valarm')!.getFirstPropertyValue('trigger')), '-PT1H');
    const google = new URL(
      (await page.getByRole('link', { name: 'Add to Google Calendar' }).getAttribute('href'))!,
    );
    assert.equal(google.hostname, 'calendar.google.com');
    assert.equal(google.searchParams.get('dates'), '20261212T043000Z/20261212T120000Z');
    assert.ok(await page.locator('#wallet-buttons').isHidden(), 'no wallet buttons without wallet settings');

    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'buyer-confirmed-1280');
    assert.deepEqual(real(errors), []);
    await page.close();
  });

  it('a refusal from the service shows at its field; 1280 px screenshot of the summary', async () => {
    const ev = await createEventData(api, { title: 'Jazz night', startDate: '2026-12-19', price: 250 });
    const { page, errors } = await open(`${server.url}/e/${ev.slug}?key=${pk}`, 1280);
    assert.equal(await page.locator('#submit').innerText(), 'Pay ₹250');
    assert.equal(await summary(page, 'total'), '₹250');
    await page.getByLabel('Full name').fill('Asha Rao');
    await page.getByLabel('Email').fill('asha@example.invalid');
    await page.getByLabel('Promo code (optional)').fill('NOSUCHCODE');
    await page.keyboard.press('Enter'); // Enter in the code field applies it, it does not pay
    await page.locator('#promo[aria-invalid="true"]').waitFor();
    assert.ok(await page.locator('#result').isHidden(), 'nothing was booked');
    assert.match(await page.locator('#promo-error').innerText(), /promo code cannot be used/);
    await page.getByLabel('Promo code (optional)').fill('');
    await page.getByRole('button', { name: 'Pay ₹250' }).click();
    await page.locator('#email[aria-invalid="true"]').waitFor();
    assert.match(await page.locator('#email-error').innerText(), /cannot receive mail/);
    assert.ok((await describedBy(page, '#email'))!.split(' ').includes('email-error'));
    assert.ok((await describedBy(page, '#email'))!.split(' ').includes('email-hint'), 'the hint stays');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'email');
    await screenshot(page, 'buyer-field-error-1280');
    assert.deepEqual(await axe(page), []);
    // The only console errors are the browser's notes on the refused (400) calls.
    assert.deepEqual(
      real(errors).filter((e) => !/status of 400/.test(e)),
      [],
    );
    await page.close();
  });

  it('an empty [data-svc-button] shows a clickable “Get tickets”, by mouse and by keyboard', async () => {
    const ev = await createEventData(api, { title: 'Open mic', startDate: '2026-12-26' });
    const { page, errors } = await open(
      hostUrl(
        host,
        hostPage(server.url, `<div id="empty" data-svc-button="${ev.slug}" data-svc-key="${pk}"></div>`),
      ),
      390,
    );
    const button = page.getByRole('button', { name: 'Get tickets' });
    await button.waitFor();
    const box = (await button.boundingBox())!;
    assert.ok(box.width >= 44 && box.height >= 24, `big enough to press: ${JSON.stringify(box)}`);
    await screenshot(page, 'buyer-empty-button-390');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'empty', 'reachable by Tab');
    await page.keyboard.press('Enter');
    await page.locator('dialog[open] iframe').waitFor();
    const frame = (await page.locator('dialog[open] iframe').elementHandle())!.contentFrame();
    await (await frame)!.locator('#register-form').waitFor();
    assert.deepEqual(
      await page.evaluate(() => (window as any).__violations),
      [],
      'no CSP violation on the host page',
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
});
