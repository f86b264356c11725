// The reads behind the in-memory rosters, and the door's version counter (door_versions,
// migration 0021). A read holds the event, its version and its bookings in one snapshot, so the
// version a roster records is exactly the one its state reflects, and the snapshot is the cursor
// the next read starts from: a delta is one statement; a whole read is one REPEATABLE READ
// transaction whose head and pages all see that snapshot.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, Mode, RegistrationStatus, TrackDoc } from '../../db/database.js';
import { SEATED_SQL } from '../events/events.service.js';
import { seatsChangedSinceSql, seatWordsSql } from '../seat-holds/booked-seats.service.js';

/** One person of a booking, with the booking's columns. */
export interface RosterPersonRow {
  registration_id: string;
  status: RegistrationStatus;
  ticket_type: string;
  sub_event_id: number | null;
  ticket_code: string | null;
  /** Null when there is none. */
  previous_ticket_codes: string[] | null;
  /** The transactions that last wrote the booking and the person (null: before the door kept track). */
  r_xid: number | null;
  /** Null when it is the booking's own id (the primary's). */
  attendee_id: string | null;
  idx: number;
  name: string;
  email: string;
  checked_in_at: Date | null;
  checked_in_by: string | null;
  a_xid: number | null;
  /** The person's seat in words ("Stalls · Row C, seat 12"); null without one, always null for an event without a seating plan. */
  seat: string | null;
}

/** The event as a read saw it: its snapshot (the cursor), version, columns (null account: no such event), and how many bookings and people. */
export interface RosterHead {
  cursor: string;
  version: number;
  ev_account_id: string | null;
  ev_mode: Mode;
  ev_title: string;
  ev_tracks: TrackDoc[] | null;
  bookings: number;
  people: number;
}

/** A delta's row: the event's columns on each person (registration_id null: no person changed; ev_account_id null: no such event). */
export interface RosterReadRow extends Omit<RosterPersonRow, 'registration_id'> {
  cursor: string;
  version: number;
  ev_account_id: string;
  ev_mode: Mode;
  ev_title: string;
  ev_tracks: TrackDoc[] | null;
  registration_id: string | null;
}

/**
 * A person's seat in words when the statement's `seated` holds, else null without looking: the
 * people of an event without a seating plan cost no seat lookup (the seat-holds module's SQL).
 */
export const seatIfSeated = (seated: RawBuilder<unknown>, registrationId: string, attendeeId: string) =>
  sql<
    string | null
  >`case when ${seated} then ${seatWordsSql(sql.ref(registrationId), sql.ref(attendeeId))} end`;

/** Whether the event has a seating plan, read once by the statement that composes it in. */
// ownership-exception: the door's reads of an event's people ask whether it is seated in the same statement.
export const eventSeated = (eventId: string) =>
  sql<boolean>`(select ${sql.raw(SEATED_SQL)} from events e where e.id = ${eventId})`;

// Lean rows (nulls for the primary's id and no previous codes, transaction ids as numbers, a null
// seat for an event without a plan): a whole read of a large event makes hundreds of thousands of them.
const personColumns = (
  eventId: string,
) => sql`r.id as registration_id, r.status, r.ticket_type, r.sub_event_id, r.ticket_code, nullif(r.previous_ticket_codes, '{}') as previous_ticket_codes,
             r.door_xid::text::float8 as r_xid, nullif(a.id, r.id) as attendee_id, a.idx, a.name, a.email, a.checked_in_at, a.checked_in_by, a.door_xid::text::float8 as a_xid,
             ${seatIfSeated(eventSeated(eventId), 'r.id', 'a.id')} as seat`;

/**
 * The event's bookings and people (all, or those written since the snapshot `since`), the
 * event's version and the read's own snapshot. No row (or one with a null account) when the
 * event does not exist.
 */
// ownership-exception: a roster is the event and its bookings read in one snapshot with the door's version; the door is where slowness shows.
export async function readRoster(
  db: Kysely<Database>,
  eventId: string,
  since: string | null,
): Promise<RosterReadRow[]> {
  const changed =
    since === null
      ? sql`true`
      : sql`(not pg_visible_in_snapshot(r.door_xid, ${since}::pg_snapshot) or exists (select 1 from attendees x where x.registration_id = r.id and not pg_visible_in_snapshot(x.door_xid, ${since}::pg_snapshot)) or ${seatsChangedSinceSql(eventId, sql.ref('r.id'), since)})`;
  const r = await sql<RosterReadRow>`
    with c as (
      select pg_current_snapshot()::text as cursor, coalesce((select d.version from door_versions d where d.event_id = ${eventId}), 0) as version
    )
    select c.cursor, c.version, e.account_id as ev_account_id, e.mode as ev_mode, e.title as ev_title, e.tracks as ev_tracks, x.*
    from c left join events e on e.id = ${eventId} left join (
      select ${personColumns(eventId)}
      from registrations r join attendees a on a.registration_id = r.id
      where r.event_id = ${eventId} and ${changed}
      order by r.created_at, r.id, a.idx
    ) x on e.id is not null`.execute(db);
  return r.rows;
}

/**
 * The event's every booking and person, read in pages of `pageRows` people, all in one snapshot:
 * one REPEATABLE READ transaction reads the head (its snapshot as the cursor, the version, the
 * event, how many bookings and people), then fetches the pages from a cursor over one query,
 * handing each to `page` and awaiting it before the next is fetched. `head` or `page` answering
 * false stops the read. A roster built from these pages holds every change the cursor could see,
 * and nothing it could not: a delta `since` the cursor brings in what changed meanwhile.
 */
// ownership-exception: a roster is the event and its bookings read in one snapshot with the door's version; the door is where slowness shows.
export async function readRosterPages(
  db: Kysely<Database>,
  eventId: string,
  pageRows: number,
  take: { head(head: RosterHead): Promise<boolean>; page(rows: RosterPersonRow[]): Promise<boolean> },
): Promise<void> {
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const head = await sql<RosterHead>`
        select pg_current_snapshot()::text as cursor, coalesce((select d.version from door_versions d where d.event_id = ${eventId}), 0) as version,
          e.account_id as ev_account_id, e.mode as ev_mode, e.title as ev_title, e.tracks as ev_tracks, n.bookings, n.people
        from (select count(distinct r.id)::int as bookings, count(*)::int as people
              from registrations r join attendees a on a.registration_id = r.id where r.event_id = ${eventId}) n
        left join events e on e.id = ${eventId}`.execute(trx);
      if (!(await take.head(head.rows[0]!))) return;
      await sql`declare door_roster no scroll cursor for
        select ${personColumns(eventId)}
        from registrations r join attendees a on a.registration_id = r.id
        where r.event_id = ${eventId}
        order by r.created_at, r.id, a.idx`.execute(trx);
      for (;;) {
        const rows = (
          await sql<RosterPersonRow>`fetch forward ${sql.lit(pageRows)} from door_roster`.execute(trx)
        ).rows;
        if (rows.length > 0 && !(await take.page(rows))) return;
        if (rows.length < pageRows) return;
      }
    });
}

/**
 * Marks the event watched (its changes notified from now on), before its roster is first
 * read. The version row is the one every change of the event locks, so a change committing
 * around this either waits for it (and notifies) or is seen by the read that follows.
 */
export async function watch(db: Kysely<Database>, eventId: string): Promise<void> {
  await sql`insert into door_versions as d (event_id, version, watched) values (${eventId}, 0, true)
    on conflict (event_id) do update set watched = true where not d.watched`.execute(db);
}

/** The database's versions of these events (an event never changed since has none: 0). */
export async function versionsOf(
  query: (
    text: string,
    values: unknown[],
  ) => Promise<{ rows: { event_id: string; version: string | number }[] }>,
  eventIds: readonly string[],
) {
  const r = await query('select event_id, version from door_versions where event_id = any($1::text[])', [
    eventIds,
  ]);
  return new Map(r.rows.map((x) => [x.event_id, Number(x.version)]));
}
