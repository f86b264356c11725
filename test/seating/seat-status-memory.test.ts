// Seat statuses answered from the instance's memory (docs/decisions/23-reserved-seating.md): a
// change another instance makes shows within SEAT_STATUS_MEMORY_MS, a hold, a let-go or a booking
// made on this instance shows in the next read at once, the sandbox clock moved is read afresh,
// and a remembered answer is never given to a caller who may not read the event.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { seatHeldElsewhere } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

const grid = { sections: [{ name: 'Stalls', rows: 1, seatsPerRow: 6, category: 'Gold' }] };

describe('seat statuses from memory', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let planId: string;

  before(async () => {
    server = await startServer({ env: { SEAT_STATUS_MEMORY_MS: '1000' } });
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    planId = plan.body.data.id;
  });
  after(async () => server.close());

  const seatedEvent = () =>
    createEventData(api, {
      seatingPlanId: planId,
      specialPrices: [{ name: 'Gold', price: 0 }],
      maxTeamSize: 2,
    });
  const letters = async (eventId: string, key?: string) => {
    const r = await api('GET', `/api/v1/events/${eventId}/seats/statuses`, undefined, key);
    assert.equal(r.status, 200, r.text);
    return r.body.data.statuses as string;
  };
  const hold = (eventId: string, seats: string[]) =>
    api('POST', `/api/v1/events/${eventId}/seats/hold`, { seats });

  it('answers from memory for a second; this instance’s own holds, let-gos and bookings show at once', async () => {
    const event = await seatedEvent();
    const pk = (await createKey(server.url, org.token, { class: 'checkout' })).key;
    assert.equal(await letters(event.id, pk), 'aaaaaa');
    await seatHeldElsewhere(server, event.id, 'Stalls-A-6');
    assert.equal(await letters(event.id, pk), 'aaaaaa', 'another instance’s hold: not yet');

    const mine = await hold(event.id, ['Stalls-A-1', 'Stalls-A-2']);
    assert.equal(mine.status, 201, mine.text);
    assert.equal(await letters(event.id, pk), 'hhaaah', 'this instance’s hold at once (and the read is new)');
    await seatHeldElsewhere(server, event.id, 'Stalls-A-5');
    assert.equal(await letters(event.id), 'hhaaah', 'a full key reads the same memory');
    server.clock.advance(1000);
    assert.equal(await letters(event.id), 'hhaahh', 'a second later, read again');

    const booked = await api('POST', `/api/v1/events/${event.id}/register`, {
      name: 'Asha Rao',
      email: uniqueEmail('asha'),
      teamMembers: [{ name: 'Ravi Rao', email: uniqueEmail('ravi') }],
      holdToken: mine.body.data.holdToken,
    });
    assert.deepEqual([booked.status, booked.body.status], [201, 'confirmed'], booked.text);
    assert.equal(await letters(event.id), 'ssaahh', 'the booking’s seats sold at once');

    const other = await hold(event.id, ['Stalls-A-3']);
    assert.equal(await letters(event.id), 'sshahh');
    const gone = await api('DELETE', `/api/v1/events/${event.id}/seats/hold/${other.body.data.holdToken}`);
    assert.equal(gone.status, 200, gone.text);
    assert.equal(await letters(event.id), 'ssaahh', 'let go at once');

    // Who may read the event is asked every time: another account's key gets no remembered answer.
    const stranger = await organiser(server.url);
    const refused = await keyApi(server.url, stranger.key)(
      'GET',
      `/api/v1/events/${event.id}/seats/statuses`,
    );
    assert.deepEqual([refused.status, refused.body.code], [403, 'not_your_object']);
  });

  it('reads afresh when the sandbox clock moves: a lapsed hold shows free', async () => {
    const event = await seatedEvent();
    assert.equal(await letters(event.id), 'aaaaaa');
    await seatHeldElsewhere(server, event.id, 'Stalls-A-6');
    const held = await hold(event.id, ['Stalls-A-4']);
    assert.equal(held.status, 201, held.text);
    assert.equal(await letters(event.id), 'aaahah');
    await seatHeldElsewhere(server, event.id, 'Stalls-A-1');
    assert.equal(await letters(event.id), 'aaahah', 'from memory while the clocks stand');
    const moved = await api('POST', '/api/v1/sandbox/clock', { advanceDays: 11 / (24 * 60) });
    assert.equal(moved.status, 200, moved.text);
    try {
      assert.equal(
        await letters(event.id),
        'haaaah',
        'the hold lapsed; the seats held elsewhere are held for an hour',
      );
    } finally {
      await api('DELETE', '/api/v1/sandbox/clock');
    }
  });
});
