// The seat-holds module's queries (Kysely, taking db | trx). A seat row that is `held` without a
// booking and whose `held_until` has passed counts as free: the next hold takes the row over in the
// same statement that would insert it, so nothing has to sweep lapsed holds before a seat sells again.
import { type Kysely, type RawBuilder, type Selectable, sql, type Transaction } from 'kysely';
import type { Database, EventSeatsTable, Mode } from '../../db/database.js';

export type EventSeatRow = Selectable<EventSeatsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** An event's seats of one plan: its own (track -1), or one track's (its index). */
export interface Sitting {
  eventId: string;
  track: number;
}

export interface SeatToTake {
  seatId: string;
  category: string;
  section: string;
  row: string;
  number: number;
  label: string;
}

/**
 * Holds `seats` of an event under `token` until `until`, in one statement: a seat nobody has is
 * inserted, a seat whose hold lapsed before `now` (and that no booking holds) is taken over, and
 * any other seat is left alone. Answers the ids it took; the caller holds all or none.
 */
export async function takeSeats(
  db: Db,
  event: { id: string; accountId: string; mode: Mode; track: number },
  seats: readonly SeatToTake[],
  hold: { token: string; until: Date; now: Date; clientAddress?: string | null },
): Promise<string[]> {
  if (seats.length === 0) return [];
  const rows = await db
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
        status: 'held' as const,
        hold_token: hold.token,
        held_until: hold.until,
        registration_id: null,
        attendee_id: null,
        client_address: hold.clientAddress ?? null,
        updated_at: hold.now,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['event_id', 'track', 'seat_id'])
        .doUpdateSet((eb) => ({
          status: 'held' as const,
          category: eb.ref('excluded.category'),
          section: eb.ref('excluded.section'),
          row_label: eb.ref('excluded.row_label'),
          seat_number: eb.ref('excluded.seat_number'),
          label: eb.ref('excluded.label'),
          hold_token: eb.ref('excluded.hold_token'),
          held_until: eb.ref('excluded.held_until'),
          registration_id: null,
          attendee_id: null,
          client_address: eb.ref('excluded.client_address'),
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

/** A sitting's seats that are not available at `now`: sold, blocked, or held by a hold that has not lapsed. */
export async function takenSeats(db: Db, sitting: Sitting, now: Date): Promise<EventSeatRow[]> {
  return db
    .selectFrom('event_seats')
    .selectAll()
    .where('event_id', '=', sitting.eventId)
    .where('track', '=', sitting.track)
    .where((eb) =>
      eb.or([eb('status', '!=', 'held'), eb('registration_id', 'is not', null), eb('held_until', '>', now)]),
    )
    .execute();
}

/** The ids of a sitting's seats not available at `now` (as `takenSeats`, ids only). */
export async function takenSeatIds(db: Db, sitting: Sitting, now: Date): Promise<string[]> {
  return (await takenSeatStatuses(db, sitting, now)).map((r) => r.seat_id);
}

/** A sitting's seats not available at `now` and their status (as `takenSeats`, those two columns only). */
export async function takenSeatStatuses(db: Db, sitting: Sitting, now: Date) {
  return db
    .selectFrom('event_seats')
    .select(['seat_id', 'status'])
    .where('event_id', '=', sitting.eventId)
    .where('track', '=', sitting.track)
    .where((eb) =>
      eb.or([eb('status', '!=', 'held'), eb('registration_id', 'is not', null), eb('held_until', '>', now)]),
    )
    .execute();
}

/** The sittings of an event with a seat booked or held at `now` (house seats aside). */
export async function sittingsInUse(db: Db, eventId: string, now: Date): Promise<Set<number>> {
  const rows = await db
    .selectFrom('event_seats')
    .select('track')
    .distinct()
    .where('event_id', '=', eventId)
    .where('status', '!=', 'blocked')
    .where((eb) => eb.or([eb('registration_id', 'is not', null), eb('held_until', '>', now)]))
    .execute();
  return new Set(rows.map((r) => r.track));
}

/** Whether a seat of track `index` or a later one is booked, held (not lapsed at `now`) or kept back. */
export async function anySeatOnTracksFrom(
  db: Db,
  eventId: string,
  index: number,
  now: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom('event_seats')
    .select('seat_id')
    .where('event_id', '=', eventId)
    .where('track', '>=', index)
    .where((eb) =>
      eb.or([eb('status', '!=', 'held'), eb('registration_id', 'is not', null), eb('held_until', '>', now)]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The seats a hold no booking has taken has (lapsed or not). */
export async function seatIdsOfHold(db: Db, sitting: Sitting, token: string): Promise<string[]> {
  const rows = await db
    .selectFrom('event_seats')
    .select('seat_id')
    .where('event_id', '=', sitting.eventId)
    .where('track', '=', sitting.track)
    .where('hold_token', '=', token)
    .where('status', '=', 'held')
    .where('registration_id', 'is', null)
    .execute();
  return rows.map((r) => r.seat_id);
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

/** The seats held under `token` that no booking has yet and whose hold has not lapsed at `now`, in seat order. */
export async function liveHold(db: Db, eventId: string, token: string, now: Date): Promise<EventSeatRow[]> {
  return db
    .selectFrom('event_seats')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('hold_token', '=', token)
    .where('status', '=', 'held')
    .where('registration_id', 'is', null)
    .where('held_until', '>', now)
    .orderBy('section')
    .orderBy('row_label')
    .orderBy('seat_number')
    .orderBy('seat_id')
    .execute();
}

/**
 * Gives the seats of a live hold to a booking, each to its person, in one statement that takes
 * only seats still held under `token`, by no booking, and not lapsed at `now`. Answers how many
 * it gave: fewer than asked means the hold lapsed or was let go meanwhile, and the caller rolls back.
 */
export async function attachHold(
  trx: Transaction<Database>,
  hold: { eventId: string; track: number; token: string; now: Date },
  registrationId: string,
  seats: readonly { seatId: string; attendeeId: string }[],
): Promise<number> {
  const r = await sql`
    update event_seats as e
       set registration_id = ${registrationId}, attendee_id = v.attendee_id, updated_at = ${hold.now}
      from unnest(${seats.map((s) => s.seatId)}::text[], ${seats.map((s) => s.attendeeId)}::text[])
           as v(seat_id, attendee_id)
     where e.event_id = ${hold.eventId} and e.track = ${hold.track} and e.seat_id = v.seat_id
       and e.hold_token = ${hold.token}
       and e.status = 'held' and e.registration_id is null and e.held_until > ${hold.now}`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

/** A booking's held seats become sold (its confirmation); answers them. */
export async function sellBookingSeats(trx: Transaction<Database>, registrationId: string, now: Date) {
  return trx
    .updateTable('event_seats')
    .set({ status: 'sold', held_until: null, updated_at: now })
    .where('registration_id', '=', registrationId)
    .where('status', '=', 'held')
    .returningAll()
    .execute();
}

/** A booking's seats, held or sold, come free (it ended): the rows go, so the seats are available. */
export async function freeBookingSeats(trx: Transaction<Database>, registrationId: string): Promise<number> {
  const r = await trx
    .deleteFrom('event_seats')
    .where('registration_id', '=', registrationId)
    .where('status', 'in', ['held', 'sold'])
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The seats of these bookings, in seat order. */
export async function seatsOfBookings(db: Db, registrationIds: readonly string[]): Promise<EventSeatRow[]> {
  if (registrationIds.length === 0) return [];
  return db
    .selectFrom('event_seats')
    .selectAll()
    .where('registration_id', 'in', registrationIds)
    .orderBy('section')
    .orderBy('row_label')
    .orderBy('seat_number')
    .orderBy('seat_id')
    .execute();
}

/** How many seats of an event one client address holds now (live holds no booking has taken), but for the hold `except`. */
export async function heldByAddress(
  db: Db,
  eventId: string,
  clientAddress: string,
  now: Date,
  except?: string,
): Promise<number> {
  let q = db
    .selectFrom('event_seats')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('event_id', '=', eventId)
    .where('client_address', '=', clientAddress)
    .where('status', '=', 'held')
    .where('registration_id', 'is', null)
    .where('held_until', '>', now);
  if (except !== undefined) q = q.where('hold_token', '!=', except);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The seat one person of a booking has, in words ("Stalls · Row C, seat 12", as `seatWords` in
 * booked-seats.service.ts writes them), or null: a scalar sub-select for another module's statement
 * to compose in, so the door reads a booking's people with their seats in one round trip.
 * `registrationId` and `attendeeId` are that statement's columns (`sql.ref`).
 */
export function seatWordsSql(registrationId: RawBuilder<unknown>, attendeeId: RawBuilder<unknown>) {
  return sql<
    string | null
  >`(select case when s.section = '' then s.label else s.section || ' · ' || s.label end
    from event_seats s where s.registration_id = ${registrationId} and s.attendee_id = ${attendeeId} limit 1)`;
}

/**
 * The bookings of an event whose seats were written since the snapshot `since` (a door roster's
 * cursor), as a condition on another module's statement over `registrationId`: one pass over the
 * event's seat rows, none for an event without a plan.
 */
export function seatsChangedSinceSql(eventId: string, registrationId: RawBuilder<unknown>, since: string) {
  return sql<boolean>`${registrationId} in (select s.registration_id from event_seats s
    where s.event_id = ${eventId} and s.registration_id is not null
      and not pg_visible_in_snapshot(s.door_xid, ${since}::pg_snapshot))`;
}
