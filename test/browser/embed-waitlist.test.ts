// Joining a waitlist inside the embed with a checkout key pinned to the host's origin, in
// Chromium: the hosted page's plain form posts from inside the frame (a browser sends
// `Origin: null` for it, the page's referrer policy being no-referrer), and the join must
// still pass the pin. A refusal inside the widget leaves a way back to the event.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import {
  hostPage,
  hostUrl,
  launchBrowser,
  screenshot,
  startHostPages,
  type Browser,
  type HostPages,
} from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEventData, keyApi } from '../helpers/factories.js';

describe('the waitlist inside the embed, with a pinned key, in Chromium', { timeout: 240_000 }, () => {
  let server: TestServer;
  let host: HostPages;
  let browser: Browser;
  let org: Account & KeyInfo;
  let pk: string;

  before(async () => {
    server = await startServer({ env: { WORKERS: 'false' } });
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

  async function soldOutEvent(): Promise<{ id: string; slug: string }> {
    const { id, slug } = await createEventData(api, {
      title: 'Tiny Room',
      description: 'One seat.',
      capacity: 1,
      waitlist: { enabled: true, offerMinutes: 60 },
    });
    assert.equal(
      (await api('POST', `/api/v1/events/${id}/register`, { name: 'First', email: uniqueEmail('first') }))
        .status,
      201,
    );
    return { id, slug };
  }

  async function frameOf(page: Page): Promise<Frame> {
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    assert.ok(frame);
    return frame;
  }

  for (const width of [390, 360]) {
    it(`joins from the inline frame at ${width} px`, async () => {
      const ev = await soldOutEvent();
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(
        hostUrl(host, hostPage(server.url, `<div data-svc-event="${ev.slug}" data-svc-key="${pk}"></div>`)),
      );
      const frame = await frameOf(page);
      await frame.locator('#sold-out').waitFor();
      const email = uniqueEmail('wait');
      await frame.getByLabel('Name', { exact: true }).fill('Meera Iyer');
      await frame.getByLabel('Email').fill(email);
      await frame.getByRole('button', { name: 'Join the waitlist' }).click();
      await frame.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
      assert.match(await frame.locator('main').innerText(), /number 1 on the waitlist/);
      await screenshot(page, `embed-waitlist-joined-${width}`);
      const queue = (await api('GET', `/api/v1/events/${ev.id}/waitlist`)).body.data as { email: string }[];
      assert.deepEqual(
        queue.map((e) => e.email),
        [email],
      );
      await page.close();
    });
  }

  it('a refusal inside the frame links back to the event, still pinned', async () => {
    const ev = await soldOutEvent();
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(
      hostUrl(host, hostPage(server.url, `<div data-svc-event="${ev.slug}" data-svc-key="${pk}"></div>`)),
    );
    const frame = await frameOf(page);
    await frame.locator('#sold-out').waitFor();
    // A seat comes free while the form is open: the join is refused (seats_available).
    const regs = (await api('GET', `/api/v1/events/${ev.id}/registrations`)).body.data as { id: string }[];
    assert.equal(
      (await api('POST', `/api/v1/events/${ev.id}/registrations/${regs[0]!.id}/cancel`)).status,
      200,
    );
    await frame.getByLabel('Name', { exact: true }).fill('Ravi');
    await frame.getByLabel('Email').fill(uniqueEmail('ravi'));
    await frame.getByRole('button', { name: 'Join the waitlist' }).click();
    await frame.getByRole('link', { name: 'Back to the event' }).waitFor();
    await screenshot(page, 'embed-waitlist-refused-390');
    assert.doesNotMatch(await frame.locator('main').innerText(), /pinned/);
    await frame.getByRole('link', { name: 'Back to the event' }).click();
    // Back on the event's page inside the same frame: a seat is free again, so the form shows.
    await frame.locator('#register-form').waitFor();
    assert.equal(new URL(frame.url()).searchParams.get('embed'), 'inline');
    await page.close();
  });
});
