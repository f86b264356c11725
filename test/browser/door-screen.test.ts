// The door screen of a day's list (docs/decisions/28-a-persons-day.md) in Chromium at 390 and 360 px, as a
// volunteer at Day 2's gate: the fake camera shows a Day 2 ticket; the verdict (name, reason,
// Undo, Next) is in view without scrolling at 360 × 740 with the camera on; offline, the
// screen refuses a Day 1 ticket naming its session and shows a transferred ticket's old QR as
// transferred; and a reload with no network opens the screen again from its service worker,
// with its roster and queue. At a seated event (docs/decisions/23-reserved-seating.md) the verdict
// shows the scanned person's seat big beside the name, in view with the camera on at 360 × 740,
// and a team booking lists each member's seat; offline too, from the roster.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ticketQrPng } from '../../src/modules/tickets/ticket-mail.js';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { y4mOf } from '../helpers/fake-camera.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { doorListAdmissionsOf } from '../helpers/rows.js';

describe('the door screen of a day’s list, on a small phone and offline', { timeout: 300_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let browser: BrowserSession;
  let page: Page;
  let dir: string;
  let eventId: string;
  let token = '';
  const people: Record<string, string> = {};
  let oldQr = '';

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const verdict = () => page.locator('#result .verdict');

  /** Every one of these is wholly inside the viewport: seen without scrolling. */
  async function inView(what: Record<string, ReturnType<Page['locator']>>) {
    const viewport = page.viewportSize()!;
    const scrollY = await page.evaluate(() => window.scrollY);
    for (const [name, locator] of Object.entries(what)) {
      // Waits for it to be shown, then measures it; the screen may draw the verdict again in
      // between (the roster's sync), so a node gone before it is measured is found again.
      let box: Awaited<ReturnType<typeof locator.boundingBox>> = null;
      for (let attempt = 0; attempt < 5 && box === null; attempt++) {
        await locator.waitFor({ state: 'visible' });
        box = await locator.boundingBox();
      }
      assert.ok(box, `${name} is shown`);
      assert.ok(
        box.y >= 0 && box.y + box.height <= viewport.height,
        `${name} in view at ${viewport.width}×${viewport.height} (top ${box.y}, bottom ${box.y + box.height}, scrolled ${scrollY})`,
      );
    }
  }
  async function book(name: string, track: number | null): Promise<string> {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name,
      email: uniqueEmail('screen'),
      ...(track === null ? {} : { subEventId: String(track) }),
    });
    assert.equal(r.status, 201, r.text);
    return r.body.registrationId;
  }
  async function find(q: string) {
    await page.getByLabel('Search by name or ticket code').fill(q);
    await page.getByRole('button', { name: 'Find' }).click();
  }

  before(async () => {
    server = await startServer({ env: { BASE_URL: 'https://tickets.example.in' } });
    org = await organiser(server.url);
    eventId = await createEvent(api, {
      title: 'Winter Music Festival, Bengaluru',
      startDate: '2026-12-20',
      endDate: '2026-12-21',
      tracks: [
        {
          title: 'Day 1',
          date: '2026-12-20T18:30:00+05:30',
          endDate: '2026-12-20T21:00:00+05:30',
          capacity: 50,
        },
        {
          title: 'Day 2',
          date: '2026-12-21T18:30:00+05:30',
          endDate: '2026-12-21T21:00:00+05:30',
          capacity: 50,
        },
      ],
    });
    people['Asha Second'] = await book('Asha Second', 1);
    people['Bela First'] = await book('Bela First', 0);
    people['Cara Whole'] = await book('Cara Whole', null);
    oldQr = await book('Old Holder', 1);
    const t = await api('POST', `/api/v1/events/${eventId}/registrations/${oldQr}/transfer`, {
      name: 'New Holder',
      email: uniqueEmail('new'),
    });
    assert.equal(t.status, 200, t.text);
    const p = await api('POST', `/api/v1/events/${eventId}/door-passes`, {
      label: 'Day 2 gate',
      scope: { date: '2026-12-21' },
    });
    assert.equal(p.status, 201, p.text);
    token = new URL(p.body.data.url).pathname.split('/')[2]!;

    dir = mkdtempSync(join(tmpdir(), 'door-screen-'));
    const video = join(dir, 'ticket.y4m');
    writeFileSync(video, y4mOf(ticketQrPng(people['Asha Second']!)));
    browser = await openBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    page = await browser.newPage();
    await page.context().grantPermissions(['camera'], { origin: server.url });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('with the camera on, the verdict — name, reason, Undo, Next — is in view at 390 × 844 and 360 × 740', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/door/${token}`);
    await page.locator('body[data-ready=true]').waitFor();
    assert.equal(await page.locator('#list').innerText(), 'Admits for: Mon 21 Dec 2026');
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await verdict().filter({ hasText: 'Admitted' }).waitFor({ timeout: 20_000 });
    await inView({
      verdict: verdict(),
      name: page.locator('#result .who', { hasText: 'Asha Second' }),
      Undo: page.getByRole('button', { name: 'Undo' }),
      Next: page.getByRole('button', { name: 'Scan next' }),
    });
    assert.ok(
      (await page.locator('#result').innerText()).includes('Day 2 · Mon 21 Dec 2026'),
      'the session it is valid for',
    );
    await screenshot(page, 'door-list-admitted-390');

    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('button', { name: 'Scan next' }).click();
    await verdict().filter({ hasText: 'Already in' }).waitFor({ timeout: 20_000 });
    await inView({
      verdict: verdict(),
      name: page.locator('#result .who', { hasText: 'Asha Second' }),
      reason: page.locator('#result .detail', { hasText: /^Admitted at .* by Day 2 gate/ }),
      Undo: page.getByRole('button', { name: 'Undo' }),
      Next: page.getByRole('button', { name: 'Scan next' }),
    });
    assert.ok((await fitsWidth(page)).fits, 'no sideways scrolling at 360 px');
    await screenshot(page, 'door-list-already-in-360');
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
    // The service worker has kept the page, its files and the roster.
    await page.locator('body[data-offline-shell=ready]').waitFor({ state: 'attached' });
    await page.waitForFunction(async () => (await (await caches.open('door-shell-v1')).keys()).length >= 5);
  });

  it('offline, the list’s rules come from the roster: another day’s ticket names its session; an old QR says transferred', async () => {
    await page.context().setOffline(true);
    await page.locator('#net', { hasText: 'Offline' }).waitFor();
    await find('Bela First');
    await page.getByRole('button', { name: /^Bela First ·/ }).click();
    await verdict().filter({ hasText: 'Refused' }).waitFor();
    const refused = await page.locator('#result').innerText();
    assert.ok(
      refused.includes(
        'Ticket for another session: valid for Day 1 · Sun 20 Dec 2026, 6:30 pm – 9:00 pm IST',
      ),
      refused,
    );
    await inView({
      verdict: verdict(),
      name: page.locator('#result .who', { hasText: 'Bela First' }),
      Next: page.getByRole('button', { name: 'Scan next' }),
    });
    await screenshot(page, 'door-list-wrong-session-offline-360');

    await find(oldQr);
    await page
      .locator('#result .detail', { hasText: 'Ticket transferred: scan the new holder’s QR' })
      .waitFor();
    const text = await page.locator('#result').innerText();
    assert.ok(!text.includes('Holder'), `the old QR names nobody: ${text}`);
    await screenshot(page, 'door-list-transferred-offline-360');
  });

  it('reloads with no network: the service worker opens the screen with its roster and queue', async () => {
    // Offline still: a whole-event ticket admitted here waits in the queue.
    await find('Cara Whole');
    await page.getByRole('button', { name: /^Cara Whole ·/ }).click();
    await page.getByRole('button', { name: 'Admit', exact: true }).click();
    await verdict().filter({ hasText: 'Admitted' }).waitFor();
    await page.locator('#queue', { hasText: '1 scan not yet sent' }).waitFor();
    assert.equal(
      await page.evaluate(() =>
        fetch('/healthz').then(
          () => 'reached',
          () => 'offline',
        ),
      ),
      'offline',
      'the network is really gone',
    );

    const reloaded = await page.reload();
    assert.ok(reloaded?.fromServiceWorker(), 'the page came from the service worker');
    await page.locator('body[data-ready=true]').waitFor();
    await page.locator('#net', { hasText: 'Offline · 1 scan waiting' }).waitFor();
    assert.equal(await page.locator('#list').innerText(), 'Admits for: Mon 21 Dec 2026');
    await find('Asha');
    await page.getByRole('button', { name: /^Asha Second ·/ }).waitFor();
    await screenshot(page, 'door-offline-reload-360');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.ok((await fitsWidth(page)).fits);
    await screenshot(page, 'door-offline-reload-390');

    await page.context().setOffline(false);
    await page.locator('#queue', { hasText: /^$/ }).waitFor({ state: 'attached' });
    const admitted = (await doorListAdmissionsOf(server, people['Cara Whole']!)).find(
      (a) => a.list === 'date:2026-12-21',
    );
    assert.ok(admitted?.checked_in_at, 'the admit queued before the reload reached the service');
  });

  it('serves the worker with its scope and policy; a revoked pass is forgotten', async () => {
    const sw = await call(server.url, 'GET', '/door/sw.js');
    assert.equal(sw.status, 200);
    assert.match(sw.headers.get('content-type') ?? '', /text\/javascript/);
    assert.equal(sw.headers.get('service-worker-allowed'), '/door/');
    assert.match(sw.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(sw.headers.get('cache-control'), 'no-cache');
    const page1 = await call(server.url, 'GET', `/door/${token}`);
    assert.match(page1.headers.get('content-security-policy') ?? '', /worker-src 'self'/);

    const passes = await api('GET', `/api/v1/events/${eventId}/door-passes`);
    assert.equal(
      (await api('DELETE', `/api/v1/events/${eventId}/door-passes/${passes.body.data[0].id}`)).status,
      200,
    );
    const r = await page.reload();
    assert.equal(r?.status(), 403);
    await page.getByRole('heading', { name: 'This door link does not work' }).waitFor();
    const kept = await page.evaluate(
      async (path) => !!(await (await caches.open('door-shell-v1')).match(path)),
      `/door/${token}`,
    );
    assert.equal(kept, false, 'the revoked page is no longer kept');
  });
});

describe('the door screen of a seated event shows each person’s seat', { timeout: 300_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let browser: BrowserSession;
  let page: Page;
  let dir: string;
  let eventId: string;
  let token = '';
  let single = '';
  let team: { id: string; ticketIds: string[] };

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const verdict = () => page.locator('#result .verdict');
  async function book(name: string, seats: string[], members: string[] = []) {
    const h = await api('POST', `/api/v1/events/${eventId}/seats/hold`, { seats });
    assert.equal(h.status, 201, h.text);
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name,
      email: uniqueEmail('seated'),
      holdToken: h.body.data.holdToken,
      teamMembers: members.map((m) => ({ name: m, email: uniqueEmail('member') })),
    });
    assert.equal(r.status, 201, r.text);
    return { id: r.body.registrationId as string, ticketIds: r.body.ticketIds as string[] };
  }
  async function find(q: string) {
    await page.getByLabel('Search by name or ticket code').fill(q);
    await page.getByRole('button', { name: 'Find' }).click();
  }

  before(async () => {
    server = await startServer({ env: { BASE_URL: 'https://tickets.example.in' } });
    org = await organiser(server.url);
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Rangashankara',
      grid: { sections: [{ name: 'Stalls', rows: 3, seatsPerRow: 6, category: 'Gold' }] },
    });
    assert.equal(plan.status, 201, plan.text);
    eventId = await createEvent(api, {
      title: 'Hamlet, Rangashankara',
      startDate: '2026-12-20',
      seatingPlanId: plan.body.data.id,
      specialPrices: [{ name: 'Gold', price: 0 }],
      maxTeamSize: 4,
    });
    single = (await book('Sita Single', ['Stalls-C-4'])).id;
    team = await book('Tara Lead', ['Stalls-A-1', 'Stalls-A-2', 'Stalls-A-3'], ['Uma Member', 'Vani Member']);
    const p = await api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'Stalls door' });
    assert.equal(p.status, 201, p.text);
    token = new URL(p.body.data.url).pathname.split('/')[2]!;

    dir = mkdtempSync(join(tmpdir(), 'door-seated-'));
    const video = join(dir, 'ticket.y4m');
    writeFileSync(video, y4mOf(ticketQrPng(single)));
    browser = await openBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    page = await browser.newPage();
    await page.context().grantPermissions(['camera'], { origin: server.url });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a scanned ticket’s seat is in view beside the name at 360 × 740 with the camera on', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${server.url}/door/${token}`);
    await page.locator('body[data-ready=true]').waitFor();
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await verdict().filter({ hasText: 'Admitted' }).waitFor({ timeout: 20_000 });
    const seat = page.locator('#result .seat');
    assert.equal(await seat.innerText(), 'Seat: Stalls · Row C, seat 4');
    // Measured in one go: the screen may draw the verdict again meanwhile (the roster's sync).
    const boxes = await page.evaluate(() =>
      ['.verdict', '.who', '.seat', 'button.undo', 'button.next'].map((sel) => {
        const r = document.querySelector(`#result ${sel}`)!.getBoundingClientRect();
        return { sel, top: r.top, bottom: r.bottom, height: r.height };
      }),
    );
    const [who, seatBox] = [boxes[1]!, boxes[2]!];
    assert.ok(
      seatBox.top >= who.bottom - 1 && seatBox.top - who.bottom < 20,
      'the seat right under the name',
    );
    assert.ok(seatBox.height >= 24, `big: ${seatBox.height}px tall`);
    const viewport = page.viewportSize()!;
    for (const b of boxes)
      assert.ok(b.top >= 0 && b.bottom <= viewport.height, `${b.sel} in view: ${JSON.stringify(b)}`);
    assert.ok((await fitsWidth(page)).fits, 'no sideways scrolling at 360 px');
    await screenshot(page, 'door-seated-admitted-360');
  });

  it('a member’s own QR shows their seat; the booking’s QR lists every member’s seat', async () => {
    await find(team.ticketIds[1]!);
    await verdict().filter({ hasText: 'Admitted' }).waitFor();
    assert.equal(await page.locator('#result .who').innerText(), 'Uma Member');
    assert.equal(await page.locator('#result > .seat').innerText(), 'Seat: Stalls · Row A, seat 2');

    await find(team.id);
    await verdict().filter({ hasText: 'Not in yet' }).waitFor();
    assert.equal(
      await page.locator('#result > .seat').count(),
      0,
      'a booking of three: no one seat as the verdict’s',
    );
    const people = page.getByRole('list', { name: 'People on this booking' }).getByRole('listitem');
    assert.deepEqual(await people.locator('.name').allInnerTexts(), [
      'Tara Lead',
      'Uma Member',
      'Vani Member',
    ]);
    assert.deepEqual(await people.locator('.seat').allInnerTexts(), [
      'Seat: Stalls · Row A, seat 1',
      'Seat: Stalls · Row A, seat 2',
      'Seat: Stalls · Row A, seat 3',
    ]);
    assert.ok((await fitsWidth(page)).fits);
    await screenshot(page, 'door-seated-team-360');
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
    await page.getByRole('button', { name: 'Admit everyone left' }).click();
    await verdict().filter({ hasText: 'Admitted' }).waitFor();
  });

  it('offline, a name search shows the seat from the device’s roster', async () => {
    await page.context().setOffline(true);
    await page.locator('#net', { hasText: 'Offline' }).waitFor();
    await find('Vani');
    await page.getByRole('button', { name: 'Vani Member · Stalls · Row A, seat 3 · Gold · in' }).click();
    await verdict().filter({ hasText: /^In$/ }).waitFor();
    assert.equal(await page.locator('#result .who').innerText(), 'Vani Member');
    assert.equal(await page.locator('#result > .seat').innerText(), 'Seat: Stalls · Row A, seat 3');
    await screenshot(page, 'door-seated-offline-360');
    await page.context().setOffline(false);
  });
});
