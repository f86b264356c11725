// The dashboard's care items (docs/decisions/17-the-organisers-office.md) in Chromium: a test event publishes
// without the grant; tracks are numbered from 1 with their times, removable while nobody
// booked them (refused otherwise); availability per track; registrations filtered by track,
// tier and check-in; lists become cards at 390 px with no horizontal overflow; ledger rows
// link to their booking; "Settle now" in test mode; "Request publishing access" and the
// staff's review; dark mode by prefers-color-scheme. Keyboard-driven where a person types;
// screenshots at 1280 and 390 px; axe-core finds no WCAG 2.1 A/AA violation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { call, createKey, signup, uniqueEmail, type Account } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';

const PASSWORD = 'correct horse battery';

describe('dashboard care in Chromium', { timeout: 300_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;
  let org: Account;
  let key = '';
  let eventId = '';
  const staffEmail = uniqueEmail('staff');
  const consoleErrors: string[] = [];

  async function axe(p: Page, what: string) {
    await p.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await p.evaluate(async () => {
      const r = await (window as any).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return r.violations.map(
        (v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
      );
    });
    assert.deepEqual(violations, [], `axe-core: ${what}`);
  }

  /** Screenshots at 1280 and 390 px; at 390 the document is no wider than the viewport. */
  async function shoot(p: Page, name: string) {
    await p.setViewportSize({ width: 1280, height: 900 });
    await screenshot(p, `care-${name}-1280`);
    await p.setViewportSize({ width: 390, height: 844 });
    const w = await fitsWidth(p);
    assert.ok(w.fits, `${name} fits 390 px: scrollWidth ${w.scrollWidth} > ${w.width}`);
    await screenshot(p, `care-${name}-390`);
    await axe(p, `${name} at 390 px`);
    await p.setViewportSize({ width: 1280, height: 900 });
  }

  async function signIn(p: Page, email: string) {
    await p.goto(`${server.url}/dashboard/login`);
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
  }

  const api = keyApi(
    () => server.url,
    () => key,
  );

  async function paid(body: Record<string, unknown>): Promise<string> {
    const s1 = await api('POST', `/api/v1/events/${eventId}/register`, body);
    assert.equal(s1.status, 201, s1.text);
    const paymentId = await payInSandbox(api, s1.body.orderId);
    const s2 = await api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s1.body.registrationId,
      orderId: s1.body.orderId,
      paymentId,
    });
    assert.equal(s2.status, 200, s2.text);
    return s1.body.registrationId;
  }

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    browser = await openBrowser();
    page = await browser.newPage();
    // The overview's buyer-page preview loads Razorpay's checkout script; this machine has no internet.
    await page.route('https://checkout.razorpay.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico'))
        consoleErrors.push(`${m.location().url}: ${m.text()}`);
    });
    org = await signup(server.url, { name: 'Asha Organiser' });
    key = (await createKey(server.url, org.token, { mode: 'test' })).key;
    eventId = await createEvent(api, {
      title: 'Monsoon Tech Day',
      description: 'Talks and workshops.',
      startDate: '2030-07-11T09:30:00+05:30',
      price: 400,
      capacity: 100,
      specialPrices: [{ name: 'Student', price: 200 }],
      tracks: [
        {
          title: 'Morning talks',
          capacity: 40,
          price: 400,
          date: '2030-07-11T09:30:00+05:30',
          endDate: '2030-07-11T12:30:00+05:30',
        },
        {
          title: 'Afternoon workshop',
          capacity: 20,
          price: 600,
          date: '2030-07-11T14:00:00+05:30',
          endDate: '2030-07-11T17:00:00+05:30',
        },
      ],
    });
    const first = await paid({ name: 'Ravi Kumar', email: 'ravi@example.in', subEventId: '0' });
    await paid({ name: 'Lata Menon', email: 'lata@example.in', subEventId: '0', ticketType: 'Student' });
    await paid({ name: 'Arjun Das', email: 'arjun@example.in', subEventId: '1' });
    const admitted = await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: first });
    assert.ok(admitted.status < 300, admitted.text);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('publishes a test event without the grant, and shows availability per track with times', async () => {
    await signIn(page, org.email);
    await page.goto(`${server.url}/dashboard/events/${eventId}`);
    const publish = page.getByRole('button', { name: 'Publish', exact: true });
    await publish.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Published.').waitFor();
    const avail = page.getByRole('table', { name: 'Per track' });
    const rows = await avail.locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, /^1\. Morning talks/);
    assert.match(rows[0]!, /Thu 11 Jul 2030, 9:30 am – 12:30 pm IST/);
    assert.match(rows[0]!, /\b2\b/, 'two booked on track 1');
    assert.match(rows[1]!, /^2\. Afternoon workshop/);
    assert.doesNotMatch(await page.locator('main').innerText(), /Track 0/);
    await shoot(page, 'overview');
  });

  it('numbers tracks from 1 on setup, adds one with times from the keyboard, removes it, and refuses to remove a booked one', async () => {
    await page.goto(`${server.url}/dashboard/events/${eventId}/setup`);
    await page.getByRole('heading', { name: 'Track 1: Morning talks' }).waitFor();
    assert.equal(await page.getByText(/Track 0/).count(), 0);
    await page.getByLabel('New track title').focus();
    await page.keyboard.type('Evening panel');
    await page
      .getByLabel(/^Starts/)
      .last()
      .fill('2030-07-11T18:00');
    await page.getByLabel(/^Ends/).last().fill('2030-07-11T19:30');
    await page.getByRole('button', { name: 'Add track' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Track added.').waitFor();
    await page.getByRole('heading', { name: 'Track 3: Evening panel' }).waitFor();
    assert.match(
      await page.getByRole('group', { name: 'Track 3: Evening panel' }).innerText(),
      /6:00 pm – 7:30 pm IST/,
    );
    await shoot(page, 'setup');

    // The confirm dialog is accepted (openBrowser accepts every dialog).
    await page.getByRole('button', { name: 'Remove track 3, Evening panel' }).click();
    await page.getByText('Track 3 removed; the tracks after it moved up by one.').waitFor();
    assert.equal(await page.getByRole('heading', { name: /Evening panel/ }).count(), 0);
    const api3 = await api('GET', `/api/v1/events/${eventId}/tracks`);
    assert.equal(api3.body.count, 2);

    await page.getByRole('button', { name: 'Remove track 1, Morning talks' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /has bookings/);
    assert.equal((await api('GET', `/api/v1/events/${eventId}/tracks`)).body.count, 2, 'nothing removed');
    const refused = await api('DELETE', `/api/v1/events/${eventId}/tracks/0`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'track_in_use');
  });

  it('filters registrations by track, tier and check-in; the list is cards at 390 px', async () => {
    await page.goto(`${server.url}/dashboard/events/${eventId}/registrations`);
    const names = async () =>
      (await page.locator('main table tbody tr td[data-label=Name]').allInnerTexts()).sort();
    assert.deepEqual(await names(), ['Arjun Das', 'Lata Menon', 'Ravi Kumar']);
    await page.getByLabel('Track').selectOption({ label: 'Track 1: Morning talks' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/track=0/);
    assert.deepEqual(await names(), ['Lata Menon', 'Ravi Kumar']);
    await page.getByLabel('Ticket').selectOption('Student');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/tier=Student/);
    assert.deepEqual(await names(), ['Lata Menon']);
    await page.goto(`${server.url}/dashboard/events/${eventId}/registrations?checkin=in`);
    assert.deepEqual(await names(), ['Ravi Kumar']);
    await page.goto(`${server.url}/dashboard/events/${eventId}/registrations?checkin=out`);
    assert.deepEqual(await names(), ['Arjun Das', 'Lata Menon']);
    assert.match(await page.locator('main table tbody').innerText(), /Track 2: Afternoon workshop/);

    await page.goto(`${server.url}/dashboard/events/${eventId}/registrations`);
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(
      await page
        .locator('main table tbody tr')
        .first()
        .evaluate((el) => getComputedStyle(el).display),
      'block',
      'a row is a card',
    );
    await shoot(page, 'registrations');
  });

  it('links ledger rows to their booking, and settles pending test sales now so a withdrawal can be tried', async () => {
    await page.goto(`${server.url}/dashboard/money/ledger`);
    assert.doesNotMatch(
      await page.locator('main table').innerText(),
      /reg_/,
      'no raw registration id is shown',
    );
    await shoot(page, 'ledger');
    await page.getByRole('link', { name: 'Booking' }).first().click();
    await page.waitForURL(new RegExp(`/dashboard/events/${eventId}/registrations/reg_`));
    await page.getByRole('heading', { name: 'Actions' }).waitFor();

    await page.goto(`${server.url}/dashboard/money`);
    assert.equal((await page.locator('#bal-available').innerText()).trim(), '₹0');
    await page.getByRole('button', { name: 'Settle now (test)' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(/Test sales settled/).waitFor();
    assert.equal((await page.locator('#bal-available').innerText()).trim(), '₹1,200');
    assert.equal((await page.locator('#bal-pending').innerText()).trim(), '₹0');
    assert.equal(
      await page.getByRole('button', { name: 'Settle now (test)' }).count(),
      0,
      'nothing left to settle',
    );
    await page.getByLabel(/^Amount in rupees/).fill('500');
    await page.getByLabel(/^UPI id/).fill('asha@okaxis');
    await page.getByRole('button', { name: 'Withdraw (test)' }).click();
    await page.getByText(/Test withdrawal of ₹500/).waitFor();
    await shoot(page, 'money');
  });

  it('asks for publishing access from a live event; staff decline it with a reason from their screen', async () => {
    const liveKey = (await createKey(server.url, org.token, { mode: 'live' })).key;
    const liveEventId = await createEvent(keyApi(server.url, liveKey), {
      title: 'Live Meetup',
      startDate: '2030-08-01',
    });
    await page.getByRole('button', { name: 'Live', exact: true }).click();
    await page.locator('.mode button[value=live][aria-pressed=true]').waitFor();
    await page.goto(`${server.url}/dashboard/events/${liveEventId}`);
    assert.equal(await page.getByRole('button', { name: 'Publish', exact: true }).count(), 0);
    await page.getByLabel(/A short note for the staff/).focus();
    await page.keyboard.type('I run the Monsoon Tech Day in Kochi.');
    await page.getByRole('button', { name: 'Request publishing access' }).click();
    await page.getByText(/Publishing access requested\. Platform staff/).waitFor();
    await page.getByText(/Publishing access requested.*Platform staff review it/).waitFor();
    await shoot(page, 'request-access');

    await signup(server.url, { email: staffEmail });
    const staff = await browser.newPage();
    await signIn(staff, staffEmail);
    await staff.getByRole('link', { name: 'Staff' }).click();
    const card = staff.getByRole('listitem').filter({ hasText: org.email });
    await card.waitFor();
    assert.match(await card.innerText(), /I run the Monsoon Tech Day in Kochi\./);
    assert.match(await card.innerText(), /1 test, 1 live/);
    await shoot(staff, 'staff-requests');
    await card.getByLabel(/Reason to decline/).focus();
    await staff.keyboard.type('Please add a link to the event page.');
    await card.getByRole('button', { name: `Decline the request of ${org.email}` }).click();
    await staff.getByText(/was declined; they were mailed the reason/).waitFor();
    const mine = await call(server.url, 'GET', '/dashboard/api/publishing-access', { token: org.token });
    assert.equal(mine.body.requests[0].status, 'declined');
    await page.reload();
    assert.match(await page.locator('main').innerText(), /Please add a link to the event page\./);
  });

  it('follows a dark colour scheme (CSS only) and stays accessible', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.url}/dashboard/events`);
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
      'rgb(13, 17, 23)',
    );
    assert.equal(
      await page.evaluate(
        () => getComputedStyle(document.querySelector('main .card, main table')!).backgroundColor,
      ),
      'rgb(22, 27, 34)',
    );
    await axe(page, 'events list, dark');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.locator('.mode button[value=test][aria-pressed=true]').waitFor();
    await page.goto(`${server.url}/dashboard/events/${eventId}`);
    await axe(page, 'event overview, dark');
    await shoot(page, 'overview-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
      'rgb(246, 248, 250)',
    );
    assert.deepEqual(consoleErrors, []);
  });
});
