// Payment outside the gateway on the hosted page in Chromium (docs/decisions/24-payment-outside-the-gateway.md):
// a buyer using only the keyboard picks bank transfer, and another UPI to the organiser, beside the
// gateway, sees the organiser's instructions, books, and is shown how to pay: the amount, the
// reference in large type, the pay-by time, the instructions and, for UPI, the app link and its QR
// code. A live page books offline with the gateway's script blocked, the embed shows the same
// screen in its frame, and a gateway booking on the same page still pays through the sandbox. Each
// screen is photographed at 1280 and 390 px and checked with axe-core.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { REFERENCE_PATTERN } from '../../src/modules/registrations/offline-reference.js';
import {
  hostPage,
  hostUrl,
  openBrowser,
  openPage,
  shootAt,
  startHostPages,
  tabTo,
  type BrowserSession,
  type HostPages,
} from '../helpers/browser.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_EmulatorKey01', keySecret: 'emulatorsecret000000000' };

const OFFLINE = {
  enabled: true,
  methods: ['bank_transfer', 'upi_to_organiser'],
  instructions: 'HDFC Bank, account 50100012345678, IFSC HDFC0000123.\n\nWrite the reference in the remarks.',
  payWithinDays: 3,
  upiId: 'chessclub@okhdfc',
  upiName: 'Chess Club',
};

describe('payment outside the gateway on the hosted page in Chromium', { timeout: 240_000 }, () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let browser: BrowserSession;
  let host: HostPages;
  let org: Account & KeyInfo;
  let liveOrg: Account & KeyInfo;
  let pk: string;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    // A live event is published only where the service takes live payments: the gateway's emulator.
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({ env: { ...gatewayEnv(rzp, creds), STAFF_EMAILS: staffEmail } });
    browser = await openBrowser();
    host = await startHostPages(server.url);
    org = await organiser(server.url, 'test');
    pk = (
      await createKey(server.url, org.token, { mode: 'test', class: 'checkout', allowedOrigin: host.origin })
    ).key;
    liveOrg = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${liveOrg.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await host?.close();
    await browser?.close();
    await server?.close();
    await rzp?.close();
  });

  const offlineEvent = (o: Account & KeyInfo = org) =>
    createEventData(
      keyApi(server.url, o.key),
      { title: 'Chess Club Open', location: 'Pune', price: 500, capacity: 20, offlinePayment: OFFLINE },
      { publish: true },
    );
  const registrations = async (o: Account & KeyInfo, eventId: string) =>
    (await call(server.url, 'GET', `/api/v1/events/${eventId}/registrations`, { key: o.key })).body.data as {
      status: string;
      awaitingPayment: { method: string; reference: string; payBy: string } | null;
    }[];

  /** Name and email typed, then the method chosen with the arrow keys in the radio group: no mouse. */
  async function fillByKeyboard(page: Page, email: string, downs: number) {
    await tabTo(page, '#name');
    await page.keyboard.type('Priya Nair');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await tabTo(page, '#pm-gateway');
    for (let i = 0; i < downs; i++) await page.keyboard.press('ArrowDown');
  }

  /** The awaiting-payment screen: its reference, amount and pay-by as shown. */
  async function awaiting(page: Page) {
    await page.getByRole('heading', { name: 'Booked: now pay the organiser' }).waitFor();
    assert.ok(
      await page.locator('#result').evaluate((el) => el === document.activeElement),
      'focus moves to it',
    );
    const reference = (await page.locator('#awaiting-reference').textContent())!;
    assert.match(reference, REFERENCE_PATTERN);
    assert.equal(await page.locator('#awaiting-amount').textContent(), '₹500.00');
    assert.match((await page.locator('#awaiting-pay-by').textContent())!, /IST$/);
    assert.match((await page.locator('#awaiting-instructions').textContent())!, /IFSC HDFC0000123/);
    // Large enough to read aloud from a phone.
    const size = await page
      .locator('#awaiting-reference')
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    assert.ok(size >= 24, `reference at ${size} px`);
    return reference;
  }

  it('bank transfer, by keyboard at 1280 px: the instructions, then the reference and pay-by', async () => {
    const ev = await offlineEvent();
    const errors: string[] = [];
    const page = await openPage(browser, `${server.url}/e/${ev.slug}?key=${pk}`, 1280, errors);
    await fillByKeyboard(page, uniqueEmail('bank'), 1);
    assert.ok(await page.locator('#pm-bank_transfer').isChecked());
    await page.locator('#payment-instructions').waitFor({ state: 'visible' });
    assert.equal((await page.locator('#submit').textContent())!.trim(), 'Book now, pay ₹500 later');
    await shootAt(page, 'offline-choose-bank', [
      [360, 740],
      [390, 844],
    ]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await tabTo(page, '#submit');
    await page.keyboard.press('Enter');
    const reference = await awaiting(page);
    assert.equal(await page.locator('#upi-pay').count(), 0, 'no UPI link for a transfer');
    await shootAt(page, 'offline-awaiting-bank');
    const [reg] = await registrations(org, ev.id);
    assert.equal(reg!.status, 'pending');
    assert.deepEqual(
      { method: reg!.awaitingPayment!.method, reference: reg!.awaitingPayment!.reference },
      { method: 'bank_transfer', reference },
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('UPI to the organiser, by keyboard at 390 px: the app link as a button and its QR code', async () => {
    const ev = await offlineEvent();
    const errors: string[] = [];
    const page = await openPage(browser, `${server.url}/e/${ev.slug}?key=${pk}`, 390, errors);
    await fillByKeyboard(page, uniqueEmail('upi'), 2);
    assert.ok(await page.locator('#pm-upi_to_organiser').isChecked());
    await tabTo(page, '#submit');
    await page.keyboard.press('Enter');
    const reference = await awaiting(page);
    const link = page.getByRole('link', { name: 'Pay ₹500.00 with a UPI app' });
    assert.equal(
      await link.getAttribute('href'),
      `upi://pay?pa=chessclub%40okhdfc&pn=Chess%20Club&am=500.00&cu=INR&tn=${reference}`,
    );
    const qr = page.locator('#upi-qr');
    assert.match((await qr.getAttribute('alt'))!, new RegExp(reference));
    assert.ok(
      await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      'the QR draws',
    );
    await tabTo(page, '#upi-pay');
    await shootAt(page, 'offline-awaiting-upi', [
      [360, 740],
      [390, 844],
    ]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a live page books offline with the gateway’s script blocked', async () => {
    const ev = await offlineEvent(liveOrg);
    const errors: string[] = [];
    const blocked = (url: string) => url.includes('razorpay');
    const page = await browser.newPage();
    await page.route('https://checkout.razorpay.com/**', (route) => route.abort());
    page.on('console', (m) => {
      if (m.type() === 'error' && !blocked(m.location().url) && !/razorpay/.test(m.text()))
        errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/e/${ev.slug}`);
    assert.equal(await page.evaluate(() => typeof (window as any).Razorpay), 'undefined');
    await fillByKeyboard(page, uniqueEmail('live'), 1);
    await tabTo(page, '#submit');
    await page.keyboard.press('Enter');
    await awaiting(page);
    assert.equal((await registrations(liveOrg, ev.id))[0]!.status, 'pending');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the embed shows the same screen in its frame; a gateway booking on the same page still pays', async () => {
    const ev = await offlineEvent();
    const errors: string[] = [];
    const url = hostUrl(
      host,
      hostPage(server.url, `<div data-svc-event="${ev.slug}" data-svc-key="${pk}"></div>`),
    );
    const page = await openPage(browser, url, 390, errors);
    const frame = (await (await page.waitForSelector('iframe')).contentFrame())!;
    await frame.waitForSelector('#register-form');
    await frame.getByLabel('Full name').fill('Asha Rao');
    await frame.getByLabel('Email').fill(uniqueEmail('embed'));
    await frame.getByRole('radio', { name: /UPI to the organiser/ }).check();
    await frame.getByRole('button', { name: 'Book now, pay ₹500 later' }).click();
    await frame.getByRole('heading', { name: 'Booked: now pay the organiser' }).waitFor();
    await page.waitForFunction(() => (window as any).__events.length > 0);
    assert.deepEqual(await page.evaluate(() => (window as any).__events), [
      { eventSlug: ev.slug, status: 'pending' },
    ]);
    assert.match((await frame.locator('#upi-pay').getAttribute('href'))!, /^upi:\/\/pay\?/);

    const direct = await openPage(browser, `${server.url}/e/${ev.slug}?key=${pk}`, 1280, errors);
    await direct.getByLabel('Full name').fill('Rohan Das');
    await direct.getByLabel('Email').fill(uniqueEmail('gateway'));
    assert.ok(await direct.locator('#pm-gateway').isChecked(), 'the gateway is the default');
    assert.ok(await direct.locator('#payment-instructions').isHidden());
    await direct.getByRole('button', { name: 'Pay ₹500' }).click();
    await direct.getByRole('button', { name: 'Pay successfully' }).click();
    await direct.getByRole('heading', { name: 'You are registered' }).waitFor();
    const statuses = (await registrations(org, ev.id)).map((r) => r.status).sort();
    assert.deepEqual(statuses, ['confirmed', 'pending']);
    assert.deepEqual(errors, []);
    await page.close();
    await direct.close();
  });
});
