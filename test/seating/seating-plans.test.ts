// Seating plans through the API: made from a grid or a seat list, read whole, listed without
// their seats, edited by sending the seats back (block one, rename), refused with a clear 400
// when they cannot exist, and the account's alone (another's is 404; a checkout key is 403).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keyApi, type Api } from '../helpers/factories.js';
import { createKey, organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('seating plans', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  const grid = {
    sections: [
      {
        name: 'Stalls',
        rows: 3,
        seatsPerRow: 10,
        category: ['Gold', 'Silver'],
        aisleAfter: [5],
        accessible: [{ row: 'A', seats: [1, 10] }],
      },
    ],
  };

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
  });
  after(async () => server.close());

  it('makes a plan from a grid: rows front to back, an aisle, categories per row, accessible seats', async () => {
    const r = await api('POST', '/api/v1/seating-plans', { name: 'Main hall', grid });
    assert.equal(r.status, 201, r.text);
    const plan = r.body.data;
    assert.equal(plan.seatCount, 30);
    assert.deepEqual(plan.categories, [
      { name: 'Gold', seats: 10 },
      { name: 'Silver', seats: 20 },
    ]);
    const a = plan.seats.filter((s: { row: string }) => s.row === 'A');
    assert.deepEqual(
      a.map((s: { x: number }) => s.x),
      [0, 1, 2, 3, 4, 6, 7, 8, 9, 10],
      'the aisle after seat 5',
    );
    assert.deepEqual(
      a.filter((s: { accessible: boolean }) => s.accessible).map((s: { number: number }) => s.number),
      [1, 10],
    );
    assert.deepEqual(plan.stage, { x: 5, y: -1 });
    const read = await api('GET', `/api/v1/seating-plans/${plan.id}`);
    assert.deepEqual(read.body.data, plan);
  });

  it('edits by sending the seats back: a blocked seat leaves its category’s count; a rename keeps the seats', async () => {
    const plan = (await api('POST', '/api/v1/seating-plans', { name: 'Edit me', grid })).body.data;
    const seats = plan.seats.map((s: { id: string }) =>
      s.id === 'Stalls-C-3' ? { ...s, blocked: true } : s,
    );
    const edited = await api('PUT', `/api/v1/seating-plans/${plan.id}`, {
      layout: { seats, stage: plan.stage },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual(edited.body.data.categories, [
      { name: 'Gold', seats: 10 },
      { name: 'Silver', seats: 19 },
    ]);
    assert.equal(edited.body.data.seats.find((s: { id: string }) => s.id === 'Stalls-C-3').blocked, true);
    const renamed = await api('PUT', `/api/v1/seating-plans/${plan.id}`, { name: 'Edited' });
    assert.equal(renamed.body.data.name, 'Edited');
    assert.deepEqual(renamed.body.data.seats, edited.body.data.seats);
  });

  it('imports a seat list, filling in ids, labels and the stage', async () => {
    const seats = [
      { section: 'Balcony', row: 'AA', number: 1, x: 0, y: 10, category: 'Silver' },
      { section: 'Balcony', row: 'AA', number: 2, x: 1, y: 10, category: 'Silver', accessible: true },
    ];
    const r = await api('POST', '/api/v1/seating-plans', { name: 'Imported', layout: { seats } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      r.body.data.seats.map((s: { id: string; label: string }) => [s.id, s.label]),
      [
        ['Balcony-AA-1', 'Row AA, seat 1'],
        ['Balcony-AA-2', 'Row AA, seat 2'],
      ],
    );
    assert.deepEqual(r.body.data.stage, { x: 0.5, y: 9 });
  });

  it('refuses a plan that cannot exist, and changes nothing', async () => {
    const twice = { section: 'S', row: 'A', number: 1, x: 0, y: 0, category: 'Gold' };
    const dup = await api('POST', '/api/v1/seating-plans', {
      name: 'Twice',
      layout: { seats: [twice, { ...twice, x: 1 }] },
    });
    assert.deepEqual([dup.status, dup.body.code], [400, 'invalid_seating_plan']);
    assert.match(dup.body.error, /S-A-1 appears twice/);
    for (const body of [
      { name: 'No seats', grid: { sections: [] } },
      { name: 'Too many', grid: { sections: [{ name: 'S', rows: 200, seatsPerRow: 500, category: 'G' }] } },
      { name: 'Both', grid, layout: { seats: [twice] } },
      { name: '', grid },
      { name: 'Row I', grid: { sections: [{ ...grid.sections[0], firstRow: 'I' }] } },
    ]) {
      const r = await api('POST', '/api/v1/seating-plans', body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${r.text}`);
    }
    const names = (await api('GET', '/api/v1/seating-plans?limit=1000')).body.data.map(
      (p: { name: string }) => p.name,
    );
    assert.ok(!names.includes('Twice') && !names.includes('No seats'));
  });

  it('lists the account’s plans without their seats, paged; both modes see them; another account and a checkout key do not', async () => {
    const mine = await organiser(server.url);
    const mineApi = keyApi(server.url, mine.key);
    for (const name of ['One', 'Two', 'Three']) {
      assert.equal((await mineApi('POST', '/api/v1/seating-plans', { name, grid })).status, 201);
      server.clock.advance(1000); // oldest first: each made a second after the last
    }
    const first = await mineApi('GET', '/api/v1/seating-plans?limit=2');
    assert.deepEqual(
      first.body.data.map((p: { name: string }) => p.name),
      ['One', 'Two'],
    );
    assert.equal(first.body.data[0].seats, undefined);
    const rest = await mineApi('GET', `/api/v1/seating-plans?limit=2&startingAfter=${first.body.nextCursor}`);
    assert.deepEqual(
      [rest.body.data.map((p: { name: string }) => p.name), rest.body.hasMore],
      [['Three'], false],
    );
    const live = await createKey(server.url, mine.token, { mode: 'live' });
    assert.equal(
      (await mineApi('GET', `/api/v1/seating-plans/${first.body.data[0].id}`, undefined, live.key)).status,
      200,
      'the live key sees the plan',
    );
    assert.equal(
      (await api('GET', `/api/v1/seating-plans/${first.body.data[0].id}`)).status,
      404,
      'another account',
    );
    assert.equal(
      (await api('PUT', `/api/v1/seating-plans/${first.body.data[0].id}`, { name: 'Mine now' })).status,
      404,
    );
    const checkout = await createKey(server.url, mine.token, { mode: 'test', class: 'checkout' });
    assert.equal((await mineApi('GET', '/api/v1/seating-plans', undefined, checkout.key)).status, 403);
  });
});
