// The hosted page's seat map over HTTP (docs/decisions/23-reserved-seating.md): a seated event's page
// draws its plan (a circle per seat in plan order, the categories' prices, the seats' statuses),
// the page's own seat calls answer with the page's access (a test event's checkout key, a
// published live event with none), a hold that replaces the buyer's earlier one is all or none,
// the page books with the hold's token, and a 50,000-seat map stays within its size bound.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const HOST = 'https://shop.example.in';
const grid = {
  sections: [
    {
      name: 'Stalls',
      rows: 2,
      seatsPerRow: 6,
      category: ['Gold', 'Silver'],
      aisleAfter: [3],
      accessible: [{ row: 'A', seats: [1] }],
    },
  ],
};

/** The seats of the page's map as the markup gives them: row, classes and the attributes of each circle. */
function mapSeats(html: string): { row: string; cls: string; circle: string }[] {
  const svg = /<svg id="seat-map"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
  const out: { row: string; cls: string; circle: string }[] = [];
  for (const g of svg.matchAll(/<g class="[^"]*" data-s="[^"]*" data-r="([^"]+)"[^>]*>([\s\S]*?)<\/g>/g))
    for (const c of g[2]!.matchAll(/<circle [^>]*\/>/g))
      out.push({ row: g[1]!, cls: /class="([^"]*)"/.exec(c[0])?.[1] ?? '', circle: c[0] });
  return out;
}

const config = (html: string) =>
  JSON.parse(/<script type="application\/json" id="svc-config">(.*?)<\/script>/s.exec(html)![1]!);

describe('the hosted seat map over HTTP', { timeout: 300_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let pk: string;
  let pinned: string;
  let planId: string;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    pinned = (
      await createKey(server.url, org.token, { mode: 'test', class: 'checkout', allowedOrigin: HOST })
    ).key;
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    planId = plan.body.data.id;
  });
  after(async () => server?.close());

  const seatedEvent = (fields: Record<string, unknown> = {}) =>
    createEventData(api, {
      title: 'Hamlet',
      seatingPlanId: planId,
      specialPrices: [
        { name: 'Gold', price: 1500 },
        { name: 'Silver', price: 800 },
      ],
      ...fields,
    });
  const page = async (slug: string, key = pk) => {
    const r = await call(server.url, 'GET', `/e/${slug}?key=${key}`);
    assert.equal(r.status, 200, r.text);
    return r.text;
  };
  const statuses = async (slug: string, key = pk) => {
    const r = await call(server.url, 'GET', `/e/${slug}/seats/statuses?key=${key}`);
    assert.equal(r.status, 200, r.text);
    return r.body.statuses as string;
  };
  const hold = (slug: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', `/e/${slug}/seats/hold`, { body: { key: pk, ...body }, headers });
  const release = (slug: string, token: string) =>
    call(server.url, 'DELETE', `/e/${slug}/seats/hold/${token}?key=${pk}`);

  it('draws a seated event’s plan: a circle per seat in plan order, prices by category, statuses as marks', async () => {
    const event = await seatedEvent();
    const taken = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-B-2'] });
    assert.equal(taken.status, 201, taken.text);
    const html = await page(event.slug);
    const seats = mapSeats(html);
    assert.equal(seats.length, 12, 'one element per seat');
    assert.deepEqual(
      seats.map((s) => s.row),
      [...'AAAAAA', ...'BBBBBB'],
      'in plan order, grouped by row',
    );
    assert.match(seats[0]!.cls, /\bw\b/, 'A1 is accessible');
    assert.match(seats[7]!.cls, /\bh\b/, 'B2 is held');
    assert.equal(seats.filter((s) => /\b[hsb]\b/.test(s.cls)).length, 1, 'the others are available');
    assert.match(seats[3]!.circle, /cx="4"/, 'seat 4 stands past the aisle, a seat’s width further on');
    assert.match(html, /<span class="legend-name">Gold<\/span> <span class="legend-price">₹1,500<\/span>/);
    assert.match(html, /<span class="legend-name">Silver<\/span> <span class="legend-price">₹800<\/span>/);
    assert.match(html, /id="register-form" novalidate data-seated/);
    assert.match(html, /<button type="submit" id="submit">Choose your seats<\/button>/);
    const c = config(html).seatMap;
    assert.deepEqual(
      c.categories.map((k: { name: string; price: string; paise: number }) => [k.name, k.price, k.paise]),
      [
        ['Gold', '₹1,500', 150000],
        ['Silver', '₹800', 80000],
      ],
    );
    assert.equal(c.maxSeats, 1, 'no teams: one seat per booking');
    assert.equal(
      (await statuses(event.slug)).length,
      12,
      'the letters follow the same plan order the map is drawn in',
    );
    const team = await seatedEvent({ maxTeamSize: 4 });
    assert.equal(config(await page(team.slug)).seatMap.maxSeats, 4, 'a team: one seat per person');
    const plain = await createEventData(api, { title: 'Open talk' });
    assert.doesNotMatch(await page(plain.slug), /seat-map/);
  });

  it('names seats the plan named otherwise, and numbers a row numbered from the right', async () => {
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Imported',
      layout: {
        seats: [
          {
            section: 'Box',
            row: 'K',
            number: 3,
            x: 0,
            y: 0,
            category: 'Gold',
            id: 'box-k3',
            label: 'Box K3',
          },
          { section: 'Box', row: 'K', number: 2, x: 1, y: 0.25, category: 'Gold' },
          { section: 'Box', row: 'K', number: 1, x: 2, y: 0, category: 'Gold', blocked: true },
        ],
      },
    });
    assert.equal(plan.status, 201, plan.text);
    const event = await createEventData(api, {
      seatingPlanId: plan.body.data.id,
      specialPrices: [{ name: 'Gold', price: 0 }],
    });
    const html = await page(event.slug);
    assert.match(
      html,
      /<g class="k0" data-s="Box" data-r="K" data-n="3" data-d="-1" transform="translate\(0 0\)">/,
    );
    const seats = mapSeats(html);
    assert.match(seats[0]!.circle, /data-id="box-k3" data-l="Box K3"/);
    assert.doesNotMatch(
      seats[1]!.circle,
      /data-(n|id|l)=/,
      'seat 2 follows seat 3; its id and label are the usual',
    );
    assert.match(seats[1]!.circle, /cy=".25"/);
    assert.match(seats[2]!.cls, /\bb\b/, 'blocked');
    assert.match(html, /Not for sale/, 'the legend names blocked seats when there are some');
    assert.match(html, /<span class="legend-price">Free<\/span>/);
  });

  it('the page’s seat calls: statuses, hold, a replacing hold that is all or none, best available, let go', async () => {
    const event = await seatedEvent();
    const first = await hold(event.slug, { seats: ['Stalls-A-1', 'Stalls-A-2'] });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.expiresInSeconds, 600);
    assert.deepEqual(
      first.body.seats.map((s: { label: string }) => s.label),
      ['Row A, seat 1', 'Row A, seat 2'],
    );
    assert.equal(await statuses(event.slug), 'hhaaaaaaaaaa');
    const other = await hold(event.slug, { seats: ['Stalls-A-2'] });
    assert.deepEqual([other.status, other.body.code], [409, 'seats_unavailable']);

    const moved = await hold(event.slug, {
      seats: ['Stalls-A-2', 'Stalls-A-3'],
      replaces: first.body.holdToken,
    });
    assert.equal(moved.status, 201, moved.text);
    assert.equal(await statuses(event.slug), 'ahhaaaaaaaaa', 'A1 let go, A2 kept, A3 added');
    assert.equal((await release(event.slug, first.body.holdToken)).status, 404, 'the old token is spent');

    const rival = await hold(event.slug, { seats: ['Stalls-A-4'] });
    assert.equal(rival.status, 201, rival.text);
    const refused = await hold(event.slug, {
      seats: ['Stalls-A-2', 'Stalls-A-3', 'Stalls-A-4'],
      replaces: moved.body.holdToken,
    });
    assert.deepEqual([refused.status, refused.body.code], [409, 'seats_unavailable']);
    assert.equal(await statuses(event.slug), 'ahhhaaaaaaaa', 'the refused change left A2 and A3 held');

    // Row A's runs are A1–A3 and A4–A6. With A1–A3 another buyer's and A5–A6 the buyer's own, three
    // seats side by side are free only if the buyer's own count as free.
    const mine = await hold(event.slug, {
      seats: ['Stalls-A-5', 'Stalls-A-6'],
      replaces: moved.body.holdToken,
    });
    assert.equal(mine.status, 201, mine.text);
    assert.equal((await release(event.slug, rival.body.holdToken)).status, 200);
    const blocker = await hold(event.slug, { seats: ['Stalls-A-1', 'Stalls-A-2', 'Stalls-A-3'] });
    assert.equal(blocker.status, 201, blocker.text);
    const best = await hold(event.slug, { category: 'Gold', quantity: 3, replaces: mine.body.holdToken });
    assert.equal(best.status, 201, best.text);
    assert.deepEqual(
      best.body.seats.map((s: { id: string }) => s.id),
      ['Stalls-A-4', 'Stalls-A-5', 'Stalls-A-6'],
    );
    const again = await hold(event.slug, { category: 'Gold', quantity: 2, replaces: best.body.holdToken });
    assert.equal(again.status, 201, again.text);

    const released = await release(event.slug, again.body.holdToken);
    assert.deepEqual([released.status, released.body], [200, { released: true }]);
    assert.equal(await statuses(event.slug), 'hhhaaaaaaaaa', 'only the other buyer’s seats are held');
    assert.equal((await release(event.slug, again.body.holdToken)).status, 404);

    const unknown = await hold(event.slug, { seats: ['Stalls-Z-9'] });
    assert.deepEqual([unknown.status, unknown.body.code], [400, 'invalid_request']);
    const noKey = await call(server.url, 'GET', `/e/${event.slug}/seats/statuses`);
    assert.equal(noKey.status, 404, 'a test event needs its key');
    const plain = await createEventData(api, { title: 'Open talk' });
    const unseated = await call(server.url, 'GET', `/e/${plain.slug}/seats/statuses?key=${pk}`);
    assert.deepEqual([unseated.status, unseated.body.code], [409, 'event_not_seated']);
  });

  it('a pinned key’s page holds seats only from its own page or the pinned origin', async () => {
    const event = await seatedEvent();
    const body = { key: pinned, seats: ['Stalls-B-1'] };
    const elsewhere = await call(server.url, 'POST', `/e/${event.slug}/seats/hold`, {
      body,
      headers: { origin: 'https://evil.example' },
    });
    assert.deepEqual([elsewhere.status, elsewhere.body.code], [403, 'origin_not_allowed']);
    const own = await call(server.url, 'POST', `/e/${event.slug}/seats/hold`, {
      body,
      headers: { origin: HOST },
    });
    assert.equal(own.status, 201, own.text);
    const read = await call(server.url, 'GET', `/e/${event.slug}/seats/statuses?key=${pinned}`, {
      headers: { origin: 'https://evil.example' },
    });
    assert.deepEqual([read.status, read.body.code], [403, 'origin_not_allowed']);
  });

  it('books with the page’s hold, one seat per person; a hold that lapsed books nothing (sandbox clock)', async () => {
    const event = await seatedEvent({
      maxTeamSize: 3,
      specialPrices: [
        { name: 'Gold', price: 0 },
        { name: 'Silver', price: 0 },
      ],
    });
    const held = await hold(event.slug, { seats: ['Stalls-B-5', 'Stalls-B-4'] });
    assert.equal(held.status, 201, held.text);
    const booked = await call(server.url, 'POST', `/e/${event.slug}/register`, {
      body: {
        key: pk,
        name: 'Asha Rao',
        email: uniqueEmail('asha'),
        teamMembers: [{ name: 'Ravi Rao', email: uniqueEmail('ravi') }],
        holdToken: held.body.holdToken,
      },
    });
    assert.deepEqual([booked.status, booked.body.status], [201, 'confirmed'], booked.text);
    const list = await api('GET', `/api/v1/events/${event.id}/registrations`);
    assert.deepEqual(
      list.body.data[0].seats.map((s: { id: string }) => s.id),
      ['Stalls-B-4', 'Stalls-B-5'],
    );
    assert.equal(list.body.data[0].ticketType, 'Silver');
    assert.equal((await statuses(event.slug)).slice(6), 'aaassa');

    const late = await hold(event.slug, { seats: ['Stalls-A-6'] });
    assert.equal(late.status, 201, late.text);
    await api('POST', '/api/v1/sandbox/clock', { advanceDays: 11 / (24 * 60) });
    try {
      const r = await call(server.url, 'POST', `/e/${event.slug}/register`, {
        body: { key: pk, name: 'Zoya', email: uniqueEmail('zoya'), holdToken: late.body.holdToken },
      });
      assert.deepEqual([r.status, r.body.code], [409, 'seat_hold_lapsed']);
      assert.equal((await statuses(event.slug)).charAt(5), 'a', 'the lapsed seat is free');
    } finally {
      await api('DELETE', '/api/v1/sandbox/clock');
    }
    const none = await call(server.url, 'POST', `/e/${event.slug}/register`, {
      body: { key: pk, name: 'Zoya', email: uniqueEmail('zoya') },
    });
    assert.deepEqual(
      [none.status, none.body.code, none.body.field],
      [400, 'seat_hold_required', 'holdToken'],
    );
  });

  it('a published live event’s page holds and books seats with no key at all', async () => {
    const live = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    const grant = await call(server.url, 'POST', `/admin/api/accounts/${live.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    assert.equal(grant.status, 200, grant.text);
    const liveApi = keyApi(server.url, live.key);
    const plan = await liveApi('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    const event = await createEventData(
      liveApi,
      {
        title: 'Free Hamlet',
        seatingPlanId: plan.body.data.id,
        specialPrices: [
          { name: 'Gold', price: 0 },
          { name: 'Silver', price: 0 },
        ],
      },
      { publish: true },
    );
    const html = (await call(server.url, 'GET', `/e/${event.slug}`)).text;
    assert.equal(mapSeats(html).length, 12);
    const read = await call(server.url, 'GET', `/e/${event.slug}/seats/statuses`);
    assert.equal(read.status, 200, read.text);
    const held = await call(server.url, 'POST', `/e/${event.slug}/seats/hold`, {
      body: { category: 'Gold', quantity: 1 },
    });
    assert.equal(held.status, 201, held.text);
    const booked = await call(server.url, 'POST', `/e/${event.slug}/register`, {
      body: { name: 'Asha Rao', email: uniqueEmail('asha'), holdToken: held.body.holdToken },
    });
    assert.deepEqual([booked.status, booked.body.status], [201, 'confirmed'], booked.text);
    const list = await liveApi('GET', `/api/v1/events/${event.id}/registrations`);
    assert.deepEqual(
      list.body.data[0].seats.map((s: { id: string }) => s.id),
      held.body.seats.map((s: { id: string }) => s.id),
    );
  });

  it('a 50,000-seat map stays small: markup of at most 28 bytes a seat (36 in curved rows), sent gzipped at under 1 byte a seat', async () => {
    for (const curve of [0, 4]) {
      const plan = await api('POST', '/api/v1/seating-plans', {
        name: `Stadium ${curve}`,
        grid: {
          sections: [
            {
              name: 'Stand',
              rows: 200,
              seatsPerRow: 250,
              category: ['Gold', 'Silver', 'Bronze'],
              aisleAfter: [50, 100, 150, 200],
              curve,
            },
          ],
        },
      });
      assert.equal(plan.status, 201, plan.text);
      const event = await createEventData(api, {
        seatingPlanId: plan.body.data.id,
        specialPrices: [
          { name: 'Gold', price: 2500 },
          { name: 'Silver', price: 1500 },
          { name: 'Bronze', price: 500 },
        ],
      });
      const r = await call(server.url, 'GET', `/e/${event.slug}?key=${pk}`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(mapSeats(r.text).length, 50_000);
      const markup = Buffer.byteLength(r.text);
      assert.ok(markup <= 50_000 * (curve === 0 ? 28 : 36), `${markup} bytes of markup, curve ${curve}`);
      assert.equal(r.headers.get('content-encoding'), 'gzip');
      const sent = Number(r.headers.get('content-length'));
      assert.ok(sent > 0 && sent <= 50_000, `${sent} bytes sent, curve ${curve}`);
      const plain = await call(server.url, 'GET', `/e/${event.slug}?key=${pk}`, {
        headers: { 'accept-encoding': 'identity' },
      });
      assert.equal(
        plain.headers.get('content-encoding'),
        null,
        'a browser that takes no gzip gets the markup',
      );
      assert.equal(Buffer.byteLength(plain.text), markup);
    }
    const small = await call(server.url, 'GET', `/e/${(await seatedEvent()).slug}?key=${pk}`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(small.headers.get('content-encoding'), null, 'a small page goes as it is');
  });
});

describe('the hosted seat map under HELD_SEATS_PER_ADDRESS', () => {
  let server: TestServer;
  let api: Api;
  let pk: string;

  before(async () => {
    server = await startServer({ env: { HELD_SEATS_PER_ADDRESS: '3' } });
    const org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => server?.close());

  it('a change of the buyer’s seats counts the seats it lets go as free; another hold past the limit is refused', async () => {
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    const event = await createEventData(api, {
      seatingPlanId: plan.body.data.id,
      specialPrices: [
        { name: 'Gold', price: 0 },
        { name: 'Silver', price: 0 },
      ],
    });
    const hold = (body: Record<string, unknown>) =>
      call(server.url, 'POST', `/e/${event.slug}/seats/hold`, { body: { key: pk, ...body } });
    const three = await hold({ seats: ['Stalls-A-1', 'Stalls-A-2', 'Stalls-A-3'] });
    assert.equal(three.status, 201, three.text);
    const moved = await hold({
      seats: ['Stalls-A-2', 'Stalls-A-3', 'Stalls-A-4'],
      replaces: three.body.holdToken,
    });
    assert.equal(moved.status, 201, moved.text);
    const more = await hold({ seats: ['Stalls-B-1'] });
    assert.deepEqual([more.status, more.body.code], [429, 'too_many_holds']);
  });
});
