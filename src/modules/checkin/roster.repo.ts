// The reads behind the in-memory rosters, and the door's version counter (door_versions,
// migration 0021): one statement reads the event, its version and its bookings in one
// snapshot, so the version a roster records is exactly the one its state reflects.
import { type Kysely, sql } from 'kysely';
import type { Database, Mode, RegistrationStatus, TrackDoc } from '../../db/database.js';

export interface RosterReadRow {
  cursor: string;
  version: number;
  ev_account_id: string;
  ev_mode: Mode;
  ev_title: string;
  ev_tracks: TrackDoc[] | null;
  registration_id: string | null;
  status: RegistrationStatus;
  ticket_type: string;
  sub_event_id: number | null;
  ticket_code: string | null;
  previous_ticket_codes: string[] | null;
  r_xid: string | null;
  attendee_id: string;
  idx: number;
  name: string;
  email: string;
  checked_in_at: Date | null;
  checked_in_by: string | null;
  a_xid: string | null;
}

/**
 * The event's bookings and people (all, or those written since the snapshot `since`), the
 * event's version and the read's own snapshot. No row (or one with a null account) when the
 * event does not exist.
 */
// ownership-exception: a roster is the event and its bookings read in one snapshot with the door's version; the door is where slowness shows.
export async function readRoster(db: Kysely<Database>, eventId: string, since: string | null): Promise<RosterReadRow[]> {
  const changed =
    since === null
      ? sql`true`
      : sql`(not pg_visible_in_snapshot(r.door_xid, ${since}::pg_snapshot) or exists (select 1 from attendees x where x.registration_id = r.id and not pg_visible_in_snapshot(x.door_xid, ${since}::pg_snapshot)))`;
  const r = await sql<RosterReadRow>`
    with c as (
      select pg_current_snapshot()::text as cursor, coalesce((select d.version from door_versions d where d.event_id = ${eventId}), 0) as version
    )
    select c.cursor, c.version, e.account_id as ev_account_id, e.mode as ev_mode, e.title as ev_title, e.tracks as ev_tracks, x.*
    from c left join events e on e.id = ${eventId} left join (
      select r.id as registration_id, r.status, r.ticket_type, r.sub_event_id, r.ticket_code, r.previous_ticket_codes, r.door_xid::text as r_xid,
             a.id as attendee_id, a.idx, a.name, a.email, a.checked_in_at, a.checked_in_by, a.door_xid::text as a_xid
      from registrations r join attendees a on a.registration_id = r.id
      where r.event_id = ${eventId} and ${changed}
      order by r.created_at, r.id, a.idx
    ) x on e.id is not null`.execute(db);
  return r.rows;
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
export async function versionsOf(query: (text: string, values: unknown[]) => Promise<{ rows: { event_id: string; version: string | number }[] }>, eventIds: readonly string[]) {
  const r = await query('select event_id, version from door_versions where event_id = any($1::text[])', [eventIds]);
  return new Map(r.rows.map((x) => [x.event_id, Number(x.version)]));
}
