// The door's reads and its admit, each one statement across the bookings' tables
// (attendees, registrations) and events: a scan must not wait on several round trips.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, Mode, RegistrationStatus } from '../../db/database.js';
import { seatsChangedSinceSql } from '../seat-holds/booked-seats.service.js';
import { admissibleSql } from './entry-rule.js';
import { SEATED_SQL } from '../events/events.service.js';
import { eventSeated, seatIfSeated } from './roster.repo.js';

/** One row per person on the scanned booking, the booking's columns repeated. */
export interface FastRow {
  id: string;
  event_id: string;
  status: RegistrationStatus;
  ticket_type: string;
  ticket_code: string | null;
  sub_event_id: number | null;
  scanned_idx: number;
  account_id: string;
  mode: Mode;
  p_id: string;
  p_idx: number;
  p_name: string;
  p_email: string;
  p_checked_in_at: Date | null;
  p_checked_in_by: string | null;
  /** The person's seat in words; null without one, always null for an event without a seating plan. */
  p_seat: string | null;
  p_changed?: boolean;
}

/** A person of a booking as the door reads them. */
export type PersonRow = Pick<
  FastRow,
  'p_id' | 'p_idx' | 'p_name' | 'p_email' | 'p_checked_in_at' | 'p_checked_in_by' | 'p_seat'
>;

// The booking's people (`p`) beside its ticket (`t`, whose `seated` says whether the event has a plan).
const PEOPLE = sql`p.id as p_id, p.idx as p_idx, p.name as p_name, p.email as p_email, p.checked_in_at as p_checked_in_at, p.checked_in_by as p_checked_in_by,
  ${seatIfSeated(sql`t.seated`, 'p.registration_id', 'p.id')} as p_seat`;

// ownership-exception: a door scan resolves a ticket, its booking and its event in one read; the door is where slowness shows.
const TICKET = (value: string) => sql`
  select r.id, r.event_id, r.status, r.ticket_type, r.ticket_code, r.sub_event_id, a.idx as scanned_idx, e.account_id, e.mode,
    ${sql.raw(SEATED_SQL)} as seated
  from attendees a join registrations r on r.id = a.registration_id join events e on e.id = r.event_id
  where a.id = ${value}`;

// ownership-exception: the lookup reads the scanned ticket and everyone on its booking in one statement.
export const lookupRows = (db: Kysely<Database>, value: string) =>
  sql<FastRow>`select t.*, ${PEOPLE} from (${TICKET(value)}) t join attendees p on p.registration_id = t.id order by p.idx`.execute(
    db,
  );

// ownership-exception: a ticket found by its code (after a transfer) reads its booking's people, with their seats, in one statement, as a scan by id does.
export const bookingPeople = (db: Kysely<Database>, registrationId: string) =>
  sql<PersonRow>`select ${PEOPLE}
    from (select r.id, ${sql.raw(SEATED_SQL)} as seated from registrations r join events e on e.id = r.event_id where r.id = ${registrationId}) t
    join attendees p on p.registration_id = t.id order by p.idx`.execute(db);

/** One scan in a group of admits (admits.ts): its QR value and who asks. */
export interface AdmitItem {
  value: string;
  memberIndex: number | null;
  accountId: string;
  mode: Mode;
  actor: string;
  at: Date;
}

/** A FastRow of a group: which scan it answers (`n`, from 1), and who of the group changed the person. */
export interface GroupRow extends FastRow {
  n: number;
  p_changed_n: number | null;
  p_changed_by: string | null;
  p_changed_at: Date | null;
  door_version: number | null;
  door_xid: string | null;
}

// The door's own statements raise the event's version and announce it themselves when the
// event is watched (and return it, so this instance's roster takes the change in at once);
// `door.all` tells the triggers of migration 0021 it is done. The version row is locked last: the count waits
// for every person's update first.
const FLAG = sql`flag as materialized (select set_config('door.all', 'on', true) as f)`;
const bump = (eventId: string, changes: RawBuilder<unknown>) => sql`bump as (
      insert into door_versions as d (event_id, version) select ${eventId}, 1 where ${changes} > 0
      on conflict (event_id) do update set version = d.version + 1
      returning d.event_id, d.version, d.watched, pg_current_xact_id()::text as xid
    ),
    told as (select pg_notify('door', event_id || ' ' || version) from bump where watched)`;

/**
 * The audit log's entries of the door's admits and undos, composed into the statement that
 * makes them so each commits with its change: one per person in the statement's `changed`
 * (`id`, `actor`, `at`), for the event's account and mode. The door's actor strings become
 * the log's actors: `dashboard` (the organiser), `key:<id>`, `pass:<id>`.
 */
// ownership-exception: the audit entry of an admit or undo is written by the statement that makes the change (the audit module owns the table; the door's hot path cannot take another round trip).
function auditedDoorChanges(eventId: string, undo: boolean, list: string | null = null) {
  const state = (inside: boolean) =>
    JSON.stringify(list === null ? { checkedIn: inside } : { checkedIn: inside, list });
  return sql`insert into audit_log (id, account_id, mode, actor_kind, actor_id, actor_display, action, target_type, target_id, before, after, at)
    select 'aud_' || replace(gen_random_uuid()::text, '-', ''), e.account_id, e.mode,
      case when c.actor = 'dashboard' then 'user' when c.actor like 'pass:%' then 'door_pass' else 'key' end,
      case when c.actor = 'dashboard' then e.account_id when c.actor like 'pass:%' then substr(c.actor, 6) when c.actor like 'key:%' then substr(c.actor, 5) else c.actor end,
      case when c.actor like 'pass:%' then 'door pass' else c.actor end,
      ${undo ? 'checkin.undo' : 'checkin.admit'}, 'attendee', c.id, ${state(undo)}::jsonb, ${state(!undo)}::jsonb, c.at
    from changed c join events e on e.id = ${eventId}`;
}

/**
 * Admits, in one statement, what a group of scans of one event names when its booking is
 * admissible, and reads each scanned booking's people. Each scan is its own conditional
 * update: one refused changes nothing for the others. The people are locked in id order, so
 * groups racing on other instances cannot deadlock; a person two scans of the group name is
 * admitted by the first.
 */
// ownership-exception: the common admit resolves the tickets and admits their people in one statement.
export function admitGroup(db: Kysely<Database>, eventId: string, items: readonly AdmitItem[]) {
  const col = <T>(f: (i: AdmitItem) => T) => items.map(f);
  return sql<GroupRow>`
    with i as (
      select * from unnest(${col((i) => i.value)}::text[], ${col((i) => i.memberIndex)}::int[], ${col((i) => i.accountId)}::text[],
        ${col((i) => i.mode)}::text[], ${col((i) => i.actor)}::text[], ${col((i) => i.at)}::timestamptz[])
        with ordinality as i(value, member_index, caller_account, caller_mode, actor, at, n)
    ),
    t as (
      select i.n, i.member_index, i.caller_account, i.caller_mode, i.actor, i.at,
        r.id, r.event_id, r.status, r.ticket_type, r.ticket_code, r.sub_event_id, a.idx as scanned_idx, e.account_id, e.mode,
        ${sql.raw(SEATED_SQL)} as seated
      from i cross join lateral (select a.idx, a.registration_id from attendees a where a.id = i.value limit 1) a
        join registrations r on r.id = a.registration_id join events e on e.id = r.event_id
    ),
    ${FLAG},
    chosen as (
      select p.id, t.n, t.actor, t.at from t join attendees p on p.registration_id = t.id
      where t.event_id = ${eventId} and t.account_id = t.caller_account and t.mode = t.caller_mode
        and ${admissibleSql('t')}
        and p.checked_in_at is null
        and case
          when t.member_index is not null then p.idx = t.member_index and (t.scanned_idx = 0 or t.scanned_idx = t.member_index)
          when t.scanned_idx > 0 then p.idx = t.scanned_idx
          else true
        end
      order by p.id, t.n
      for update of p
    ),
    changed as (
      update attendees p set checked_in_at = c.at, checked_in_by = c.actor
      from (select distinct on (id) id, n, actor, at from chosen order by id, n) c
      where p.id = c.id and p.checked_in_at is null and (select f from flag) = 'on'
      returning p.id, c.n, c.actor, c.at
    ),
    logged as (insert into checkin_log (event_id, attendee_id, action, actor, at) select ${eventId}, id, 'admit', actor, at from changed),
    audited as (${auditedDoorChanges(eventId, false)}),
    ${bump(eventId, sql`(select count(*) from changed)`)}
    select t.n, t.id, t.event_id, t.status, t.ticket_type, t.ticket_code, t.sub_event_id, t.scanned_idx, t.account_id, t.mode, ${PEOPLE},
      c.n as p_changed_n, c.actor as p_changed_by, c.at as p_changed_at, (select version from bump) as door_version, (select xid from bump) as door_xid, (select count(*) from told) as told
    from t cross join lateral (select * from attendees p where p.registration_id = t.id offset 0) p left join changed c on c.id = p.id
    order by t.n, p.idx`.execute(db);
}

/**
 * Admits (at) or undoes (null) these people of a booking, only those not already so,
 * recording who did it; answers the indexes changed, and the event's version and the
 * transaction that made the change (null when nothing changed).
 */
// ownership-exception: the admit or undo and its log line are one statement, so neither exists without the other.
export async function setPeople(
  db: Kysely<Database>,
  {
    eventId,
    registrationId,
    indexes,
    at,
    actor,
    now,
  }: {
    eventId: string;
    registrationId: string;
    indexes: readonly number[];
    at: Date | null;
    actor: string;
    now: Date;
  },
): Promise<{ indexes: number[]; version: number | null; xid: string | null }> {
  if (indexes.length === 0) return { indexes: [], version: null, xid: null };
  const which = at === null ? sql`checked_in_at is not null` : sql`checked_in_at is null`;
  const rows = await sql<{ idx: number; door_version: number | null; door_xid: string | null }>`
    with ${FLAG},
    chosen as (
      select id from attendees where registration_id = ${registrationId} and idx = any(${[...indexes]}::int[]) and ${which}
      order by id
      for update
    ),
    changed as (
      update attendees set checked_in_at = ${at}, checked_in_by = ${at === null ? null : actor}
      where id in (select id from chosen) and ${which} and (select f from flag) = 'on'
      returning id, idx, ${actor}::text as actor, ${now}::timestamptz as at
    ),
    logged as (insert into checkin_log (event_id, attendee_id, action, actor, at) select ${eventId}, id, ${at === null ? 'undo' : 'admit'}, ${actor}, ${now} from changed),
    audited as (${auditedDoorChanges(eventId, at === null)}),
    ${bump(eventId, sql`(select count(*) from changed)`)}
    select idx, (select version from bump) as door_version, (select xid from bump) as door_xid, (select count(*) from told) as told from changed`.execute(
    db,
  );
  const first = rows.rows[0];
  return {
    indexes: rows.rows.map((r) => r.idx),
    version: first?.door_version ?? null,
    xid: first?.door_xid ?? null,
  };
}

/** One person on the door's roster, with their booking's columns. */
export interface RosterRow {
  cursor: string;
  registration_id: string | null;
  status: RegistrationStatus;
  ticket_type: string;
  sub_event_id: number | null;
  ticket_code: string | null;
  previous_ticket_codes: string[] | null;
  attendee_id: string;
  idx: number;
  name: string;
  checked_in_at: Date | null;
  checked_in_by: string | null;
  /** Their seat in words; null without one, always null for an event without a seating plan. */
  seat: string | null;
}

/**
 * The event's people (all, or those of bookings written since the cursor), and the
 * cursor for the next read: this read's snapshot. A later read `since` it answers the
 * bookings whose last writer that snapshot could not see (committed after it, or still
 * running then), so no change is missed and few are sent twice.
 */
// ownership-exception: the door's roster reads bookings and their people in one statement, with the snapshot that bounds them.
export async function rosterRows(
  db: Kysely<Database>,
  eventId: string,
  since: string | null,
  list: string | null = null,
) {
  const listChanged =
    list === null
      ? sql`false`
      : sql`exists (select 1 from door_list_admissions y where y.event_id = r.event_id and y.list = ${list} and y.registration_id = r.id and not pg_visible_in_snapshot(y.door_xid, ${since}::pg_snapshot))`;
  const changed =
    since === null
      ? sql`true`
      : sql`(not pg_visible_in_snapshot(r.door_xid, ${since}::pg_snapshot) or exists (select 1 from attendees x where x.registration_id = r.id and not pg_visible_in_snapshot(x.door_xid, ${since}::pg_snapshot)) or ${listChanged} or ${seatsChangedSinceSql(eventId, sql.ref('r.id'), since)})`;
  // On a track's or a day's list, who is in is that list's admissions.
  const state =
    list === null
      ? sql`a.checked_in_at, a.checked_in_by`
      : sql`(select l.checked_in_at from door_list_admissions l where l.event_id = r.event_id and l.list = ${list} and l.attendee_id = a.id) as checked_in_at,
             (select l.checked_in_by from door_list_admissions l where l.event_id = r.event_id and l.list = ${list} and l.attendee_id = a.id) as checked_in_by`;
  return sql<RosterRow>`
    with c as (select pg_current_snapshot()::text as cursor)
    select c.cursor, x.* from c left join (
      select r.id as registration_id, r.status, r.ticket_type, r.sub_event_id, r.ticket_code, r.previous_ticket_codes,
             a.id as attendee_id, a.idx, a.name, ${state}, ${seatIfSeated(eventSeated(eventId), 'r.id', 'a.id')} as seat
      from registrations r join attendees a on a.registration_id = r.id
      where r.event_id = ${eventId} and ${changed}
      order by r.created_at, r.id, a.idx
    ) x on true`.execute(db);
}

// ---------------------------------------------------------------- a track's or a day's list

/** Who of a booking is in on a list (people never admitted there have no row). */
export function listAdmissions(db: Kysely<Database>, eventId: string, list: string, registrationId: string) {
  return db
    .selectFrom('door_list_admissions')
    .select(['attendee_id', 'checked_in_at', 'checked_in_by'])
    .where('event_id', '=', eventId)
    .where('list', '=', list)
    .where('registration_id', '=', registrationId)
    .execute();
}

/**
 * Admits (at) or undoes (null) these people of a booking on a list, only those not already
 * so, with the log line and the audit entry in the same statement; answers the indexes
 * changed. The row's lock decides between two devices: the second finds it changed.
 */
// ownership-exception: a list admission reads the booking's people (the registrations module's table) and writes its log and audit entry in one statement.
export async function setPeopleOnList(
  db: Kysely<Database>,
  {
    eventId,
    list,
    registrationId,
    indexes,
    at,
    actor,
    now,
  }: {
    eventId: string;
    list: string;
    registrationId: string;
    indexes: readonly number[];
    at: Date | null;
    actor: string;
    now: Date;
  },
): Promise<number[]> {
  if (indexes.length === 0) return [];
  const change =
    at === null
      ? sql`update door_list_admissions l set checked_in_at = null, checked_in_by = null
          from chosen c where l.event_id = ${eventId} and l.list = ${list} and l.attendee_id = c.id and l.checked_in_at is not null
          returning l.attendee_id as id, ${actor}::text as actor, ${now}::timestamptz as at`
      : sql`insert into door_list_admissions as l (event_id, list, attendee_id, registration_id, checked_in_at, checked_in_by)
          select ${eventId}, ${list}, c.id, ${registrationId}, ${at}::timestamptz, ${actor} from chosen c order by c.id
          on conflict (event_id, list, attendee_id) do update set checked_in_at = excluded.checked_in_at, checked_in_by = excluded.checked_in_by
          where l.checked_in_at is null
          returning l.attendee_id as id, ${actor}::text as actor, ${now}::timestamptz as at`;
  const rows = await sql<{ idx: number }>`
    with chosen as (select id, idx from attendees where registration_id = ${registrationId} and idx = any(${[...indexes]}::int[])),
    changed as (${change}),
    logged as (insert into checkin_log (event_id, attendee_id, action, actor, at, list) select ${eventId}, id, ${at === null ? 'undo' : 'admit'}, actor, at, ${list} from changed),
    audited as (${auditedDoorChanges(eventId, at === null, list)})
    select c.idx from changed x join chosen c on c.id = x.id`.execute(db);
  return rows.rows.map((r) => r.idx);
}

/** A list's arrivals and expected people, per track of the confirmed bookings (null: whole-event tickets). */
// ownership-exception: a list's counts read the bookings and their people with the list's admissions in one statement.
export async function listCounts(
  db: Kysely<Database>,
  eventId: string,
  list: string,
  status: RegistrationStatus,
) {
  const r = await sql<{ sub_event_id: number | null; expected: number; arrived: number }>`
    select r.sub_event_id, count(*)::int as expected, count(l.checked_in_at)::int as arrived
    from registrations r join attendees a on a.registration_id = r.id
    left join door_list_admissions l on l.event_id = r.event_id and l.list = ${list} and l.attendee_id = a.id
    where r.event_id = ${eventId} and r.status = ${status}
    group by r.sub_event_id`.execute(db);
  return r.rows;
}
