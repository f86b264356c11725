// The door's reads and its admit, each one statement across the bookings' tables
// (attendees, registrations) and events: a scan must not wait on several round trips.
import { type Kysely, sql } from 'kysely';
import type { Database, Mode, RegistrationStatus } from '../../db/database.js';

/** One row per person on the scanned booking, the booking's columns repeated. */
export interface FastRow {
  id: string;
  event_id: string;
  status: RegistrationStatus;
  ticket_type: string;
  ticket_code: string | null;
  scanned_idx: number;
  account_id: string;
  mode: Mode;
  p_id: string;
  p_idx: number;
  p_name: string;
  p_email: string;
  p_checked_in_at: Date | null;
  p_checked_in_by: string | null;
  p_changed?: boolean;
}

const PEOPLE = sql`p.id as p_id, p.idx as p_idx, p.name as p_name, p.email as p_email, p.checked_in_at as p_checked_in_at, p.checked_in_by as p_checked_in_by`;

// ownership-exception: a door scan resolves a ticket, its booking and its event in one read; the door is where slowness shows.
const TICKET = (value: string) => sql`
  select r.id, r.event_id, r.status, r.ticket_type, r.ticket_code, a.idx as scanned_idx, e.account_id, e.mode
  from attendees a join registrations r on r.id = a.registration_id join events e on e.id = r.event_id
  where a.id = ${value}`;

// ownership-exception: the lookup reads the scanned ticket and everyone on its booking in one statement.
export const lookupRows = (db: Kysely<Database>, value: string) =>
  sql<FastRow>`select t.*, ${PEOPLE} from (${TICKET(value)}) t join attendees p on p.registration_id = t.id order by p.idx`.execute(db);

/** Admits the people a scan names when the booking is admissible, and reads them all, in one statement. */
// ownership-exception: the common admit resolves the ticket and admits its people in one statement.
export function admitRows(
  db: Kysely<Database>,
  value: string,
  { eventId, accountId, mode, memberIndex, now, actor }: { eventId: string; accountId: string; mode: Mode; memberIndex: number | null; now: Date; actor: string },
) {
  return sql<FastRow>`
    with t as (${TICKET(value)}),
    admitted as (
      update attendees p set checked_in_at = ${now}, checked_in_by = ${actor}
      from t
      where p.registration_id = t.id
        and t.event_id = ${eventId} and t.account_id = ${accountId} and t.mode = ${mode}
        and t.status = 'confirmed' and not (t.scanned_idx = 0 and t.ticket_code is not null)
        and p.checked_in_at is null
        and case
          when ${memberIndex}::int is not null then p.idx = ${memberIndex}::int and (t.scanned_idx = 0 or t.scanned_idx = ${memberIndex}::int)
          when t.scanned_idx > 0 then p.idx = t.scanned_idx
          else true
        end
      returning p.idx, p.id
    ),
    logged as (insert into checkin_log (event_id, attendee_id, action, actor, at) select ${eventId}, id, 'admit', ${actor}, ${now} from admitted)
    select t.*, ${PEOPLE}, p.idx in (select idx from admitted) as p_changed
    from t join attendees p on p.registration_id = t.id
    order by p.idx`.execute(db);
}

/**
 * Admits (at) or undoes (null) these people of a booking, only those not already so,
 * recording who did it; answers the indexes changed.
 */
// ownership-exception: the admit or undo and its log line are one statement, so neither exists without the other.
export async function setPeople(
  db: Kysely<Database>,
  { eventId, registrationId, indexes, at, actor, now }: { eventId: string; registrationId: string; indexes: readonly number[]; at: Date | null; actor: string; now: Date },
): Promise<number[]> {
  if (indexes.length === 0) return [];
  const rows = await sql<{ idx: number }>`
    with changed as (
      update attendees set checked_in_at = ${at}, checked_in_by = ${at === null ? null : actor}
      where registration_id = ${registrationId} and idx = any(${[...indexes]}::int[])
        and ${at === null ? sql`checked_in_at is not null` : sql`checked_in_at is null`}
      returning id, idx
    ),
    logged as (insert into checkin_log (event_id, attendee_id, action, actor, at) select ${eventId}, id, ${at === null ? 'undo' : 'admit'}, ${actor}, ${now} from changed)
    select idx from changed`.execute(db);
  return rows.rows.map((r) => r.idx);
}

/** One person on the door's roster, with their booking's columns. */
export interface RosterRow {
  cursor: string;
  registration_id: string | null;
  status: RegistrationStatus;
  ticket_type: string;
  sub_event_id: number | null;
  ticket_code: string | null;
  attendee_id: string;
  idx: number;
  name: string;
  checked_in_at: Date | null;
  checked_in_by: string | null;
}

/**
 * The event's people (all, or those of bookings written since the cursor), and the
 * cursor for the next read: this read's snapshot. A later read `since` it answers the
 * bookings whose last writer that snapshot could not see (committed after it, or still
 * running then), so no change is missed and few are sent twice.
 */
// ownership-exception: the door's roster reads bookings and their people in one statement, with the snapshot that bounds them.
export async function rosterRows(db: Kysely<Database>, eventId: string, since: string | null) {
  const changed =
    since === null
      ? sql`true`
      : sql`(not pg_visible_in_snapshot(r.door_xid, ${since}::pg_snapshot) or exists (select 1 from attendees x where x.registration_id = r.id and not pg_visible_in_snapshot(x.door_xid, ${since}::pg_snapshot)))`;
  return sql<RosterRow>`
    with c as (select pg_current_snapshot()::text as cursor)
    select c.cursor, x.* from c left join (
      select r.id as registration_id, r.status, r.ticket_type, r.sub_event_id, r.ticket_code,
             a.id as attendee_id, a.idx, a.name, a.checked_in_at, a.checked_in_by
      from registrations r join attendees a on a.registration_id = r.id
      where r.event_id = ${eventId} and ${changed}
      order by r.created_at, r.id, a.idx
    ) x on true`.execute(db);
}
