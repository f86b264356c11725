// The seat-holds module's queries (Kysely, taking db | trx). A seat row that is `held` without a
// booking and whose `held_until` has passed counts as free: the next hold takes the row over in the
// same statement that would insert it, so nothing has to sweep lapsed holds before a seat sells again.
import type { Kysely, Selectable } from 'kysely';
import type { Database, EventSeatsTable, Mode } from '../../db/database.js';

export type EventSeatRow = Selectable<EventSeatsTable>;
type Db = Kysely<Database>;

export interface SeatToTake {
  seatId: string;
  category: string;
}

/**
 * Holds `seats` of an event under `token` until `until`, in one statement: a seat nobody has is
 * inserted, a seat whose hold lapsed before `now` (and that no booking holds) is taken over, and
 * any other seat is left alone. Answers the ids it took; the caller holds all or none.
 */
export async function takeSeats(
  db: Db,
  event: { id: string; accountId: string; mode: Mode },
  seats: readonly SeatToTake[],
  hold: { token: string; until: Date; now: Date },
): Promise<string[]> {
  if (seats.length === 0) return [];
  const rows = await db
    .insertInto('event_seats')
    .values(
      seats.map((s) => ({
        event_id: event.id,
        seat_id: s.seatId,
        account_id: event.accountId,
        mode: event.mode,
        category: s.category,
        status: 'held' as const,
        hold_token: hold.token,
        held_until: hold.until,
        registration_id: null,
        updated_at: hold.now,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['event_id', 'seat_id'])
        .doUpdateSet((eb) => ({
          status: 'held' as const,
          category: eb.ref('excluded.category'),
          hold_token: eb.ref('excluded.hold_token'),
          held_until: eb.ref('excluded.held_until'),
          registration_id: null,
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .where('event_seats.status', '=', 'held')
        .where('event_seats.registration_id', 'is', null)
        .where('event_seats.held_until', '<=', hold.now),
    )
    .returning('seat_id')
    .execute();
  return rows.map((r) => r.seat_id);
}

/** The event's seats that are not available at `now`: sold, blocked, or held by a hold that has not lapsed. */
export async function takenSeats(db: Db, eventId: string, now: Date): Promise<EventSeatRow[]> {
  return db
    .selectFrom('event_seats')
    .selectAll()
    .where('event_id', '=', eventId)
    .where((eb) =>
      eb.or([eb('status', '!=', 'held'), eb('registration_id', 'is not', null), eb('held_until', '>', now)]),
    )
    .execute();
}

/** Lets go of a hold no booking has taken yet; answers how many seats it freed. */
export async function releaseHold(db: Db, eventId: string, token: string): Promise<number> {
  const r = await db
    .deleteFrom('event_seats')
    .where('event_id', '=', eventId)
    .where('hold_token', '=', token)
    .where('status', '=', 'held')
    .where('registration_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
