// Prices before buyers see them (docs/decisions/28-a-persons-day.md): the base price is a "whole event"
// option only when the organiser turns it on (the dashboard makes events with it off; the API
// keeps it on when not told, as before); the setup page shows the price of every session ×
// tier; the hosted page lists only the sessions on sale and each tier's price for them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Base ₹1,500; Day 1 ₹1,200 and Day 2 ₹1,800; a Student tier at ₹500. */
const FEST = {
  title: 'Two-day fest',
  description: 'x',
  startDate: '2026-12-20T18:30+05:30',
  endDate: '2026-12-21T21:00+05:30',
  price: 1500,
  waitlist: { enabled: true },
  tracks: [
    { title: 'Day 1', price: 1200, startsAt: '2026-12-20T18:30+05:30', endsAt: '2026-12-20T21:00+05:30' },
    { title: 'Day 2', price: 1800, startsAt: '2026-12-21T18:30+05:30', endsAt: '2026-12-21T21:00+05:30' },
  ],
  specialPrices: [{ name: 'Student', price: 500 }],
};

/** The rows of the setup page's price table, each cell's text. */
function priceTable(html: string): string[][] {
  const table = /<table[^>]*id="price-table"[^>]*>([\s\S]*?)<\/table>/.exec(html)?.[1];
  assert.ok(table, 'the setup page has the price table');
  return [...table!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) =>
      c[1]!
        .replace(/<[^>]+>/g, '')
        .replace(/&amp;/g, '&')
        .trim(),
    ),
  );
}

describe('prices before buyers see them', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => server.close());

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const register = (eventId: string, extra: Record<string, unknown> = {}) =>
    api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Buyer',
      email: uniqueEmail('buyer'),
      ...extra,
    });

  it('through the API the whole event stays on sale unless turned off; off, a booking must name its session', async () => {
    const created = await api('POST', '/api/v1/events', FEST);
    assert.equal(created.status, 201, created.text);
    const ev = created.body.data as { id: string; slug: string; wholeEventOption: boolean };
    assert.equal(ev.wholeEventOption, true, 'omitted through the API: on, as before the setting');
    const whole = await register(ev.id);
    assert.equal(whole.status, 201, whole.text);
    assert.equal(whole.body.amount, 150_000, 'the whole event at the base price');

    const off = await api('PATCH', `/api/v1/events/${ev.id}`, { wholeEventOption: false });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.data.wholeEventOption, false);
    const refused = await register(ev.id);
    assert.deepEqual(
      [refused.status, refused.body.code, refused.body.field],
      [400, 'track_required', 'subEventId'],
      refused.text,
    );
    assert.equal(typeof refused.body.error, 'string');
    const quote = await call(server.url, 'POST', `/e/${ev.slug}/quote`, { body: { key: pk, quantity: 1 } });
    assert.deepEqual(
      [quote.status, quote.body.code, quote.body.field],
      [400, 'track_required', 'subEventId'],
      quote.text,
    );
    const wait = await api('POST', `/api/v1/events/${ev.id}/waitlist`, {
      name: 'W',
      email: uniqueEmail('w'),
    });
    assert.deepEqual(
      [wait.status, wait.body.code],
      [400, 'track_required'],
      'no waiting for what is not sold',
    );
    const day2 = await register(ev.id, { subEventId: '1' });
    assert.equal(day2.status, 201, day2.text);
    assert.equal(day2.body.amount, 180_000);
    const student = await register(ev.id, { subEventId: '1', ticketType: 'Student' });
    assert.equal(student.body.amount, 50_000, 'a tier’s price replaces the track’s');
  });

  it('the hosted page offers the whole event only when on, and each tier’s price for the sessions on sale', async () => {
    const created = await api('POST', '/api/v1/events', { ...FEST, wholeEventOption: false });
    assert.equal(created.status, 201, created.text);
    const ev = created.body.data as { id: string; slug: string };
    const page = async () => (await call(server.url, 'GET', `/e/${ev.slug}?key=${pk}`)).text;
    const off = await page();
    assert.doesNotMatch(off, /id="session-none"/, 'no “whole event” option');
    assert.match(off, /id="session-0"/);
    // Until a session is chosen, a tier says the range over the sessions on sale (the script says the chosen one's).
    assert.match(
      off,
      /<label for="tier-general"><span class="option-name">General<\/span> <span class="option-price">₹1,200 – ₹1,800<\/span>/,
    );
    assert.match(
      off,
      /<label for="tier-0"><span class="option-name">Student<\/span> <span class="option-price">₹500<\/span>/,
    );
    const config = JSON.parse(
      /<script type="application\/json" id="svc-config">([^<]*)<\/script>/
        .exec(off)![1]!
        .replace(/\\u003c/g, '<')
        .replace(/\\u003e/g, '>')
        .replace(/\\u0026/g, '&'),
    );
    assert.deepEqual(config.prices, {
      currency: 'INR',
      sessions: { '0': { General: 120_000, Student: 50_000 }, '1': { General: 180_000, Student: 50_000 } },
    });
    assert.match(
      off,
      /<button type="button" class="secondary" id="promo-apply">Apply<\/button>/,
      'a promo code has an Apply button',
    );

    assert.equal((await api('PATCH', `/api/v1/events/${ev.id}`, { wholeEventOption: true })).status, 200);
    const on = await page();
    assert.match(on, /id="session-none"/);
    assert.match(on, /<span class="option-price">₹1,200 – ₹1,800<\/span>/);
    assert.equal(JSON.parse(/id="svc-config">([^<]*)</.exec(on)![1]!).prices.sessions[''].General, 150_000);
  });

  it('the dashboard makes events with the whole event off and shows every session × tier price on setup', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('prices'));
    const form = await c.get('/dashboard/events/new');
    assert.match(form.text, /name="wholeEventOption"/, 'the setting is on the form');
    assert.doesNotMatch(
      form.text,
      /name="wholeEventOption" value="on"[^>]* checked/,
      'and off for a new event',
    );
    const csrf = DashboardClient.csrf(form.text);
    const made = await c.post('/dashboard/events', {
      _csrf: csrf,
      title: 'Dash fest',
      description: '',
      startDate: '2026-12-20T18:30',
      capacity: '0',
      price: '1500',
      maxTeamSize: '1',
    });
    const id = /\/dashboard\/events\/(ev_[A-Za-z0-9_-]+)/.exec(made.location ?? '')?.[1];
    assert.ok(id, `an event was made: ${made.status} ${made.text.slice(0, 200)}`);
    const base = `/dashboard/events/${id}`;
    for (const [title, price, start] of [
      ['Day 1', '1200', '2026-12-20T18:30'],
      ['Day 2', '1800', '2026-12-21T18:30'],
    ] as const) {
      assert.equal(
        (
          await c.post(`${base}/tracks`, {
            _csrf: csrf,
            title,
            price,
            capacity: '0',
            date: start,
            endDate: start.replace('18:30', '21:00'),
          })
        ).status,
        303,
      );
    }
    assert.equal(
      (await c.post(`${base}/tiers`, { _csrf: csrf, name: 'Student', price: '500', capacity: '0' })).status,
      303,
    );

    const setup = await c.get(`${base}/setup`);
    assert.equal(setup.status, 200);
    assert.deepEqual(priceTable(setup.text), [
      ['Session', 'General', 'Student'],
      ['Track 1: Day 1', '₹1,200', '₹500'],
      ['Track 2: Day 2', '₹1,800', '₹500'],
    ]);
    assert.match(setup.text, /The whole event is not sold on its own/);

    // Turned on in Event details: the base price becomes a session of its own.
    const saved = await c.post(base, {
      _csrf: csrf,
      title: 'Dash fest',
      description: '',
      startDate: '2026-12-20T18:30',
      capacity: '0',
      price: '1500',
      maxTeamSize: '1',
      wholeEventOption: 'on',
    });
    assert.equal(saved.status, 303, saved.text.slice(0, 300));
    const after = await c.get(`${base}/setup`);
    assert.deepEqual(priceTable(after.text).slice(1), [
      ['The whole event', '₹1,500', '₹500'],
      ['Track 1: Day 1', '₹1,200', '₹500'],
      ['Track 2: Day 2', '₹1,800', '₹500'],
    ]);
    assert.match(after.text, /name="wholeEventOption" value="on"[^>]* checked/);
  });
});
