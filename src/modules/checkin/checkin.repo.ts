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
  p_changed?: boolean;
}

const PEOPLE = sql`p.id as p_id, p.idx as p_idx, p.name as p_name, p.email as p_email, p.checked_in_at as p_checked_in_at`;

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
  { eventId, accountId, mode, memberIndex, now }: { eventId: string; accountId: string; mode: Mode; memberIndex: number | null; now: Date },
) {
  return sql<FastRow>`
    with t as (${TICKET(value)}),
    admitted as (
      update attendees p set checked_in_at = ${now}
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
      returning p.idx
    )
    select t.*, ${PEOPLE}, p.idx in (select idx from admitted) as p_changed
    from t join attendees p on p.registration_id = t.id
    order by p.idx`.execute(db);
}
