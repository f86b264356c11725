// The seat-holds module's queries for the organiser's own seat changes (house-seats.service.ts):
// house seats kept back and given back, and a booking's seat rows moved in place.
import { type Kysely, type Transaction } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import type { EventSeatRow, SeatToTake, Sitting } from './seat-holds.repo.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Keeps seats of an event back (house seats) in one statement: a seat nobody has, or whose hold
 * lapsed before `now` with no booking, becomes `blocked`; any other seat is left alone. Answers the
 * ids it took; the caller blocks all or none.
 */
export async function blockSeats(
  trx: Transaction<Database>,
  event: { id: string; accountId: string; mode: Mode; track: number },
  seats: readonly SeatToTake[],
  now: Date,
): Promise<string[]> {
  if (seats.length === 0) return [];
  const rows = await trx
    .insertInto('event_seats')
    .values(
      seats.map((s) => ({
        event_id: event.id,
        track: event.track,
        seat_id: s.seatId,
        account_id: event.accountId,
        mode: event.mode,
        category: s.category,
        section: s.section,
        row_label: s.row,
        seat_number: s.number,
        label: s.label,
        status: 'blocked' as const,
        hold_token: null,
        held_until: null,
        registration_id: null,
        attendee_id: null,
        client_address: null,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['event_id', 'track', 'seat_id'])
        .doUpdateSet({
          status: 'blocked',
          hold_token: null,
          held_until: null,
          client_address: null,
          updated_at: now,
        })
        .where('event_seats.status', '=', 'held')
        .where('event_seats.registration_id', 'is', null)
        .where('event_seats.held_until', '<=', now),
    )
    .returning('seat_id')
    .execute();
  return rows.map((r) => r.seat_id);
}

/** Gives house seats back to sale; answers the ids that were kept back. */
export async function releaseBlocked(
  trx: Transaction<Database>,
  sitting: Sitting,
  seatIds: readonly string[],
): Promise<string[]> {
  if (seatIds.length === 0) return [];
  const rows = await trx
    .deleteFrom('event_seats')
    .where('event_id', '=', sitting.eventId)
    .where('track', '=', sitting.track)
    .where('seat_id', 'in', seatIds)
    .where('status', '=', 'blocked')
    .returning('seat_id')
    .execute();
  return rows.map((r) => r.seat_id);
}

/** How many house seats an event keeps back, by sitting and category. */
export async function blockedByCategory(db: Db, eventId: string): Promise<Map<number, Map<string, number>>> {
  const rows = await db
    .selectFrom('event_seats')
    .select(['track', 'category', (eb) => eb.fn.countAll<string>().as('n')])
    .where('event_id', '=', eventId)
    .where('status', '=', 'blocked')
    .groupBy(['track', 'category'])
    .execute();
  const out = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const byCategory = out.get(r.track) ?? new Map<string, number>();
    byCategory.set(r.category, Number(r.n));
    out.set(r.track, byCategory);
  }
  return out;
}

/** A booking's seats on an event, locked for the caller's transaction, in seat order. */
export async function lockBookingSeats(
  trx: Transaction<Database>,
  eventId: string,
  registrationId: string,
): Promise<EventSeatRow[]> {
  return trx
    .selectFrom('event_seats')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('registration_id', '=', registrationId)
    .orderBy('section')
    .orderBy('row_label')
    .orderBy('seat_number')
    .orderBy('seat_id')
    .forUpdate()
    .execute();
}

/** Drops the rows of lapsed holds (no booking) on these seats, so the seats can be taken by an update. */
export async function dropLapsedHolds(
  trx: Transaction<Database>,
  sitting: Sitting,
  seatIds: readonly string[],
  now: Date,
): Promise<void> {
  await trx
    .deleteFrom('event_seats')
    .where('event_id', '=', sitting.eventId)
    .where('track', '=', sitting.track)
    .where('seat_id', 'in', seatIds)
    .where('status', '=', 'held')
    .where('registration_id', 'is', null)
    .where('held_until', '<=', now)
    .execute();
}

/**
 * Moves a booked seat's row to another seat, in place (the row stays the booking's, so an end or
 * a confirmation of the booking running at once follows it). Two steps, through a name no seat
 * has, so seats may be swapped within a booking; a seat another row has fails on the key.
 */
export async function moveSeatRow(
  trx: Transaction<Database>,
  sitting: Sitting,
  from: string,
  to: SeatToTake | { parked: true },
  now: Date,
): Promise<void> {
  const set =
    'parked' in to
      ? { seat_id: `moving:${from}`, updated_at: now }
      : {
          seat_id: to.seatId,
          section: to.section,
          row_label: to.row,
          seat_number: to.number,
          label: to.label,
          updated_at: now,
        };
  await trx
    .updateTable('event_seats')
    .set(set)
    .where('event_id', '=', sitting.eventId)
    .where('track', '=', sitting.track)
    .where('seat_id', '=', 'parked' in to ? from : `moving:${from}`)
    .execute();
}
