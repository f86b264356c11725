// The door screen in Chromium, as a volunteer with only the link uses it: a real
// ticket's QR shown to a fake camera (a .y4m made here from the QR PNG the ticket mail
// carries), admitted, then "already in"; the network dropped, three admits queued, one
// ticket refunded meanwhile and one admitted by a second device; back online, exactly
// those two conflicts, and the counts agree with the API; a revoked pass shut out at
// once; no email, phone or money anywhere on the page or in what it fetched.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ticketQrPng } from '../../src/modules/tickets/ticket-mail.js';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { decodeQr } from '../helpers/qr.js';
import { y4mOf } from '../helpers/fake-camera.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';

const PHONE = '+919812345678';

describe('the door screen in Chromium', { timeout: 240_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let browser: BrowserSession;
  let page: Page;
  let dir: string;
  let eventId: string;
  let token = '';
  let passId = '';
  const people: Record<string, { id: string; email: string }> = {};
  const fetched: string[] = [];

  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  async function book(name: string): Promise<{ id: string; email: string }> {
    const email = uniqueEmail('door');
    const { registrationId } = await paidBooking(api, eventId, { name, email, phone: PHONE });
    return { id: registrationId, email };
  }

  const verdict = () => page.locator('#result .verdict');
  async function findAndOpen(name: string) {
    await page.getByLabel('Search by name or ticket code').fill(name);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: new RegExp(`^${name} ·`) }).click();
  }

  before(async () => {
    server = await startServer({ isolatedDatabase: true, env: { BASE_URL: 'https://tickets.example.in' } });
    org = await organiser(server.url);
    eventId = await createEvent(api, { title: 'Monsoon Meetup', price: 499 });
    for (const name of ['Asha Scanned', 'Bela Offline', 'Chitra Refunded', 'Dev Elsewhere', 'Esha Later'])
      people[name] = await book(name);
    const p = await api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'Gate A' });
    assert.equal(p.status, 201, p.text);
    passId = p.body.data.id;
    token = new URL(p.body.data.url).pathname.split('/')[2]!;

    // The camera shows Asha's ticket: the PNG the ticket mail attaches, as video.
    dir = mkdtempSync(join(tmpdir(), 'door-camera-'));
    const png = ticketQrPng(people['Asha Scanned']!.id);
    assert.equal(decodeQr(png), people['Asha Scanned']!.id);
    const video = join(dir, 'ticket.y4m');
    writeFileSync(video, y4mOf(png));
    browser = await openBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    page = await browser.newPage();
    await page.context().grantPermissions(['camera'], { origin: server.url });
    page.on('response', async (r) => {
      if (r.url().startsWith(server.url + '/api/')) fetched.push(await r.text().catch(() => ''));
    });
    await page.setViewportSize({ width: 390, height: 844 });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scans the ticket’s QR from the camera: admitted, then already in with the time', async () => {
    await page.goto(`${server.url}/door/${token}`);
    await page.locator('body[data-ready=true]').waitFor();
    assert.equal(await page.locator('#expected').innerText(), '5');
    await screenshot(page, 'door-ready-390');
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await verdict().filter({ hasText: 'Admitted' }).waitFor({ timeout: 20_000 });
    assert.equal(
      await page.locator('body').getAttribute('data-decoder'),
      'jsqr',
      'headless Chromium on Linux has no BarcodeDetector: the shipped decoder read the frame',
    );
    assert.ok((await page.locator('#result').innerText()).includes('Asha Scanned'));
    await page.locator('#arrived', { hasText: '1' }).waitFor();
    await page.locator('#net', { hasText: /^Online$/ }).waitFor();
    const look = await api(
      'GET',
      `/api/v1/events/${eventId}/check-in?registrationId=${people['Asha Scanned']!.id}`,
    );
    assert.equal(look.body.data.checkedIn, true, 'the service admitted her');
    await screenshot(page, 'door-admitted-390');

    await page.getByRole('button', { name: 'Scan next' }).click();
    await verdict().filter({ hasText: 'Already in' }).waitFor({ timeout: 20_000 });
    const text = await page.locator('#result').innerText();
    const at = new Date(look.body.data.members[0].checkedInAt).toLocaleTimeString('en-IN', {
      timeZone: 'Asia/Kolkata',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    assert.ok(text.includes(`Admitted at ${at}`), text);
    assert.ok(text.includes('Gate A'), text);
    await screenshot(page, 'door-already-in-390');
    // axe-core, evaluated through the debugging protocol (the page's CSP admits no injected script).
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const r = await (window as any).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return r.violations.map(
        (v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
      );
    });
    assert.deepEqual(violations, [], 'axe-core finds no WCAG 2.1 A/AA violations');
    assert.ok((await fitsWidth(page)).fits, 'no sideways scrolling at 390 px');
  });

  it('offline: three admits queue; back online, exactly the two conflicts show and the counts agree with the API', async () => {
    await page.context().setOffline(true);
    await page.locator('#net', { hasText: 'Offline' }).waitFor();
    // Meanwhile, through the API: Chitra is refunded; a second device admits Dev.
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/registrations/${people['Chitra Refunded']!.id}/refund`))
        .status,
      200,
    );
    const other = await call(server.url, 'POST', `/api/v1/events/${eventId}/door/sync`, {
      headers: { authorization: `DoorPass ${token}` },
      body: {
        deviceId: 'phone-2',
        scans: [{ seq: 1, ticketId: people['Dev Elsewhere']!.id, action: 'admit' }],
      },
    });
    assert.equal(other.body.data.results[0].status, 'admitted');

    for (const name of ['Bela Offline', 'Chitra Refunded', 'Dev Elsewhere']) {
      await findAndOpen(name);
      await page.getByRole('button', { name: 'Admit', exact: true }).click();
      await verdict().filter({ hasText: 'Admitted' }).waitFor();
    }
    await page.locator('#queue', { hasText: '3 scans not yet sent' }).waitFor();
    assert.equal(await page.locator('#arrived').innerText(), '4', 'the device counts its own admits');
    await screenshot(page, 'door-offline-390');

    await page.context().setOffline(false);
    await page.locator('#conflicts').waitFor({ state: 'visible' });
    await page.locator('#queue', { hasText: /^$/ }).waitFor({ state: 'attached' });
    const conflicts = await page.locator('#conflict-list li').allInnerTexts();
    assert.equal(conflicts.length, 2, conflicts.join('\n'));
    assert.match(conflicts[0]!, /^Chitra Refunded: refused — Booking refunded$/);
    assert.match(
      conflicts[1]!,
      new RegExp(
        `^Dev Elsewhere: already in — by Gate A · device ${createHash('sha256').update('phone-2').digest('hex').slice(0, 4)} at \\d\\d:\\d\\d:\\d\\d`,
      ),
    );
    await screenshot(page, 'door-conflicts-390');

    const roster = await api('GET', `/api/v1/events/${eventId}/door/roster`);
    assert.deepEqual(
      roster.body.data.counts,
      { arrived: 3, expected: 4 },
      'Asha, Bela, Dev in; Chitra refunded',
    );
    await page.locator('#arrived', { hasText: /^3$/ }).waitFor();
    await page.locator('#expected', { hasText: /^4$/ }).waitFor();
    const analytics = await api('GET', `/api/v1/events/${eventId}/analytics`);
    assert.equal(analytics.body.checkedInCount, 3);
  });

  it('shows no email, phone or money on the page or in anything it fetched', async () => {
    const shown = (await page.content()) + fetched.join('\n');
    assert.ok(fetched.length >= 3, 'the page fetched the roster and synced');
    for (const p of Object.values(people)) {
      assert.ok(!shown.includes(p.email), `an email address: ${p.email}`);
      assert.ok(!shown.includes(p.id), 'a ticket id');
    }
    for (const secret of ['9812345678', '₹', 'paise', 'amount', '"email"', '"phone"'])
      assert.ok(!shown.includes(secret), `shows ${secret}`);
    // The price as a number of its own (not three digits inside a hash, a time's milliseconds or a cursor).
    assert.doesNotMatch(shown, /(?<![\w.:])499(?!\w)/, 'shows the price');
  });

  it('at 1280 px too', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await findAndOpen('Esha Later');
    await screenshot(page, 'door-search-1280');
    assert.ok((await fitsWidth(page)).fits);
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('a revoked pass stops working at once, on the open page and on reload', async () => {
    assert.equal((await api('DELETE', `/api/v1/events/${eventId}/door-passes/${passId}`)).status, 200);
    await page.getByRole('button', { name: 'Admit', exact: true }).click();
    await page.getByRole('heading', { name: 'This door link does not work' }).waitFor();
    assert.match(await page.locator('main').innerText(), /revoked/);
    const look = await api(
      'GET',
      `/api/v1/events/${eventId}/check-in?registrationId=${people['Esha Later']!.id}`,
    );
    assert.equal(look.body.data.checkedIn, false, 'nothing admitted after the revocation');
    await screenshot(page, 'door-revoked-390');
    const r = await page.goto(`${server.url}/door/${token}`);
    assert.equal(r?.status(), 403);
    await page.getByRole('heading', { name: 'This door link does not work' }).waitFor();
  });
});
