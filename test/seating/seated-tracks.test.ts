// Tracks with seating plans of their own (docs/decisions/23-reserved-seating.md, "tracks may have
// their own plan"): each track is a sitting of its plan, so the same seat of a shared plan is held
// and sold once in each track; a track's capacity is its plan's seats, a tier's its category's
// over every track; the hold names the track and the booking takes it from the hold; a track
// keeps its plan, and its place, while its seats are booked, held or kept back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, EVENT_DEFAULTS, keyApi, type Api } from '../helpers/factories.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const hall = { sections: [{ name: 'Stalls', rows: 2, seatsPerRow: 4, category: ['Gold', 'Silver'] }] };
const studio = { sections: [{ name: 'Studio', rows: 1, seatsPerRow: 3, category: 'Gold' }] };

describe('tracks seated from plans of their own', () => {
  let server: TestServer;
  let api: Api;
  let hallId: string;
  let studioId: string;

  before(async () => {
    server = await startServer();
    const org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    for (const [name, grid] of [
      ['Hall', hall],
      ['Studio', studio],
    ] as const) {
      const r = await api('POST', '/api/v1/seating-plans', { name, grid });
      assert.equal(r.status, 201, r.text);
      if (name === 'Hall') hallId = r.body.data.id;
      else studioId = r.body.data.id;
    }
  });
  after(async () => server.close());

  const tiers = [
    { name: 'Gold', price: 0 },
    { name: 'Silver', price: 0 },
  ];
  /** Matinee and evening in the hall (one plan, two sittings). */
  const twoShows = (fields: Record<string, unknown> = {}) =>
    createEventData(api, {
      specialPrices: tiers,
      maxTeamSize: 4,
      wholeEventOption: true,
      tracks: [
        { title: 'Matinee', seatingPlanId: hallId },
        { title: 'Evening', seatingPlanId: hallId },
      ],
      ...fields,
    });
  const hold = (eventId: string, body: Record<string, unknown>) =>
    api('POST', `/api/v1/events/${eventId}/seats/hold`, body);
  const unavailable = async (eventId: string, track: number) => {
    const r = await api('GET', `/api/v1/events/${eventId}/seats?only=unavailable&subEventId=${track}`);
    assert.equal(r.status, 200, r.text);
    return (r.body.data.seats as { id: string; status: string }[]).map((s) => `${s.id} ${s.status}`);
  };
  const book = (eventId: string, body: Record<string, unknown>) =>
    api('POST', `/api/v1/events/${eventId}/register`, { name: 'Asha', email: uniqueEmail('asha'), ...body });

  it('takes each track’s capacity from its plan, the tiers’ over every track, and sells no whole event', async () => {
    const event = await twoShows();
    assert.deepEqual(
      event.tracks.map((t: { capacity: number; seatingPlanId: string }) => [t.capacity, t.seatingPlanId]),
      [
        [8, hallId],
        [8, hallId],
      ],
    );
    assert.equal(event.capacity, 16);
    assert.deepEqual(
      event.specialPrices.map((t: { name: string; capacity: number }) => [t.name, t.capacity]),
      [
        ['Gold', 8],
        ['Silver', 8],
      ],
      'four of each category per show, over two shows',
    );
    assert.equal(event.wholeEventOption, false, 'a seated event with tracks books a track');

    // fixture-exception: a refused creation is this test's subject
    const mixed = await api('POST', '/api/v1/events', {
      ...EVENT_DEFAULTS,
      specialPrices: tiers,
      tracks: [{ title: 'Seated', seatingPlanId: hallId }, { title: 'Standing' }],
    });
    assert.equal(mixed.status, 400, mixed.text);
    assert.equal(mixed.body.code, 'invalid_seating_plan', mixed.text);
    // fixture-exception: a refused creation is this test's subject
    const both = await api('POST', '/api/v1/events', {
      ...EVENT_DEFAULTS,
      seatingPlanId: hallId,
      specialPrices: tiers,
      tracks: [{ title: 'Seated', seatingPlanId: hallId }],
    });
    assert.equal(both.status, 400, both.text);
    assert.equal(both.body.code, 'invalid_seating_plan');

    const added = await api('POST', `/api/v1/events/${event.id}/tracks`, {
      title: 'Late',
      seatingPlanId: studioId,
    });
    assert.equal(added.status, 201, added.text);
    const after = (await api('GET', `/api/v1/events/${event.id}`)).body.data;
    assert.equal(after.tracks[2].capacity, 3, 'the studio’s three seats');
    assert.equal(after.capacity, 19);
    assert.equal(after.specialPrices.find((t: { name: string }) => t.name === 'Gold').capacity, 11);
    const unseated = await api('POST', `/api/v1/events/${event.id}/tracks`, { title: 'Open' });
    assert.equal(unseated.status, 400, unseated.text);
    assert.equal(unseated.body.code, 'invalid_seating_plan');
  });

  it('holds the same seat once in each track, and books the track of the hold', async () => {
    const event = await twoShows();
    const noTrack = await hold(event.id, { seats: ['Stalls-A-1'] });
    assert.equal(noTrack.status, 400, noTrack.text);
    assert.equal(noTrack.body.code, 'track_required');
    const matinee = await hold(event.id, { seats: ['Stalls-A-1', 'Stalls-A-2'], subEventId: '0' });
    assert.equal(matinee.status, 201, matinee.text);
    const evening = await hold(event.id, { seats: ['Stalls-A-1'], subEventId: '1' });
    assert.equal(evening.status, 201, 'the evening’s A-1 is another seat than the matinee’s');
    const again = await hold(event.id, { seats: ['Stalls-A-2'], subEventId: '0' });
    assert.equal(again.status, 409, again.text);
    assert.deepEqual(await unavailable(event.id, 0), ['Stalls-A-1 held', 'Stalls-A-2 held']);
    assert.deepEqual(await unavailable(event.id, 1), ['Stalls-A-1 held']);
    const letters = await api('GET', `/api/v1/events/${event.id}/seats/statuses?subEventId=1`);
    assert.equal(letters.status, 200, letters.text);
    assert.equal(letters.body.data.statuses, 'haaaaaaa');

    const wrongTrack = await book(event.id, { holdToken: evening.body.data.holdToken, subEventId: '0' });
    assert.equal(wrongTrack.status, 400, wrongTrack.text);
    assert.equal(wrongTrack.body.code, 'seat_hold_mismatch');
    const noHold = await book(event.id, { subEventId: '0' });
    assert.equal(noHold.status, 400, noHold.text);
    assert.equal(noHold.body.code, 'seat_hold_required');

    const r = await book(event.id, {
      holdToken: matinee.body.data.holdToken,
      teamMembers: [{ name: 'Ravi', email: uniqueEmail('ravi') }],
    });
    assert.equal(r.status, 201, r.text);
    const reg = (await api('GET', `/api/v1/events/${event.id}/registrations/${r.body.registrationId}`)).body
      .data;
    assert.equal(reg.subEventId, '0', 'the hold’s track is the booking’s');
    assert.equal(reg.ticketType, 'Gold');
    assert.deepEqual(
      reg.seats.map((s: { label: string }) => s.label),
      ['Row A, seat 1', 'Row A, seat 2'],
    );
    assert.deepEqual(await unavailable(event.id, 0), ['Stalls-A-1 sold', 'Stalls-A-2 sold']);
    assert.deepEqual(await unavailable(event.id, 1), ['Stalls-A-1 held'], 'the evening is untouched');
    const avail = (await api('GET', `/api/v1/events/${event.id}/availability?subEventId=0`)).body.data;
    assert.deepEqual([avail.capacity, avail.taken], [8, 2]);

    const scan = await api(
      'GET',
      `/api/v1/events/${event.id}/check-in?registrationId=${r.body.registrationId}`,
    );
    assert.equal(scan.status, 200, scan.text);
    assert.equal(scan.body.data.seat, 'Stalls · Row A, seat 1', 'the door shows a seated track’s seat');
  });

  it('keeps a track’s plan and place while its seats are held, and its house seats apart', async () => {
    const event = await twoShows();
    const held = await hold(event.id, { category: 'Silver', quantity: 1, subEventId: '1' });
    assert.equal(held.status, 201, held.text);
    const change = await api('PATCH', `/api/v1/events/${event.id}/tracks/1`, { seatingPlanId: studioId });
    assert.equal(change.status, 409, change.text);
    assert.equal(change.body.code, 'seating_plan_in_use');
    const remove = await api('DELETE', `/api/v1/events/${event.id}/tracks/0`);
    assert.equal(remove.status, 409, remove.text);
    assert.equal(remove.body.code, 'track_in_use');

    const other = await api('PATCH', `/api/v1/events/${event.id}/tracks/0`, { seatingPlanId: studioId });
    assert.equal(other.status, 200, 'the matinee has no seat taken: its plan may change');
    assert.equal(other.body.data.capacity, 3);

    const block = await api('POST', `/api/v1/events/${event.id}/seats/block`, {
      seats: ['Stalls-A-3', 'Stalls-A-4'],
      subEventId: '1',
    });
    assert.equal(block.status, 200, block.text);
    const after = (await api('GET', `/api/v1/events/${event.id}`)).body.data;
    assert.deepEqual(
      after.tracks.map((t: { capacity: number }) => t.capacity),
      [3, 6],
      'the evening’s house seats leave its capacity; the matinee (now the studio) keeps its own',
    );
    assert.deepEqual(await unavailable(event.id, 1), [
      'Stalls-A-3 blocked',
      'Stalls-A-4 blocked',
      `${held.body.data.seats[0].id} held`,
    ]);
  });

  it('waits for a category of one session: sold out there, free in the other; offered when that session frees one', async () => {
    const event = await twoShows({ waitlist: { enabled: true, offerMinutes: 30 } });
    await api('PATCH', `/api/v1/events/${event.id}`, { status: 'published' });
    const gold = ['Stalls-A-1', 'Stalls-A-2', 'Stalls-A-3', 'Stalls-A-4'];
    const row = await hold(event.id, { seats: gold, subEventId: '1' });
    assert.equal(row.status, 201, row.text);
    const full = await book(event.id, {
      holdToken: row.body.data.holdToken,
      teamMembers: gold.slice(1).map((_, i) => ({ name: `Friend ${i + 1}`, email: uniqueEmail(`f${i}`) })),
    });
    assert.equal(full.status, 201, full.text);
    const email = uniqueEmail('wen');
    const joined = await api('POST', `/api/v1/events/${event.id}/waitlist`, {
      name: 'Waiting Wen',
      email,
      subEventId: '1',
      ticketType: 'Gold',
    });
    assert.equal(joined.status, 201, 'Gold is sold out in the evening, though free in the matinee');
    const silver = await hold(event.id, { seats: ['Stalls-B-1'], subEventId: '1' });
    const one = await book(event.id, { holdToken: silver.body.data.holdToken });
    assert.equal(one.status, 201, one.text);
    const entry = async () => {
      const list = await api('GET', `/api/v1/events/${event.id}/waitlist`);
      return list.body.data.find((e: { email: string }) => e.email === email).status as string;
    };
    const cancel = (id: string) => api('POST', `/api/v1/events/${event.id}/registrations/${id}/cancel`, {});
    assert.equal((await cancel(one.body.registrationId)).status, 200);
    assert.equal(await entry(), 'waiting', 'a Silver seat freed in the evening is no Gold seat');
    assert.equal((await cancel(full.body.registrationId)).status, 200);
    assert.equal(await entry(), 'offered', 'the evening’s Gold seats came free');
  });
});
