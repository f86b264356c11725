// The organiser's changes to an event's seats: house seats kept back from sale and given back
// (the event's capacities follow, other events on the plan are untouched), and a booking moved to
// other seats of its category, each in the audit log; a seat held, sold or kept back is never
// taken by either.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const grid = { sections: [{ name: 'Stalls', rows: 2, seatsPerRow: 4, category: ['Gold', 'Silver'] }] };

describe('house seats and moving a booking', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let planId: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    planId = (await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid })).body.data.id;
  });
  after(async () => server.close());

  const seatedEvent = () =>
    createEventData(api, {
      seatingPlanId: planId,
      maxTeamSize: 2,
      specialPrices: [
        { name: 'Gold', price: 0 },
        { name: 'Silver', price: 0 },
      ],
    });
  const status = async (eventId: string) => {
    const r = await api('GET', `/api/v1/events/${eventId}/seats?only=unavailable`);
    return Object.fromEntries(
      (r.body.data.seats as { id: string; status: string }[]).map((s) => [s.id, s.status]),
    );
  };
  const capacities = async (eventId: string) => {
    const e = (await api('GET', `/api/v1/events/${eventId}`)).body.data;
    return [
      e.capacity,
      ...e.specialPrices.map((t: { name: string; capacity: number }) => `${t.name} ${t.capacity}`),
    ];
  };
  const audit = async (action: string) =>
    (
      (await api('GET', '/api/v1/audit-log?limit=100')).body.data as {
        action: string;
        target: { id: string };
      }[]
    ).filter((e) => e.action === action);

  it('keeps house seats back from sale on one event, and gives them back', async () => {
    const event = await seatedEvent();
    const other = await seatedEvent();
    const blocked = await api('POST', `/api/v1/events/${event.id}/seats/block`, {
      seats: ['Stalls-A-1', 'Stalls-A-2'],
    });
    assert.equal(blocked.status, 200, blocked.text);
    assert.deepEqual(await status(event.id), { 'Stalls-A-1': 'blocked', 'Stalls-A-2': 'blocked' });
    assert.deepEqual(await capacities(event.id), [6, 'Gold 2', 'Silver 4']);
    assert.deepEqual(await status(other.id), {}, 'the other event on the plan is untouched');
    assert.deepEqual(await capacities(other.id), [8, 'Gold 4', 'Silver 4']);
    const hold = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-1'] });
    assert.deepEqual([hold.status, hold.body.code], [409, 'seats_unavailable']);
    const best = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
      category: 'Gold',
      quantity: 2,
    });
    assert.deepEqual(
      best.body.data.seats.map((s: { id: string }) => s.id),
      ['Stalls-A-3', 'Stalls-A-4'],
    );
    const again = await api('POST', `/api/v1/events/${event.id}/seats/block`, { seats: ['Stalls-A-3'] });
    assert.deepEqual([again.status, again.body.code], [409, 'seats_unavailable'], 'a held seat is not taken');
    const released = await api('POST', `/api/v1/events/${event.id}/seats/release`, {
      seats: ['Stalls-A-1', 'Stalls-B-1'],
    });
    assert.deepEqual(released.body.released, ['Stalls-A-1'], 'only what was kept back');
    assert.deepEqual(await capacities(event.id), [7, 'Gold 3', 'Silver 4']);
    const none = await api('POST', `/api/v1/events/${event.id}/seats/release`, { seats: ['Stalls-B-1'] });
    assert.equal(none.status, 404);
    assert.deepEqual(
      (await audit('event.seats_block')).map((e) => e.target.id),
      [event.id],
    );
    assert.equal((await audit('event.seats_release')).length, 1);
  });

  it('moves a booking to other seats of its category, its people in seat order; the old seats free', async () => {
    const event = await seatedEvent();
    const held = await api('POST', `/api/v1/events/${event.id}/seats/hold`, {
      seats: ['Stalls-B-1', 'Stalls-B-2'],
    });
    const ravi = uniqueEmail('ravi');
    const r = await api('POST', `/api/v1/events/${event.id}/register`, {
      name: 'Asha',
      email: uniqueEmail('asha'),
      holdToken: held.body.data.holdToken,
      teamMembers: [{ name: 'Ravi', email: ravi }],
    });
    assert.equal(r.status, 201, r.text);
    const id = r.body.registrationId as string;
    const [primary, member] = r.body.ticketIds as string[];
    const taken = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-B-4'] });
    assert.equal(taken.status, 201);
    const move = (seats: string[]) =>
      api('POST', `/api/v1/events/${event.id}/registrations/${id}/seats`, { seats });
    assert.deepEqual(
      [(await move(['Stalls-B-3', 'Stalls-B-4'])).body.code, (await move(['Stalls-B-3'])).body.code],
      ['seats_unavailable', 'seat_hold_mismatch'],
      'a held seat; one seat for two people',
    );
    assert.equal(
      (await move(['Stalls-A-3', 'Stalls-A-4'])).body.code,
      'seat_hold_mismatch',
      'Gold, not Silver',
    );
    const moved = await move(['Stalls-B-3', 'Stalls-B-2']);
    assert.equal(moved.status, 200, moved.text);
    const reg = (await api('GET', `/api/v1/events/${event.id}/registrations/${id}`)).body.data;
    assert.deepEqual(
      reg.seats.map((s: { id: string; attendeeId: string }) => [s.id, s.attendeeId]),
      [
        ['Stalls-B-2', member],
        ['Stalls-B-3', primary],
      ],
      'the first person to the first seat named; swapped within the booking is fine',
    );
    assert.deepEqual(await status(event.id), {
      'Stalls-B-2': 'sold',
      'Stalls-B-3': 'sold',
      'Stalls-B-4': 'held',
    });
    const [entry] = await audit('registration.seats_move');
    assert.equal(entry?.target.id, id);
    // Ended, the booking's seats (the moved ones) are freed.
    assert.equal(
      (await api('POST', `/api/v1/events/${event.id}/registrations/${id}/cancel`, {})).status,
      200,
    );
    assert.deepEqual(await status(event.id), { 'Stalls-B-4': 'held' });
    assert.equal((await move(['Stalls-B-1', 'Stalls-B-2'])).status, 404, 'an ended booking has no seats');
  });
});
