// A two-day event from the dashboard to Day 2's gate (docs/decisions/28-a-persons-day.md), in Chromium: the
// organiser makes one door link per day from the event's overview (the picker offers the whole
// event, each session and each day) and sees what each admits for; the buyer's ticket page of a
// Day 2 booking says Day 2 with its end time and never Day 1's date; at Day 1's gate the ticket is
// refused naming Day 2, at Day 2's gate it is admitted, and back at Day 1's it is still refused
// (not "Already in"). Screenshots at 1280, 390 and 360 px, and axe on each screen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { openBrowser, shootAt, signInToDashboard, type BrowserSession } from '../helpers/browser.js';
import { organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { doorListAdmissionsOf } from '../helpers/rows.js';

const PASSWORD = 'correct horse battery';

describe('a two-day event from the dashboard to Day 2’s gate, in Chromium', { timeout: 300_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let browser: BrowserSession;
  let page: Page;
  let eventId = '';
  let registrationId = '';
  const links: Record<string, string> = {};

  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  const shoot = (p: Page, name: string) =>
    shootAt(p, `two-day-${name}`, [
      [360, 740],
      [390, 844],
    ]);

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    eventId = await createEvent(api, {
      title: 'Winter Music Festival, Bengaluru',
      description: 'Two evenings of music.',
      startDate: '2026-12-20',
      endDate: '2026-12-21',
      tracks: [
        {
          title: 'Day 1',
          startsAt: '2026-12-20T18:30+05:30',
          endsAt: '2026-12-20T21:00+05:30',
          capacity: 50,
        },
        {
          title: 'Day 2',
          startsAt: '2026-12-21T18:30+05:30',
          endsAt: '2026-12-21T21:00+05:30',
          capacity: 50,
        },
      ],
    });
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Asha Second',
      email: 'asha.second@example.in',
      subEventId: '1',
    });
    assert.equal(r.status, 201, r.text);
    registrationId = r.body.registrationId;
    browser = await openBrowser();
    page = await browser.newPage();
    await page.route('https://checkout.razorpay.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the organiser makes a door link for each day from the overview, and sees what each admits for', async () => {
    await signInToDashboard(page, server.url, org.email, PASSWORD, 'test');
    for (const [label, day] of [
      ['Day 1 gate', 'Sun 20 Dec 2026'],
      ['Day 2 gate', 'Mon 21 Dec 2026'],
    ] as const) {
      await page.goto(`${server.url}/dashboard/events/${eventId}`);
      const picker = page.getByLabel(/Admits for/);
      const offered = await picker.locator('option').allInnerTexts();
      assert.deepEqual(offered, [
        'The whole event',
        'Day 1 · Sun 20 Dec 2026, 6:30 pm – 9:00 pm IST',
        'Day 2 · Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST',
        'Sun 20 Dec 2026',
        'Mon 21 Dec 2026',
      ]);
      await page.getByLabel(/^Label/).fill(label);
      await picker.focus();
      await picker.selectOption({ label: day });
      await page.getByRole('button', { name: 'Create a door link' }).click();
      const shown = page.locator('#shown-once');
      await shown.waitFor();
      links[label] = (await shown.innerText()).trim();
      assert.match(links[label]!, /\/door\/[A-Za-z0-9_-]+$/);
    }
    // The event's days in words, as buyers read them: bare days stay days (not 5:30 am, UTC midnight in India).
    assert.match(await page.locator('.facts').innerText(), /When\s+Sun 20 Dec 2026 – Mon 21 Dec 2026/);
    const rows = await page.locator('table[aria-labelledby=passes-h] tbody tr').allInnerTexts();
    assert.ok(
      rows.some((r) => r.includes('Day 1 gate') && r.includes('Sun 20 Dec 2026')),
      rows.join('\n'),
    );
    assert.ok(
      rows.some((r) => r.includes('Day 2 gate') && r.includes('Mon 21 Dec 2026')),
      rows.join('\n'),
    );
    await shoot(page, 'door-links');
  });

  it('the Day 2 ticket’s page says Day 2, with its end time, and nowhere Day 1’s date', async () => {
    const reg = (await api('GET', `/api/v1/events/${eventId}/registrations/${registrationId}`)).body.data;
    await page.goto(
      `${server.url}/t/${attendeeToken(server.deps.config.secretsKey, reg.id, reg.ticketCode ?? reg.id)}`,
    );
    const text = await page.locator('main').innerText();
    assert.ok(text.includes('Day 2'), text);
    assert.ok(text.includes('Mon 21 Dec 2026'), text);
    assert.ok(/9:00\s?pm/.test(text), `the session’s end: ${text}`);
    assert.ok(!text.includes('20 Dec'), `no Day 1 date: ${text}`);
    assert.ok(!/\d{4}-\d{2}-\d{2}T/.test(text), `no raw ISO time: ${text}`);
    await shoot(page, 'ticket-page');
  });

  async function atGate(label: string) {
    const path = new URL(links[label]!).pathname;
    await page.goto(`${server.url}${path}`);
    await page.locator('body[data-ready=true]').waitFor();
    await page.getByLabel('Search by name or ticket code').fill('Asha');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: /^Asha Second ·/ }).click();
  }
  const verdict = () => page.locator('#result .verdict');

  it('refused at Day 1’s gate naming Day 2, admitted at Day 2’s, and still refused at Day 1’s afterwards', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await atGate('Day 1 gate');
    assert.equal(await page.locator('#list').innerText(), 'Admits for: Sun 20 Dec 2026');
    await verdict().filter({ hasText: 'Refused' }).waitFor();
    const refused = await page.locator('#result').innerText();
    assert.ok(refused.includes('valid for Day 2 · Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST'), refused);
    await shoot(page, 'day1-gate-refused');

    await page.setViewportSize({ width: 390, height: 844 });
    await atGate('Day 2 gate');
    await page.getByRole('button', { name: 'Admit', exact: true }).click();
    await verdict().filter({ hasText: 'Admitted' }).waitFor();
    await shoot(page, 'day2-gate-admitted');
    const lists = await doorListAdmissionsOf(server, registrationId);
    assert.deepEqual(
      lists.map((l) => [l.list, l.checked_in_at !== null]),
      [['date:2026-12-21', true]],
      'admitted on Day 2’s list only',
    );

    await atGate('Day 1 gate');
    await verdict().filter({ hasText: 'Refused' }).waitFor();
    assert.ok(
      !(await page.locator('#result').innerText()).includes('Already in'),
      'Day 1’s list never saw this ticket admitted',
    );
  });
});
