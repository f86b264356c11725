// In Chromium at 390 px: join the waitlist of a sold-out test event on the hosted page,
// open the offer link from the captured mail, pay through the sandbox stand-in, open the
// attendee's page from the ticket mail and transfer the ticket, with the keyboard.
// Screenshots at 1280 and 390 px; axe-core finds no WCAG 2.1 A/AA violation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fitsWidth, openBrowser, screenshot, WAIT_MS, type BrowserSession } from '../helpers/browser.js';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEventData, keyApi, paidBooking } from '../helpers/factories.js';
import { runJobs as runDueJobs } from '../helpers/rows.js';

describe('waitlist and the attendee page in Chromium', { timeout: 240_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let org: Account & KeyInfo;
  let pk: string;

  before(async () => {
    server = await startServer({ env: { WORKERS: 'false' } });
    browser = await openBrowser();
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const mails = async () =>
    (await api('GET', '/api/v1/sandbox/emails?limit=1000')).body.data as {
      to: string[];
      subject: string;
      text: string;
    }[];
  const runJobs = () => runDueJobs(server, { due: true });
  const local = (url: string) => server.url + new URL(url).pathname + new URL(url).search;

  async function axe(page: Page, what: string) {
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

  async function paidSeat(eventId: string): Promise<string> {
    return (await paidBooking(api, eventId, { name: 'Holder', email: uniqueEmail('holder') })).registrationId;
  }

  it('joins, books from the offer, and transfers from the ticket page', async () => {
    const { id, slug } = await createEventData(api, {
      title: 'Sold Out Sessions',
      description: 'A small room.',
      startDate: '2026-12-20',
      location: 'Pune',
      price: 250,
      capacity: 1,
      waitlist: { enabled: true, offerMinutes: 60 },
      selfService: { transfer: true, cancel: true, cutoffHours: 24, refund: 'full' },
    });
    const holder = await paidSeat(id);

    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/e/${slug}?key=${pk}`);
    await page.locator('#sold-out').waitFor();
    await screenshot(page, 'waitlist-join-390');
    await axe(page, 'the sold-out page with its waitlist form');
    assert.ok((await fitsWidth(page)).fits);
    const email = uniqueEmail('meera');
    // Keyboard only: focus the name, type, tab to the email, type, Enter submits.
    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('Meera Iyer');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
    assert.match(await page.locator('main').innerText(), /number 1 on the waitlist/);

    // The holder cancels: the seat is offered to Meera by mail.
    assert.equal((await api('POST', `/api/v1/events/${id}/registrations/${holder}/cancel`)).status, 200);
    await runJobs();
    const offer = (await mails()).find((m) => m.to.includes(email) && /held for you/.test(m.subject))!;
    const link = /(https?:\/\/\S+\?offer=\S+)/.exec(offer.text)![1]!;
    await page.goto(local(link));
    await page.locator('#offer-held').waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'waitlist-offer-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'waitlist-offer-390');
    await axe(page, 'the offer page');
    await page.getByLabel('Full name').fill('Meera Iyer');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: /^Pay ₹/ }).click();
    await page.getByRole('button', { name: 'Pay successfully' }).click();
    await page.getByRole('heading', { name: 'You are registered' }).waitFor({ timeout: WAIT_MS });
    const regs = (await api('GET', `/api/v1/events/${id}/registrations`)).body.data as any[];
    const meera = regs.find((r) => r.email === email.toLowerCase() || r.email === email);
    assert.equal(meera.status, 'confirmed');
    assert.equal((await api('GET', `/api/v1/events/${id}/waitlist`)).body.data[0].status, 'booked');

    // The ticket mail links her own page; she transfers the ticket with the keyboard.
    await runJobs();
    const ticket = (await mails()).find((m) => m.to.includes(email) && /Your ticket/.test(m.subject))!;
    const own = /(https?:\/\/\S+\/t\/\S+)/.exec(ticket.text)![1]!;
    await page.goto(local(own));
    await page.getByRole('heading', { name: 'Your ticket' }).waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'attendee-page-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'attendee-page-390');
    assert.ok((await fitsWidth(page)).fits, 'no sideways scrolling at 390 px');
    await axe(page, 'the attendee page');
    await page.getByLabel('Their name').focus();
    await page.keyboard.type('Ravi Kumar');
    await page.keyboard.press('Tab');
    await page.keyboard.type(uniqueEmail('ravi'));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/transfer$/);
    assert.match(await page.locator('main').innerText(), /Ticket transferred/);
    await screenshot(page, 'attendee-transferred-390');
    const after = (await api('GET', `/api/v1/events/${id}/registrations/${meera.id}`)).body.data;
    assert.equal(after.name, 'Ravi Kumar');
    const door = await api('POST', `/api/v1/events/${id}/check-in`, { registrationId: meera.id });
    assert.equal(door.body.reason, 'transferred');
    await page.goto(local(own));
    assert.match(await page.locator('main').innerText(), /not valid/);
  });
});
