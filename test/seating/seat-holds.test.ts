// Seated events and seat holds through the API: an event takes a plan (its tiers are the plan's
// categories, its capacities the plan's seats), seats are held by choice or best available, all
// or none, a hold lapses by the account's clock (the sandbox clock in test mode) and can be let
// go, and a checkout key reads statuses without learning who has a seat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { createKey, organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const grid = {
  sections: [{ name: 'Stalls', rows: 2, seatsPerRow: 6, category: ['Gold', 'Silver'], aisleAfter: [3] }],
};
const tiers = [
  { name: 'Gold', price: 0 },
  { name: 'Silver', price: 0 },
];

describe('seated events and seat holds', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let planId: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    planId = plan.body.data.id;
  });
  after(async () => server.close());

  const seatedEvent = (fields: Record<string, unknown> = {}) =>
    createEventData(api, { seatingPlanId: planId, specialPrices: tiers, capacity: 999, ...fields });
  const statuses = async (eventId: string, key?: string) => {
    const r = await api('GET', `/api/v1/events/${eventId}/seats`, undefined, key);
    assert.equal(r.status, 200, r.text);
    return r.body.data as {
      counts: Record<string, number>;
      seats: { id: string; status: string; registrationId: string | null }[];
    };
  };

  it('an event with a plan sells each category as its tier, with the plan’s seats as capacities', async () => {
    const event = await seatedEvent();
    assert.equal(event.seatingPlanId, planId);
    assert.equal(event.capacity, 12, 'the plan’s seats, not the 999 sent');
    assert.deepEqual(
      event.specialPrices.map((t: { name: string; capacity: number }) => [t.name, t.capacity]),
      [
        ['Gold', 6],
        ['Silver', 6],
      ],
    );
    const seats = await statuses(event.id);
    assert.deepEqual(seats.counts, { available: 12, held: 0, sold: 0, blocked: 0 });
  });

  it('refuses a plan its tiers do not match, with tracks, or of another account (400 invalid_seating_plan)', async () => {
    const cases: Record<string, unknown>[] = [
      { specialPrices: [{ name: 'Gold', price: 0 }] },
      { specialPrices: [...tiers, { name: 'Balcony', price: 0 }] },
      { tracks: [{ title: 'Day 1' }] },
      { seatingPlanId: 'seatplan_nobodys' },
    ];
    for (const fields of cases) {
      // fixture-exception: the creation's refusal of a plan that does not fit is the subject
      const r = await api('POST', '/api/v1/events', {
        title: 'Seated',
        description: 'x',
        startDate: '2027-01-10',
        seatingPlanId: planId,
        specialPrices: tiers,
        ...fields,
      });
      assert.deepEqual([r.status, r.body.code], [400, 'invalid_seating_plan'], JSON.stringify(fields));
    }
    const other = await organiser(server.url);
    // fixture-exception: the creation's refusal of another account's plan is the subject
    const theirs = await keyApi(server.url, other.key)('POST', '/api/v1/events', {
      title: 'Not mine',
      description: 'x',
      startDate: '2027-01-10',
      seatingPlanId: planId,
      specialPrices: tiers,
    });
    assert.deepEqual([theirs.status, theirs.body.code], [400, 'invalid_seating_plan']);
  });

  it('best available holds adjacent seats nearest the stage; a held seat cannot be held again', async () => {
    const event = await seatedEvent();
    const r = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { category: 'Gold', quantity: 3 });
    assert.equal(r.status, 201, r.text);
    const hold = r.body.data;
    assert.match(hold.holdToken, /^hold_/);
    assert.deepEqual(
      hold.seats.map((s: { row: string; number: number }) => `${s.row}${s.number}`),
      ['A1', 'A2', 'A3'],
      'one run of three in the front row (the aisle after seat 3 bounds it)',
    );
    const seats = await statuses(event.id);
    assert.deepEqual(seats.counts, { available: 9, held: 3, sold: 0, blocked: 0 });
    const changed = await api('GET', `/api/v1/events/${event.id}/seats?only=unavailable`);
    assert.deepEqual(
      changed.body.data.seats.map((s: { id: string; status: string }) => `${s.id} ${s.status}`),
      ['Stalls-A-1 held', 'Stalls-A-2 held', 'Stalls-A-3 held'],
      'only the seats a map must redraw, with the same counts',
    );
    assert.deepEqual(changed.body.data.counts, seats.counts);
    const letters = await api('GET', `/api/v1/events/${event.id}/seats/statuses`);
    assert.equal(letters.body.data.statuses, 'hhhaaaaaaaaa', 'one letter a seat, in plan order');
    assert.deepEqual(letters.body.data.counts, seats.counts);
    const again = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-2'] });
    assert.deepEqual([again.status, again.body.code], [409, 'seats_unavailable']);
    // The other three Gold seats sit together too; a fourth group of three does not exist.
    const next = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
      category: 'Gold',
      quantity: 3,
    });
    assert.equal(next.status, 201, next.text);
    const none = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
      category: 'Gold',
      quantity: 1,
    });
    assert.deepEqual([none.status, none.body.code], [409, 'seats_unavailable']);
  });

  it('holds all the seats asked for or none', async () => {
    const event = await seatedEvent();
    const first = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-B-5'] });
    assert.equal(first.status, 201, first.text);
    const both = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
      seats: ['Stalls-B-4', 'Stalls-B-5'],
    });
    assert.deepEqual([both.status, both.body.code], [409, 'seats_unavailable']);
    const seats = await statuses(event.id);
    assert.equal(seats.seats.find((s) => s.id === 'Stalls-B-4')!.status, 'available', 'B4 was not kept');
  });

  it('a hold lapses by the sandbox clock and can be let go; a lapsed seat is held again at once', async () => {
    const event = await seatedEvent();
    const hold = (await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-1'] })).body
      .data;
    const lapse = await api('POST', '/api/v1/sandbox/clock', { advanceDays: 11 / (24 * 60) });
    assert.equal(lapse.status, 200, lapse.text);
    assert.equal((await statuses(event.id)).seats.find((s) => s.id === 'Stalls-A-1')!.status, 'available');
    const retake = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-1'] });
    assert.equal(retake.status, 201, retake.text);
    const old = await api('DELETE', `/api/v1/events/${event.id}/seats/hold/${hold.holdToken}`);
    assert.deepEqual([old.status, old.body.code], [404, 'not_found'], 'the lapsed hold was taken over');
    const token = retake.body.data.holdToken;
    const release = await api('DELETE', `/api/v1/events/${event.id}/seats/hold/${token}`);
    assert.equal(release.status, 200, release.text);
    assert.equal((await statuses(event.id)).counts.held, 0);
    assert.equal((await api('DELETE', `/api/v1/events/${event.id}/seats/hold/${token}`)).status, 404);
    await api('DELETE', '/api/v1/sandbox/clock');
  });

  it('answers clearly for seats not in the plan, an unseated event, and a checkout key sees no holder', async () => {
    const event = await seatedEvent();
    const unknown = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-Z-1'] });
    assert.deepEqual([unknown.status, unknown.body.code], [400, 'invalid_request']);
    const category = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
      category: 'Box',
      quantity: 1,
    });
    assert.deepEqual([category.status, category.body.code], [400, 'invalid_request']);
    const plain = await createEventData(api);
    const unseated = await api('GET', `/api/v1/events/${plain.id}/seats`);
    assert.deepEqual([unseated.status, unseated.body.code], [409, 'event_not_seated']);
    const pk = await createKey(server.url, org.token, { class: 'checkout' });
    const held = await api(
      'POST',
      `/api/v1/events/${event.id}/seats/hold`,
      { seats: ['Stalls-A-1'] },
      pk.key,
    );
    assert.equal(held.status, 201, held.text);
    const seen = await statuses(event.id, pk.key);
    assert.equal(seen.counts.held, 1);
    assert.ok(seen.seats.every((s) => s.registrationId === null));
  });

  it('buyers asking for the best seat all at once each get one while seats are left', async () => {
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Rush',
      grid: { sections: [{ name: 'Hall', rows: 4, seatsPerRow: 10, category: 'Gold' }] },
    });
    const event = await createEventData(api, {
      seatingPlanId: plan.body.data.id,
      specialPrices: [{ name: 'Gold', price: 0 }],
    });
    const holds = await Promise.all(
      Array.from({ length: 40 }, () =>
        api('POST', `/api/v1/events/${event.id}/seats/hold`, { category: 'Gold', quantity: 1 }),
      ),
    );
    assert.deepEqual(
      holds.map((h) => h.status),
      holds.map(() => 201),
      'forty seats, forty buyers: none told there is no seat',
    );
    const seats = holds.flatMap((h) => h.body.data.seats.map((s: { id: string }) => s.id));
    assert.equal(new Set(seats).size, 40);
    const late = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
      category: 'Gold',
      quantity: 1,
    });
    assert.deepEqual([late.status, late.body.code], [409, 'seats_unavailable']);
  });
});

describe('seats one client address may hold at once', () => {
  let server: TestServer;
  let api: Api;
  let checkoutKey: string;
  let eventId: string;

  before(async () => {
    server = await startServer({ env: { HELD_SEATS_PER_ADDRESS: '3' } });
    const org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    checkoutKey = (await createKey(server.url, org.token, { class: 'checkout' })).key;
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    eventId = (await createEventData(api, { seatingPlanId: plan.body.data.id, specialPrices: tiers })).id;
  });
  after(async () => server.close());

  const hold = (seats: string[], key?: string) =>
    api('POST', `/api/v1/events/${eventId}/seats/hold`, { seats }, key);

  it('refuses a browser’s hold beyond HELD_SEATS_PER_ADDRESS with 429, and counts only live holds', async () => {
    const first = await hold(['Stalls-A-1', 'Stalls-A-2'], checkoutKey);
    assert.equal(first.status, 201, first.text);
    const over = await hold(['Stalls-A-3', 'Stalls-A-4'], checkoutKey);
    assert.deepEqual([over.status, over.body.code], [429, 'too_many_holds']);
    assert.equal((await hold(['Stalls-A-3'], checkoutKey)).status, 201, 'three in all is allowed');
    assert.equal(
      (await hold(['Stalls-B-1', 'Stalls-B-2', 'Stalls-B-3', 'Stalls-B-4'])).status,
      201,
      'a full key is the organiser’s server: not counted',
    );
    const token = first.body.data.holdToken;
    assert.equal(
      (await api('DELETE', `/api/v1/events/${eventId}/seats/hold/${token}`, undefined, checkoutKey)).status,
      200,
    );
    assert.equal(
      (await hold(['Stalls-A-4', 'Stalls-A-5'], checkoutKey)).status,
      201,
      'a hold let go no longer counts',
    );
  });
});
