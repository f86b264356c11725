// The embedded checkout in a real browser: a host page on another origin (with a strict
// CSP) uses embed.js; the hosted page registers, pays through the sandbox stand-in or
// a stubbed Razorpay checkout.js, and tells the host `svc:registered`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import type { ConsoleMessage, Frame, Page } from 'playwright-core';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import {
  hostPage,
  hostUrl,
  launchBrowser,
  SCREENSHOTS,
  startHostPages,
  WAIT_MS,
  type Browser,
  type HostPages,
} from '../helpers/browser.js';
import { startRazorpayEmulator, type RazorpayEmulator, gatewayEnv } from '../helpers/razorpay-emulator.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { checkoutSignature } from '../../src/modules/checkout/signature.js';
import { createEventData, keyApi } from '../helpers/factories.js';

const creds = { keyId: 'rzp_live_EmulatorKey01', keySecret: 'emulatorsecret000000000' };
const CHECKOUT_JS = 'https://checkout.razorpay.com/v1/checkout.js';
// Stands in for Razorpay's checkout.js: records the options and lets the test play the buyer.
const FAKE_CHECKOUT_JS = `window.__rzp = { opened: 0, options: null };
window.Razorpay = function (options) { this.options = options; this.handlers = {}; };
window.Razorpay.prototype.on = function (name, fn) { this.handlers[name] = fn; };
window.Razorpay.prototype.open = function () { window.__rzp.opened++; window.__rzp.options = this.options; window.__rzp.instance = this; };`;

describe('embedded checkout in Chromium', { timeout: 240_000 }, () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let host: HostPages;
  let browser: Browser;
  let testOrg: Account & KeyInfo;
  let pk: string;
  let liveOrg: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      isolatedDatabase: true,
      env: { ...gatewayEnv(rzp, creds), STAFF_EMAILS: staffEmail },
    });
    host = await startHostPages(server.url);
    browser = await launchBrowser();
    await browser.context.route(CHECKOUT_JS, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_CHECKOUT_JS }),
    );
    testOrg = await organiser(server.url, 'test');
    pk = (
      await createKey(server.url, testOrg.token, {
        mode: 'test',
        class: 'checkout',
        allowedOrigin: host.origin,
      })
    ).key;
    liveOrg = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${liveOrg.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
    await rzp?.close();
  });

  const event = (org: Account & KeyInfo, fields: Record<string, unknown>, publish = false) =>
    createEventData(
      keyApi(server.url, org.key),
      {
        title: 'Monsoon Meetup',
        description: 'Talks and chai.\n\nBring a friend.',
        location: 'Bengaluru',
        ...fields,
      },
      { publish },
    );

  /** A fresh page; console errors (from the host and every frame) are collected. */
  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') errors.push(`${m.location().url}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    return { page, errors };
  }

  async function frameOf(page: Page): Promise<Frame> {
    const handle = await page.waitForSelector('iframe');
    const frame = await handle.contentFrame();
    assert.ok(frame);
    await frame.waitForSelector('#register-form, #sold-out, main');
    return frame;
  }

  async function fillDetails(frame: Frame, email: string) {
    await frame.getByLabel('Full name').fill('Asha Rao');
    await frame.getByLabel('Email').fill(email);
  }

  const events = (page: Page) =>
    page.evaluate(() => (window as any).__events as { eventSlug: string; status: string }[]);
  const waitForEvent = (page: Page) =>
    page.waitForFunction(() => (window as any).__events.length > 0, undefined, { timeout: WAIT_MS });

  /** What the host received: only the envelope, the slug and the status; no id, name or email. */
  async function assertCleanMessages(page: Page) {
    const messages = await page.evaluate(() => (window as any).__messages as { origin: string; data: any }[]);
    assert.ok(messages.length > 0);
    for (const m of messages) {
      assert.equal(m.origin, server.url);
      assert.equal(m.data.ns, 'svc');
      assert.equal(m.data.v, 1);
      const allowed: Record<string, string[]> = {
        ready: [],
        resize: ['height'],
        registered: ['eventSlug', 'status'],
        close: [],
      };
      assert.ok(m.data.type in allowed, m.data.type);
      assert.deepEqual(Object.keys(m.data).sort(), ['ns', 'type', 'v', ...allowed[m.data.type]!].sort());
      const text = JSON.stringify(m.data);
      assert.doesNotMatch(text, /@|reg_|tkt_|Asha/);
    }
    assert.deepEqual(
      await page.evaluate(() => (window as any).__violations),
      [],
      'no CSP violation on the host page',
    );
  }

  it('inline free booking: svc:registered confirmed, the ticket mail, no inner scrollbar, no console errors', async () => {
    const ev = await event(testOrg, {
      capacity: 50,
      maxTeamSize: 2,
      customFields: [
        { name: 'tshirt', label: 'T-shirt size', type: 'select', options: ['S', 'M', 'L'], required: true },
      ],
    });
    const { page, errors } = await open(
      hostUrl(
        host,
        hostPage(server.url, `<div id="tickets" data-svc-event="${ev.slug}" data-svc-key="${pk}"></div>`),
      ),
    );
    const frame = await frameOf(page);
    // The frame grows to its content: no inner scrollbar.
    await page.waitForFunction(
      () => parseInt((document.querySelector('iframe') as HTMLIFrameElement).style.height, 10) > 600,
    );
    const sizes = await frame.evaluate(() => ({
      scroll: document.documentElement.scrollHeight,
      inner: window.innerHeight,
    }));
    assert.ok(sizes.scroll <= sizes.inner + 1, `content ${sizes.scroll}px fits the frame ${sizes.inner}px`);
    await page.screenshot({ path: join(SCREENSHOTS, 'inline-desktop.png'), fullPage: true });

    const email = uniqueEmail('asha');
    await fillDetails(frame, email);
    await frame.getByLabel('T-shirt size').selectOption('M');
    await frame.getByRole('button', { name: 'Add a team member' }).click();
    await frame.getByLabel('Team member 1: name').fill('Ravi Rao');
    await frame.getByLabel('Team member 1: email').fill(uniqueEmail('ravi'));
    await frame.getByRole('button', { name: 'Register' }).click();
    await waitForEvent(page);
    assert.deepEqual(await events(page), [{ eventSlug: ev.slug, status: 'confirmed' }]);
    assert.deepEqual(await page.evaluate(() => (window as any).__elementEvents), [
      { eventSlug: ev.slug, status: 'confirmed' },
    ]);
    await frame.getByRole('heading', { name: 'You are registered' }).waitFor();
    await assertCleanMessages(page);
    await page.screenshot({ path: join(SCREENSHOTS, 'inline-confirmed.png'), fullPage: true });

    const mails = async () =>
      (await call(server.url, 'GET', '/api/v1/sandbox/emails', { key: testOrg.key })).body.data as {
        to: string[];
        attachments: string[];
      }[];
    await drainJobs(server, async () => (await mails()).some((m) => m.to.includes(email)));
    assert.ok(
      (await mails()).find((m) => m.to.includes(email))!.attachments.length > 0,
      'the ticket mail carries its QR',
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('screenshots of the hosted page at desktop and phone width', async () => {
    const ev = await event(testOrg, {
      price: 499,
      capacity: 100,
      specialPrices: [
        { name: 'Early bird', price: 299, capacity: 20 },
        { name: 'Members', price: 199, membersOnly: true },
      ],
      tracks: [{ title: 'Workshop: Kysely in practice', price: 799, capacity: 12 }],
      customFields: [
        { name: 'company', label: 'Company', type: 'text' },
        { name: 'veg', label: 'Vegetarian meal', type: 'checkbox' },
      ],
    });
    const url = `${server.url}/e/${ev.slug}?key=${pk}&origin=${encodeURIComponent(host.origin)}`;
    const { page, errors } = await open(url);
    await page.screenshot({ path: join(SCREENSHOTS, 'page-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENSHOTS, 'page-phone.png'), fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.equal(overflow, 0, 'nothing wider than a phone');
    // Keyboard: the first control is reachable by Tab and every input has a label.
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select')]
        .filter((i) => !(i as HTMLInputElement).labels?.length)
        .map((i) => i.outerHTML),
    );
    assert.deepEqual(unlabelled, []);
    await page.keyboard.press('Tab');
    assert.ok(await page.evaluate(() => document.activeElement?.tagName === 'INPUT'));
    assert.deepEqual(errors, []);
    await page.close();

    // The overlay on a phone fits the screen.
    const host2 = await open(
      hostUrl(
        host,
        hostPage(
          server.url,
          `<p><button id="b" data-svc-button="${ev.slug}" data-svc-key="${pk}">Get tickets</button></p>`,
        ),
      ),
    );
    await host2.page.setViewportSize({ width: 390, height: 844 });
    await host2.page.click('#b');
    await frameOf(host2.page);
    const box = (await host2.page.locator('dialog[open]').boundingBox())!;
    assert.ok(
      box.x >= 0 && box.y >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844,
      JSON.stringify(box),
    );
    await host2.page.screenshot({ path: join(SCREENSHOTS, 'overlay-phone.png') });
    assert.deepEqual(host2.errors, []);
    await host2.page.close();
  });

  it('paid test booking through the sandbox stand-in; a failed payment stays pending and can be retried', async () => {
    const ev = await event(testOrg, { price: 250 });
    const { page, errors } = await open(
      hostUrl(host, hostPage(server.url, `<div data-svc-event="${ev.slug}" data-svc-key="${pk}"></div>`)),
    );
    const frame = await frameOf(page);
    await fillDetails(frame, uniqueEmail('paid'));
    await frame.getByRole('button', { name: 'Pay ₹250' }).click();
    await frame.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'sandbox-checkout.png'), fullPage: true });
    await frame.getByRole('button', { name: 'Fail the payment' }).click();
    await frame.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    const regs = async () =>
      (await call(server.url, 'GET', `/api/v1/events/${ev.id}/registrations`, { key: testOrg.key })).body
        .data as { status: string }[];
    assert.deepEqual(
      (await regs()).map((r) => r.status),
      ['pending'],
    );
    await frame.getByRole('button', { name: 'Try the payment again' }).click();
    await frame.getByRole('button', { name: 'Pay successfully' }).click();
    await waitForEvent(page);
    assert.deepEqual(await events(page), [{ eventSlug: ev.slug, status: 'confirmed' }]);
    assert.deepEqual(
      (await regs()).map((r) => r.status),
      ['confirmed'],
      'one booking, confirmed',
    );
    await assertCleanMessages(page);
    assert.deepEqual(errors, []);
    // No gateway script on a test page.
    assert.equal(await frame.evaluate(() => document.querySelectorAll('script[src*="razorpay"]').length), 0);
    await page.close();
  });

  it('paid live booking through checkout.js (stubbed): the signed handler confirms, a forged signature is refused', async () => {
    const ev = await event(liveOrg, { price: 500 }, true);
    const { page, errors } = await open(
      hostUrl(host, hostPage(server.url, `<div data-svc-event="${ev.slug}"></div>`)),
    );
    const frame = await frameOf(page);
    const regs = async () =>
      (await call(server.url, 'GET', `/api/v1/events/${ev.id}/registrations`, { key: liveOrg.key })).body
        .data as { status: string; email: string }[];

    // A forged signature first: refused, the booking stays pending and the page offers a retry.
    const email = uniqueEmail('live');
    await fillDetails(frame, email);
    await frame.getByRole('button', { name: 'Pay ₹500' }).click();
    await frame.waitForFunction(() => (window as any).__rzp?.opened === 1);
    const options = await frame.evaluate(() => {
      const o = (window as any).__rzp.options;
      return { key: o.key, order_id: o.order_id, amount: o.amount, currency: o.currency, prefill: o.prefill };
    });
    assert.equal(options.key, creds.keyId);
    assert.equal(options.amount, 50000);
    assert.deepEqual(options.prefill, { name: 'Asha Rao', email, contact: '' });
    const payment = rzp.pay(options.order_id);
    await frame.evaluate((fields) => (window as any).__rzp.options.handler(fields), {
      razorpay_order_id: options.order_id,
      razorpay_payment_id: String(payment.id),
      razorpay_signature: checkoutSignature(options.order_id, String(payment.id), 'not-the-secret'),
    });
    await frame.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    assert.deepEqual(
      (await regs()).map((r) => r.status),
      ['pending'],
    );
    assert.deepEqual(await events(page), []);

    // Dismissed, then retried: the same order opens again, and the real signature confirms.
    await frame.getByRole('button', { name: 'Try the payment again' }).click();
    await frame.waitForFunction(() => (window as any).__rzp.opened === 2);
    await frame.evaluate(() => (window as any).__rzp.options.modal.ondismiss());
    await frame.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    assert.ok(await frame.getByRole('link', { name: 'Open the payment page in a new tab' }).isVisible());
    await frame.getByRole('button', { name: 'Try the payment again' }).click();
    await frame.waitForFunction(() => (window as any).__rzp.opened === 3);
    assert.equal(
      await frame.evaluate(() => (window as any).__rzp.options.order_id),
      options.order_id,
      'the retry reuses the order',
    );
    await frame.evaluate((fields) => (window as any).__rzp.options.handler(fields), {
      razorpay_order_id: options.order_id,
      razorpay_payment_id: String(payment.id),
      razorpay_signature: checkoutSignature(options.order_id, String(payment.id), creds.keySecret),
    });
    await waitForEvent(page);
    assert.deepEqual(await events(page), [{ eventSlug: ev.slug, status: 'confirmed' }]);
    assert.deepEqual(
      (await regs()).map((r) => r.status),
      ['confirmed'],
    );
    await assertCleanMessages(page);
    // The only console error is the browser's note on the refused (402) call.
    assert.deepEqual(
      errors.filter((e) => !/status of 402/.test(e)),
      [],
    );
    await page.close();
  });

  it('approval: the host hears status pending', async () => {
    const ev = await event(testOrg, { requiresApproval: true });
    const { page, errors } = await open(
      hostUrl(host, hostPage(server.url, `<div data-svc-event="${ev.slug}" data-svc-key="${pk}"></div>`)),
    );
    const frame = await frameOf(page);
    await fillDetails(frame, uniqueEmail('approve'));
    await frame.getByRole('button', { name: 'Register' }).click();
    await waitForEvent(page);
    assert.deepEqual(await events(page), [{ eventSlug: ev.slug, status: 'pending' }]);
    await frame.getByRole('heading', { name: 'Awaiting approval' }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('button: the overlay dialog, then the popup window', async () => {
    const ev = await event(testOrg, {});
    const markup = `<p><button id="overlay" data-svc-button="${ev.slug}" data-svc-key="${pk}">Get tickets</button>
<button id="popup" data-svc-button="${ev.slug}" data-svc-key="${pk}" data-svc-mode="popup">Get tickets in a window</button></p>`;
    const { page, errors } = await open(hostUrl(host, hostPage(server.url, markup)));

    await page.click('#overlay');
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    const frame = await frameOf(page);
    await page.screenshot({ path: join(SCREENSHOTS, 'overlay-desktop.png') });
    await fillDetails(frame, uniqueEmail('overlay'));
    await frame.getByRole('button', { name: 'Register' }).click();
    await waitForEvent(page);
    await frame.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'overlay',
      'focus returns to the button',
    );

    const [popup] = await Promise.all([browser.context.waitForEvent('page'), page.click('#popup')]);
    await popup.waitForSelector('#register-form');
    assert.equal(new URL(popup.url()).origin, server.url);
    await fillDetails(popup.mainFrame(), uniqueEmail('popup'));
    await popup.getByRole('button', { name: 'Register' }).click();
    await page.waitForFunction(() => (window as any).__events.length === 2);
    assert.deepEqual(await events(page), [
      { eventSlug: ev.slug, status: 'confirmed' },
      { eventSlug: ev.slug, status: 'confirmed' },
    ]);
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Done' }).click()]);
    await assertCleanMessages(page);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('is framed only by the origin its key is pinned to, whatever origin= claims', async () => {
    const ev = await event(testOrg, {});
    // A page on another origin frames the checkout directly, claiming to be the pinned host.
    const src = `${server.url}/e/${ev.slug}?embed=inline&key=${pk}&origin=${encodeURIComponent(host.origin)}`;
    const evil = hostPage(server.url, `<iframe src="${src}" width="1000" height="900"></iframe>`, {
      embed: false,
    });
    const { page } = await open(hostUrl(host, evil, host.otherOrigin));
    const handle = await page.waitForSelector('iframe');
    const frame = await handle.contentFrame();
    assert.ok(frame);
    await frame.waitForLoadState('load');
    // frame-ancestors names the pinned origin only: the browser shows its error page instead.
    assert.ok(!frame.url().startsWith(server.url), `the frame stayed at ${frame.url()}`);
    assert.equal(await frame.locator('#register-form').count(), 0);
    assert.deepEqual(
      await page.evaluate(() => (window as any).__messages),
      [],
      'nothing reached the other origin',
    );
    await page.close();
  });

  it('shows a test event only with its key, and a live event only when published', async () => {
    const test = await event(testOrg, {});
    const { page } = await open(
      hostUrl(host, hostPage(server.url, `<div data-svc-event="${test.slug}"></div>`)),
    );
    const frame = await frameOf(page);
    await frame.getByRole('heading', { name: 'Event not found' }).waitFor();
    assert.equal(await frame.locator('#register-form').count(), 0);
    await page.close();
    const draft = await event(liveOrg, {});
    assert.equal((await call(server.url, 'GET', `/e/${draft.slug}`)).status, 404);
    assert.equal((await call(server.url, 'GET', `/e/${test.slug}`)).status, 404);
    assert.equal(
      (await call(server.url, 'GET', `/e/${test.slug}?key=${pk}&origin=${encodeURIComponent(host.origin)}`))
        .status,
      200,
    );
  });
});
