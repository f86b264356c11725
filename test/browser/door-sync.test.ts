// The door screen never jams (docs/decisions/21-trust-and-safety-third-round.md), in Chromium: offline, the fake camera reads a
// QR with a long payload that is no ticket (600 digits) and a volunteer admits a guest by
// name; back online, the odd scan is set aside and shown, the guest's admit reaches the
// service, and later scans keep syncing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { qrPng } from '../../src/lib/qr-png.js';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { y4mOf } from '../helpers/fake-camera.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { decodeQr } from '../helpers/qr.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';

const JUNK = '1234567890'.repeat(60);

describe('the door screen keeps syncing past a bad scan', { timeout: 240_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let browser: BrowserSession;
  let page: Page;
  let dir: string;
  let eventId: string;
  let token = '';
  const people: Record<string, string> = {};

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const isIn = async (name: string) =>
    (await api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${people[name]}`)).body.data
      .checkedIn as boolean;
  async function admitByName(name: string) {
    await page.getByLabel('Search by name or ticket code').fill(name);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: new RegExp(`^${name} ·`) }).click();
    await page.getByRole('button', { name: 'Admit', exact: true }).click();
    await page.locator('#result .verdict').filter({ hasText: 'Admitted' }).waitFor();
  }

  before(async () => {
    server = await startServer({ env: { BASE_URL: 'https://tickets.example.in' } });
    org = await organiser(server.url);
    eventId = await createEvent(api, { title: 'Rain Check' });
    for (const name of ['Ira Good', 'Jai Later']) {
      const r = await api('POST', `/api/v1/events/${eventId}/register`, { name, email: uniqueEmail('sync') });
      assert.equal(r.status, 201, r.text);
      people[name] = r.body.registrationId;
    }
    const p = await api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'Gate B' });
    token = new URL(p.body.data.url).pathname.split('/')[2]!;

    // The camera shows a QR that is no ticket: 600 digits.
    dir = mkdtempSync(join(tmpdir(), 'door-junk-'));
    const png = qrPng(JUNK, { errorCorrectionLevel: 'M', margin: 2, width: 440 });
    assert.equal(decodeQr(png), JUNK);
    const video = join(dir, 'junk.y4m');
    writeFileSync(video, y4mOf(png));
    browser = await openBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    page = await browser.newPage();
    await page.context().grantPermissions(['camera'], { origin: server.url });
    await page.setViewportSize({ width: 390, height: 844 });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('offline → online with a bad scan queued: it is set aside and shown, the rest reach the service', async () => {
    await page.goto(`${server.url}/door/${token}`);
    await page.locator('body[data-ready=true]').waitFor();
    await page.context().setOffline(true);
    await page.locator('#net', { hasText: 'Offline' }).waitFor();

    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await page
      .locator('#result .verdict')
      .filter({ hasText: 'Not on this device’s list' })
      .waitFor({ timeout: 20_000 });
    await admitByName('Ira Good');
    await page.locator('#queue', { hasText: '2 scans not yet sent' }).waitFor();
    await screenshot(page, 'door-bad-scan-offline-390');

    await page.context().setOffline(false);
    await page.locator('#conflicts').waitFor({ state: 'visible' });
    await page.locator('#queue', { hasText: /^$/ }).waitFor({ state: 'attached' });
    const conflicts = await page.locator('#conflict-list li').allInnerTexts();
    assert.deepEqual(conflicts, [`Code ${JUNK.slice(0, 39)}…: refused — Not a ticket of this event`]);
    assert.equal(await isIn('Ira Good'), true, 'the admit queued beside the bad scan reached the service');
    await screenshot(page, 'door-bad-scan-set-aside-390');
    assert.ok((await fitsWidth(page)).fits, 'a long code wraps: no sideways scrolling');

    // Later scans keep syncing; the set-aside scan stays shown after a reload until dismissed.
    await admitByName('Jai Later');
    await page.locator('#net', { hasText: /^Online$/ }).waitFor();
    assert.equal(await isIn('Jai Later'), true);
    await page.reload();
    await page.locator('body[data-ready=true]').waitFor();
    assert.equal(await page.locator('#conflict-list li').count(), 1);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.locator('#conflicts').waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 360, height: 740 });
    assert.ok((await fitsWidth(page)).fits);
    await screenshot(page, 'door-bad-scan-dismissed-360');
  });
});
