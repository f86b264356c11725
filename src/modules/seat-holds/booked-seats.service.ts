// A seated booking's seats through its lifecycle (docs/decisions/23-reserved-seating.md). The hold
// a buyer brings is read before any gateway order (`holdForBooking`), given to the booking in the
// transaction that writes it (`attachHold`: one conditional update, so a hold that lapsed or was let
// go meanwhile rolls the booking back), sold at its confirmation and freed when it ends, both
// through the booking lifecycle. A seat given to a booking never lapses: it is the booking's until
// the booking ends (a paid one keeps its seats through its checkout window, until the sweep expires it).
import type { Kysely, Transaction } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { nowFor } from '../accounts/account-clock.js';
import * as repo from './seat-holds.repo.js';
import { forgetStatuses } from './status-memory.js';

/** A live hold a booking is about to take: its seats in seat order, all of one category. */
export interface HeldSeats {
  eventId: string;
  /** The sitting: -1 the event's own plan, else the seated track's index (the booking's track). */
  track: number;
  token: string;
  category: string;
  seatIds: string[];
  /** The account's clock less the service's (test mode's sandbox clock moves it). */
  offsetMs: number;
}

/** A seat as a booking shows it. */
export interface BookedSeat {
  id: string;
  section: string;
  row: string;
  number: number;
  label: string;
  /** The person it is for (the primary's id is the booking's). */
  attendeeId: string | null;
}

const lapsed = () =>
  conflict(
    'seat_hold_lapsed',
    'this seat hold has lapsed, was let go or was booked already: choose seats again',
  );

/** The live hold `token` of the event; 409 `seat_hold_lapsed` when there is none, 400 `seat_hold_mismatch` for seats of two categories. */
export async function holdForBooking(
  deps: { db: Kysely<Database>; clock: Clock },
  event: { id: string; account_id: string; mode: Mode },
  token: string,
): Promise<HeldSeats> {
  const now = await nowFor(deps, event.account_id, event.mode);
  const rows = await repo.liveHold(deps.db, event.id, token, now);
  if (rows.length === 0) throw lapsed();
  const categories = [...new Set(rows.map((r) => r.category))];
  if (categories.length > 1) {
    throw badRequest(
      'seat_hold_mismatch',
      `this hold has seats of ${categories.join(' and ')}: a booking is of one category, so hold and book each category apart`,
      { field: 'holdToken' },
    );
  }
  return {
    eventId: event.id,
    track: rows[0]!.track,
    token,
    category: categories[0]!,
    seatIds: rows.map((r) => r.seat_id),
    offsetMs: now.getTime() - deps.clock.now().getTime(),
  };
}

/** Gives the held seats to the booking, the n-th seat to its n-th person; 409 `seat_hold_lapsed` when one is no longer held (the caller's transaction rolls back). */
export async function attachHold(
  trx: Transaction<Database>,
  clock: Clock,
  held: HeldSeats,
  registrationId: string,
  attendeeIds: readonly string[],
): Promise<void> {
  const now = new Date(clock.now().getTime() + held.offsetMs);
  const seats = held.seatIds.map((seatId, i) => ({ seatId, attendeeId: attendeeIds[i]! }));
  const given = await repo.attachHold(
    trx,
    { eventId: held.eventId, track: held.track, token: held.token, now },
    registrationId,
    seats,
  );
  if (given !== seats.length) throw lapsed();
}

/** The booking's seats become sold (its confirmation, inside the confirming transaction); answers them in seat order. */
export async function sellSeats(
  trx: Transaction<Database>,
  registrationId: string,
  now: Date,
): Promise<BookedSeat[]> {
  const rows = await repo.sellBookingSeats(trx, registrationId, now);
  // Before the caller commits: a statuses read racing the commit may keep `h` for up to its second.
  if (rows.length > 0) forgetStatuses(rows[0]!.event_id);
  return rows.map(bookedSeat).sort(inSeatOrder);
}

/** How a seat reads on a ticket, an invoice or at the door: "Stalls · Row C, seat 12" (`seatWordsSql` says it in SQL). */
export function seatWords(seat: Pick<BookedSeat, 'section' | 'label'>): string {
  return seat.section === '' ? seat.label : `${seat.section} · ${seat.label}`;
}

/**
 * A person's seat in words, or null, as SQL for the door's statements (which read a booking's
 * people, with their seats, in one round trip); the arguments are that statement's columns.
 */
export const seatWordsSql = repo.seatWordsSql;
/** The bookings whose seats changed since a door roster's cursor, as SQL (see seat-holds.repo.ts). */
export const seatsChangedSinceSql = repo.seatsChangedSinceSql;

const inSeatOrder = (a: BookedSeat, b: BookedSeat) =>
  a.section.localeCompare(b.section) || a.row.localeCompare(b.row) || a.number - b.number;

const bookedSeat = (r: repo.EventSeatRow): BookedSeat => ({
  id: r.seat_id,
  section: r.section,
  row: r.row_label,
  number: r.seat_number,
  label: r.label,
  attendeeId: r.attendee_id,
});

/** The booking's seats come free (it ended, inside the ending transaction). */
export async function freeSeats(trx: Transaction<Database>, registrationId: string): Promise<void> {
  // The event is not at hand here, and bookings end seldom: every event's statuses are read again.
  // Before the caller commits: a read racing the commit may keep the seats taken for up to its second.
  if ((await repo.freeBookingSeats(trx, registrationId)) > 0) forgetStatuses();
}

/** The seats of each of these bookings, in seat order (none for a booking of an event without a plan). */
export async function seatsOf(
  db: Kysely<Database>,
  registrationIds: readonly string[],
): Promise<Map<string, BookedSeat[]>> {
  const out = new Map<string, BookedSeat[]>();
  for (const r of await repo.seatsOfBookings(db, registrationIds)) {
    const seats = out.get(r.registration_id!) ?? [];
    seats.push(bookedSeat(r));
    out.set(r.registration_id!, seats);
  }
  return out;
}

/** The seat of one person of a booking; null when the booking has none. */
export function seatOfPerson(
  seats: ReadonlyMap<string, readonly BookedSeat[]>,
  registrationId: string,
  attendeeId: string,
): BookedSeat | null {
  return seats.get(registrationId)?.find((s) => s.attendeeId === attendeeId) ?? null;
}
