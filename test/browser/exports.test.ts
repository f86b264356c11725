// The dashboard's CSV downloads in Chromium (docs/decisions/17-the-organisers-office.md): each screen's button downloads a file
// that csv-parse reads back with every cell intact and no formula (a name with a comma,
// quotes and a line break, Indian scripts and ₹, `=HYPERLINK(…)` and `-2+3` shown as text);
// each screen checked with axe-core and photographed at 1280 and 390 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { fitsWidth, openBrowser, screenshot, type BrowserSession } from '../helpers/browser.js';
import { call, createKey, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi, paidBooking, payInSandbox } from '../helpers/factories.js';

const PASSWORD = 'a long enough password';
const HYPERLINK = '=HYPERLINK("http://evil.example/","Click")';

describe('CSV downloads in Chromium', { timeout: 240_000 }, () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;
  let key = '';
  let eventId = '';
  const email = uniqueEmail('exports');
  const api = keyApi(
    () => server.url,
    () => key,
  );

  before(async () => {
    server = await startServer();
    browser = await openBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function axe(): Promise<void> {
    // Evaluated through the debugging protocol: the pages' CSP admits no injected script.
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
  }

  /** Photographs the page at 1280 and 390 px (the phone width must not scroll sideways). */
  async function shoot(name: string): Promise<void> {
    await screenshot(page, `exports-${name}-desktop`);
    await page.setViewportSize({ width: 390, height: 844 });
    const w = await fitsWidth(page);
    assert.ok(w.fits, `${name} fits 390 px: ${w.scrollWidth}`);
    await screenshot(page, `exports-${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** Clicks a download control and reads the file it saves. */
  async function download(
    control: ReturnType<Page['getByRole']>,
  ): Promise<{ filename: string; header: string[]; rows: string[][]; bytes: Buffer }> {
    const [file] = await Promise.all([page.waitForEvent('download'), control.click()]);
    const bytes = readFileSync((await file.path())!);
    const [header = [], ...rows] = parse(bytes, { bom: true }) as string[][];
    return { filename: file.suggestedFilename(), header, rows, bytes };
  }

  it('signs up, and the registrations screen downloads its list with every cell intact', async () => {
    await page.goto(`${server.url}/dashboard/signup`);
    await page.getByLabel('Your name').fill('Lakshmi Organiser');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/dashboard\/verify/);
    const login = await call(server.url, 'POST', '/auth/login', { body: { email, password: PASSWORD } });
    key = (await createKey(server.url, login.body.idToken, { mode: 'test', class: 'full' })).key;

    eventId = await createEvent(api, {
      title: 'Kathakali evening',
      price: 500,
      customFields: [{ name: 'city', label: 'City', type: 'text' }],
    });
    assert.equal(
      (
        await api('PUT', '/api/v1/gst/settings', {
          gstin: '29AAGCR4375J1ZU',
          legalName: 'Kalamandalam Arts',
          address: 'Cheruthuruthy, Thrissur',
        })
      ).status,
      200,
    );
    const names = ['Nair, "Unni"\nKrishnan', HYPERLINK, '-2+3', 'ശ്രീലക്ഷ്മി ₹500'];
    for (const [i, name] of names.entries()) {
      await paidBooking(api, eventId, {
        name,
        email: uniqueEmail('guest'),
        customFields: { city: i === 1 ? '@Kochi' : 'Kochi, Kerala' },
      });
    }

    await page.goto(`${server.url}/dashboard/events/${eventId}/registrations`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const f = await download(page.getByRole('link', { name: 'Download CSV' }));
    assert.match(f.filename, /^registrations-kathakali-evening[a-z0-9-]*-test-\d{4}-\d{2}-\d{2}\.csv$/);
    assert.deepEqual(f.bytes.subarray(0, 3), Buffer.from([0xef, 0xbb, 0xbf]));
    const name = f.header.indexOf('name');
    const city = f.header.indexOf('City');
    const invoice = f.header.indexOf('invoice_number');
    // Booked at the same instant (the test clock stands still): in id order, so compared as sets.
    assert.deepEqual(
      f.rows.map((r) => [r[name], r[city]]).sort(),
      [
        ['Nair, "Unni"\nKrishnan', 'Kochi, Kerala'],
        [`'${HYPERLINK}`, "'@Kochi"],
        ["'-2+3", 'Kochi, Kerala'],
        ['ശ്രീലക്ഷ്മി ₹500', 'Kochi, Kerala'],
      ].sort(),
    );
    assert.ok(
      f.rows.every((r) => /^TIXI\d{4}-\d{6}$/.test(r[invoice]!)),
      'each paid booking names its invoice',
    );
    for (const cell of f.rows.flat()) assert.doesNotMatch(cell, /^[=+\-@\t\r]/);
    await axe();
    await shoot('registrations');

    // The list's own filter goes with the download.
    await page.getByLabel('Status').selectOption('refunded');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No registrations match.').waitFor();
    assert.equal((await download(page.getByRole('link', { name: 'Download CSV' }))).rows.length, 0);
  });

  it('downloads the members, the ledger and the GST documents from their screens', async () => {
    const plan = await api('POST', '/api/v1/memberships/plans', {
      name: 'Rasika, annual',
      amount: 1200,
      kind: 'fixed_term',
      termMonths: 12,
    });
    const s = await api('POST', '/api/v1/memberships/subscribe', {
      planId: plan.body.data.id,
      name: '+Member “Menon”',
      email: uniqueEmail('member'),
    });
    const paymentId = await payInSandbox(api, s.body.orderId);
    assert.equal(
      (
        await api('POST', `/api/v1/memberships/${s.body.membershipId}/confirm`, {
          orderId: s.body.orderId,
          paymentId,
        })
      ).status,
      200,
    );

    await page.getByRole('link', { name: 'Memberships' }).click();
    await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    const members = await download(page.getByRole('link', { name: 'Download members (CSV)' }));
    assert.match(members.filename, /^members-test-\d{4}-\d{2}-\d{2}\.csv$/);
    assert.deepEqual(
      members.rows.map((r) => [
        r[members.header.indexOf('name')],
        r[members.header.indexOf('plan')],
        r[members.header.indexOf('state')],
      ]),
      [["'+Member “Menon”", 'Rasika, annual', 'active']],
    );
    await axe();
    await shoot('members');

    await page.goto(`${server.url}/dashboard/money/ledger`);
    await page.getByRole('heading', { name: 'Download the test-mode ledger' }).waitFor();
    const ledger = await download(page.getByRole('button', { name: 'Download CSV' }));
    assert.match(ledger.filename, /^ledger-test-\d{4}-\d{2}-\d{2}\.csv$/);
    const credit = ledger.header.indexOf('credit');
    assert.deepEqual(ledger.rows.map((r) => r[credit]).sort(), [
      '1200.00',
      '500.00',
      '500.00',
      '500.00',
      '500.00',
    ]);
    // A range that holds nothing, typed into the date fields.
    await page.getByLabel(/^From/).fill('2020-01-01');
    await page.getByLabel(/^To/).fill('2020-01-31');
    const none = await download(page.getByRole('button', { name: 'Download CSV' }));
    assert.match(none.filename, /^ledger-from-2020-01-01-to-2020-01-31-test-\d{4}-\d{2}-\d{2}\.csv$/);
    assert.equal(none.rows.length, 0);
    await axe();
    await shoot('ledger');

    await page.goto(`${server.url}/dashboard/account`);
    await page.getByRole('heading', { name: 'GST documents (test mode)' }).waitFor();
    const docs = await download(page.getByRole('button', { name: 'Download CSV' }));
    assert.match(docs.filename, /^gst-documents-test-\d{4}-\d{2}-\d{2}\.csv$/);
    const recipient = docs.header.indexOf('recipient_name');
    assert.deepEqual(
      docs.rows.map((r) => r[recipient]).sort(),
      ['Nair, "Unni"\nKrishnan', "'-2+3", `'${HYPERLINK}`, 'ശ്രീലക്ഷ്മി ₹500'].sort(),
    );
    assert.ok(
      docs.rows.every(
        (r) =>
          r[docs.header.indexOf('total')] === '500.00' &&
          r[docs.header.indexOf('place_of_supply')] === '29-Karnataka',
      ),
    );
    await axe();
    await shoot('gst-documents');
  });
});
