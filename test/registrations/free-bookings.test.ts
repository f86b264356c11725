// Free bookings of one seat counter that queue behind the statement in flight are written
// together, in one statement; a group that cannot be written whole is written one by one,
// so each booking gets the answer it would have had alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { FreeBookings, MAX_GROUP } from '../../src/modules/registrations/free-bookings.js';
import type { FreeBooking } from '../../src/modules/registrations/free-booking.repo.js';
import { call, organiser } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('free bookings written together', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer();
    key = (await organiser(server.url)).key;
  });
  after(() => server.close());

  /** The service's database, counting the statements sent through it. */
  function counting(): { db: Kysely<Database>; statements: () => number } {
    let n = 0;
    const db = server.deps.db.withPlugin({
      transformQuery: (a) => {
        n++;
        return a.node;
      },
      transformResult: async (a) => a.result,
    });
    return { db, statements: () => n };
  }

  async function event(capacity: number): Promise<{ id: string; account_id: string; mode: 'test' | 'live' }> {
    const r = await call(server.url, 'POST', '/api/v1/events', { key, body: { title: 'Drop', description: 'x', startDate: '2026-12-31', capacity, maxTeamSize: 3 } });
    assert.equal(r.status, 201);
    return server.deps.db.selectFrom('events').select(['id', 'account_id', 'mode']).where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
  }

  let seq = 0;
  function booking(ev: { id: string; account_id: string; mode: 'test' | 'live' }, quantity: number, id = `reg_fb${++seq}x${Date.now()}`): FreeBooking {
    const now = server.clock.now();
    return {
      row: {
        id,
        event_id: ev.id,
        account_id: ev.account_id,
        mode: ev.mode,
        status: 'confirmed',
        name: `P ${id}`,
        email: `${id.toLowerCase()}@example.in`,
        phone: null,
        ticket_type: 'General',
        sub_event_id: null,
        quantity,
        amount_paise: 0,
        currency: 'INR',
        custom_fields: '{"note":"it\'s {quoted}, \\"really\\""}',
        promo_code: null,
        ticket_code: null,
        created_at: now,
        refund_id: null,
        cancelled_at: null,
      },
      people: Array.from({ length: quantity }, (_, i) => ({ id: i === 0 ? id : `${id}_m${i}`, idx: i, name: `P${i}`, email: `m${i}.${id.toLowerCase()}@example.in` })),
      scope: 'event',
      jobs: [],
      webhookJob: { id: `job_${id}`, topic: 'webhook.deliver', payload: '{}', maxAttempts: 1 },
      webhookType: 'registration.confirmed',
    };
  }

  async function stored(eventId: string) {
    const regs = await server.deps.db.selectFrom('registrations').select(['id', 'quantity', 'custom_fields']).where('event_id', '=', eventId).orderBy('id').execute();
    const people = await server.deps.db
      .selectFrom('attendees')
      .select('id')
      .where(
        'registration_id',
        'in',
        regs.map((r) => r.id).concat(['none']),
      )
      .execute();
    const taken = await server.deps.db.selectFrom('seat_counters').select('taken').where('event_id', '=', eventId).where('scope', '=', 'event').executeTakeFirstOrThrow();
    return { ids: regs.map((r) => r.id), people: people.length, taken: taken.taken, fields: regs.map((r) => r.custom_fields) };
  }

  it('writes a rush in a few statements: the first alone, the rest together, at most MAX_GROUP a statement', async () => {
    const ev = await event(0);
    const { db, statements } = counting();
    const fb = new FreeBookings(db, server.clock);
    const n = 1 + MAX_GROUP + 10;
    const all = Array.from({ length: n }, (_, i) => booking(ev, 1 + (i % 3)));
    // All in one tick: the first finds no statement in flight, the rest queue behind it.
    const results = await Promise.all(all.map((b) => fb.book(b)));
    assert.ok(results.every((r) => r === true));
    assert.equal(statements(), 3, 'one alone, then MAX_GROUP together, then the last 10 together');
    const s = await stored(ev.id);
    const seats = all.reduce((t, b) => t + b.row.quantity, 0);
    assert.deepEqual([s.ids.length, s.people, s.taken], [n, seats, seats]);
    assert.deepEqual(s.fields[0], { note: 'it\'s {quoted}, "really"' }, 'array-borne JSON arrives intact');
  });

  it('when the group has not room for all, writes each alone in order: the ones that fit are booked, the rest refused', async () => {
    const ev = await event(3);
    const { db, statements } = counting();
    const fb = new FreeBookings(db, server.clock);
    const [a, b, c] = [booking(ev, 1), booking(ev, 2), booking(ev, 1)];
    const results = await Promise.all([fb.book(a), fb.book(b), fb.book(c)]);
    // a alone (1 seat), then b + c (3 more) do not fit together; alone, b takes the last 2, c finds none.
    assert.deepEqual(results, [true, true, false]);
    assert.equal(statements(), 4, 'a; b and c together, refused; b alone; c alone');
    const s = await stored(ev.id);
    assert.deepEqual(s.ids, [a.row.id, b.row.id].sort());
    assert.deepEqual([s.people, s.taken], [3, 3], 'nothing of the refused booking is left behind');
  });

  it('when one row of a group is refused, the others are still booked and only that booking fails', async () => {
    const ev = await event(0);
    const fb = new FreeBookings(server.deps.db, server.clock);
    const first = booking(ev, 1);
    const good = booking(ev, 2);
    const clash = booking(ev, 1, first.row.id); // the same id as a booking already stored
    const settled = await Promise.allSettled([fb.book(first), fb.book(good), fb.book(clash)]);
    assert.deepEqual(
      settled.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    assert.equal((settled[1] as PromiseFulfilledResult<boolean>).value, true);
    const s = await stored(ev.id);
    assert.deepEqual(s.ids, [first.row.id, good.row.id].sort());
    assert.deepEqual([s.people, s.taken], [3, 3], 'the refused booking took no seat');
  });
});
