// Free bookings that queue behind the statement in flight are written together, in one
// statement, whatever their events; a group fails per booking, never as a whole, so each
// booking gets the answer it would have had alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { FreeBookings, MAX_GROUP } from '../../src/modules/registrations/free-bookings.js';
import type { FreeBooking } from '../../src/modules/registrations/lifecycle/free-booking.repo.js';
import { organiser } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { eventRow, seatsTaken } from '../helpers/rows.js';

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
    return eventRow(
      server,
      await createEvent(keyApi(server.url, key), {
        title: 'Drop',
        startDate: '2026-12-31',
        capacity,
        maxTeamSize: 3,
      }),
    );
  }

  let seq = 0;
  function booking(
    ev: { id: string; account_id: string; mode: 'test' | 'live' },
    quantity: number,
    id = `reg_fb${++seq}x${Date.now()}`,
  ): FreeBooking {
    const now = server.clock.now();
    return {
      row: {
        id,
        event_id: ev.id,
        account_id: ev.account_id,
        mode: ev.mode,
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
      people: Array.from({ length: quantity }, (_, i) => ({
        id: i === 0 ? id : `${id}_m${i}`,
        idx: i,
        name: `P${i}`,
        email: `m${i}.${id.toLowerCase()}@example.in`,
      })),
      scope: 'event',
      jobs: [],
      webhookJob: { id: `job_${id}`, topic: 'webhook.deliver', payload: '{}', maxAttempts: 1 },
      webhookType: 'registration.confirmed',
      auditRow: {
        id: `aud_${id}`,
        account_id: ev.account_id,
        mode: ev.mode,
        actor_kind: 'key',
        actor_id: 'key_x',
        actor_display: 'key_x',
        action: 'registration.book',
        target_type: 'registration',
        target_id: id,
        before: null,
        after: '{"status":"confirmed"}',
        at: now,
      },
    };
  }

  async function stored(eventId: string) {
    const regs = await server.deps.db
      .selectFrom('registrations')
      .select(['id', 'quantity', 'custom_fields'])
      .where('event_id', '=', eventId)
      .orderBy('id')
      .execute();
    const people = await server.deps.db
      .selectFrom('attendees')
      .select('id')
      .where('registration_id', 'in', regs.map((r) => r.id).concat(['none']))
      .execute();
    const taken = await seatsTaken(server, eventId);
    return {
      ids: regs.map((r) => r.id),
      people: people.length,
      taken,
      fields: regs.map((r) => r.custom_fields),
    };
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

  it('when the counter has not room for all, books in order while it has room and refuses the rest, in the same statement', async () => {
    const ev = await event(3);
    const { db, statements } = counting();
    const fb = new FreeBookings(db, server.clock);
    const [a, b, c] = [booking(ev, 1), booking(ev, 2), booking(ev, 1)];
    const results = await Promise.all([fb.book(a), fb.book(b), fb.book(c)]);
    // a alone (1 seat), then b and c together: b takes the last 2, c finds none.
    assert.deepEqual(results, [true, true, false]);
    assert.equal(statements(), 2, 'a; b and c together');
    const s = await stored(ev.id);
    assert.deepEqual(s.ids, [a.row.id, b.row.id].sort());
    assert.deepEqual([s.people, s.taken], [3, 3], 'nothing of the refused booking is left behind');
  });

  it('tries again a smaller booking refused behind a larger one, so it gets the answer it would have had alone', async () => {
    const ev = await event(3);
    const { db, statements } = counting();
    const fb = new FreeBookings(db, server.clock);
    const [a, big, small, same] = [booking(ev, 1), booking(ev, 3), booking(ev, 2), booking(ev, 3)];
    const results = await Promise.all([fb.book(a), fb.book(big), fb.book(small), fb.book(same)]);
    // a alone; then big (3 of the 2 left) is refused and everything after it on the counter with
    // it; small (2) is tried again alone and fits; same (3) cannot fit where big did not.
    assert.deepEqual(results, [true, false, true, false]);
    assert.equal(statements(), 3, 'a; big, small and same together; small again');
    const s = await stored(ev.id);
    assert.deepEqual(s.ids, [a.row.id, small.row.id].sort());
    assert.deepEqual([s.people, s.taken], [3, 3]);
  });

  it('writes bookings of many events in one statement, each claiming its own counter; a full event refuses only its own', async () => {
    const open = await Promise.all(Array.from({ length: 6 }, () => event(0)));
    const tight = await event(2);
    const { db, statements } = counting();
    const fb = new FreeBookings(db, server.clock);
    const first = booking(open[0]!, 1);
    const rest = [
      ...open.map((e) => booking(e, 2)),
      booking(tight, 1),
      booking(tight, 1),
      booking(tight, 1),
      ...open.map((e) => booking(e, 1)),
    ];
    const results = await Promise.all([fb.book(first), ...rest.map((b) => fb.book(b))]);
    assert.equal(statements(), 2, 'the first alone, then every other event together');
    const refused = rest.filter((_, i) => results[i + 1] === false);
    assert.deepEqual(
      refused.map((b) => b.row.id),
      [rest[8]!.row.id],
      'only the third booking of the event of 2 seats is refused',
    );
    for (const e of open) {
      const s = await stored(e.id);
      const seats = [first, ...rest]
        .filter((b) => b.row.event_id === e.id)
        .reduce((t, b) => t + b.row.quantity, 0);
      assert.deepEqual([s.people, s.taken], [seats, seats], `event ${e.id}: people and counter agree`);
    }
    const t = await stored(tight.id);
    assert.deepEqual([t.ids.length, t.people, t.taken], [2, 2, 2]);
  });

  it('when one row of a group is refused, the others are still booked and only that booking fails', async () => {
    const ev = await event(0);
    const other = await event(0);
    const fb = new FreeBookings(server.deps.db, server.clock);
    const first = booking(ev, 1);
    const good = [booking(ev, 2), booking(other, 1), booking(ev, 1), booking(other, 2)];
    const clash = booking(ev, 1, first.row.id); // the same id as a booking already stored
    const settled = await Promise.allSettled([
      fb.book(first),
      fb.book(good[0]!),
      fb.book(good[1]!),
      fb.book(clash),
      fb.book(good[2]!),
      fb.book(good[3]!),
    ]);
    assert.deepEqual(
      settled.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.ok(settled.every((r) => r.status === 'rejected' || r.value === true));
    const s = await stored(ev.id);
    assert.deepEqual(s.ids, [first.row.id, good[0]!.row.id, good[2]!.row.id].sort());
    assert.deepEqual([s.people, s.taken], [4, 4], 'the refused booking took no seat');
    const o = await stored(other.id);
    assert.deepEqual([o.ids.length, o.people, o.taken], [2, 3, 3]);
  });
});
