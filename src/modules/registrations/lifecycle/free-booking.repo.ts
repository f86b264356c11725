// The one-statement free booking on the registrations and attendees tables: the hot path
// of a ticket drop and of a busy sale, in a repo file of its own. It is the lifecycle's
// `book` (its status is the table's, its audit entry written in the same statement). One statement books one or
// several free bookings, of one event or of many (free-bookings.ts gathers them), so each
// seat counter row is locked, and a commit flushed, once for all of them.
import { sql, type Insertable } from 'kysely';
import type { Mode, RegistrationsTable } from '../../../db/database.js';
import type { JobRow } from '../../../jobs/queue.js';
import type { AuditEntryRow } from '../../audit/audit.service.js';
import type { Db, NewAttendee } from '../registrations.repo.js';
import { BOOKED_STATUS_SQL } from './lifecycle.repo.js';

export interface FreeBooking {
  row: Omit<Insertable<RegistrationsTable>, 'status'> & {
    id: string;
    event_id: string;
    account_id: string;
    mode: Mode;
    quantity: number;
    created_at: Date;
  };
  people: readonly NewAttendee[];
  /** The seat counter it claims. */
  scope: string;
  /** Outbox rows written with the booking. */
  jobs: readonly JobRow[];
  /** A webhook delivery, written only when the account's webhook subscribes to `webhookType`. */
  webhookJob: JobRow;
  webhookType: string;
  /** The audit log's `registration.book` entry, written with the booking. */
  auditRow: AuditEntryRow;
}

/** The seat counter a booking claims. */
export function counterKey(b: FreeBooking): string {
  return `${b.row.event_id}\u0000${b.scope}`;
}

/**
 * Writes free bookings, of any events and seat counters, in one statement; answers the ids
 * of those written. Each booking claims its own counter: the counters are locked in one
 * order (event, scope), so statements of other processes that share some of them wait
 * rather than deadlock; per counter, the bookings are taken in the order given while the
 * counter has room (capacity 0: no limit), and the first that does not fit and every one
 * after it on that counter are not written (nothing of theirs: no seat, no row, no job).
 * Each booking is stored as made (created and confirmed at its row's `created_at`); the
 * jobs are due at `now`. A row refused by the database (a duplicate id) fails the whole
 * statement, and nothing is written. The rows travel as arrays (`unnest`), so the
 * statement's text, and its prepared plan, is the same for any number of bookings.
 */
// ownership-exception: the common free booking is the hot path of a ticket drop; claiming the events' seat counters, reading the webhook configuration and writing the jobs and the audit entry in the same statement keeps each counter row locked for one statement only.
export async function bookFreeTogether(
  db: Db,
  bookings: readonly FreeBooking[],
  now: Date,
): Promise<Set<string>> {
  if (bookings.length === 0) return new Set();
  const written = await sql<{ id: string }>`
    with b as (${bookingsGiven(bookings)}),
    locked as materialized (
      select c.event_id, c.scope, c.capacity, c.taken from seat_counters c
      where (c.event_id, c.scope) in (select event_id, scope from b)
      order by c.event_id, c.scope
      for update
    ),
    granted as materialized (
      select q.ord, q.event_id, q.scope, q.quantity
      from (select ord, event_id, scope, quantity, sum(quantity) over (partition by event_id, scope order by ord) as upto from b) q
      join locked l on l.event_id = q.event_id and l.scope = q.scope
      where l.capacity = 0 or l.taken + q.upto <= l.capacity
    ),
    claim as (
      update seat_counters c set taken = c.taken + g.n
      from (select event_id, scope, sum(quantity)::int as n from granted group by event_id, scope) g
      where c.event_id = g.event_id and c.scope = g.scope and (c.capacity = 0 or c.taken + g.n <= c.capacity)
      returning c.event_id, c.scope
    ),
    booking as (
      insert into registrations (id, event_id, account_id, mode, status, name, email, phone, whatsapp_opt_in, ticket_type, sub_event_id, quantity,
        amount_paise, custom_fields, promo_code, created_at, confirmed_at)
      select b.id, b.event_id, b.account_id, b.mode, ${BOOKED_STATUS_SQL}, b.name, b.email, b.phone, b.whatsapp_opt_in,
        b.ticket_type, b.sub_event_id, b.quantity, 0, b.custom_fields::jsonb, null, b.created_at, b.created_at
      from b join granted g on g.ord = b.ord join claim c on c.event_id = b.event_id and c.scope = b.scope
      order by b.event_id, b.ord
      returning id, event_id
    ),
    people as (
      insert into attendees (id, registration_id, event_id, idx, name, email)
      select v.id, v.registration_id, booking.event_id, v.idx, v.name, v.email from (${peopleOf(bookings)}) v join booking on booking.id = v.registration_id
    ),
    work as (
      insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
      select v.id, v.topic, v.payload::jsonb, ${now}::timestamptz, v.max_attempts, ${now}::timestamptz
      from (${jobsOf(bookings)}) v join booking on booking.id = v.registration_id
    ),
    hook as (
      insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
      select v.id, v.topic, v.payload::jsonb, ${now}::timestamptz, v.max_attempts, ${now}::timestamptz
      from (${webhookJobsOf(bookings)}) v join booking on booking.id = v.registration_id join b on b.id = v.registration_id
      join webhook_configs w on w.account_id = b.account_id and w.mode = b.mode and w.enabled and w.events @> jsonb_build_array(b.webhook_type)
    ),
    logged as (
      insert into audit_log (id, account_id, mode, actor_kind, actor_id, actor_display, action, target_type, target_id, before, after, at)
      select v.id, v.account_id, v.mode, v.actor_kind, v.actor_id, v.actor_display, v.action, v.target_type, v.target_id, null, v.after::jsonb, v.at
      from (${auditEntriesOf(bookings)}) v join booking on booking.id = v.target_id
    )
    select id from booking`.execute(db);
  return new Set(written.rows.map((r) => r.id));
}

/** The bookings as a table `b` (one row each, in the order given: `ord`). */
function bookingsGiven(bookings: readonly FreeBooking[]) {
  const rows = bookings.map((b) => b.row);
  return sql`select * from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.event_id)}::text[], ${rows.map((r) => r.account_id)}::text[],
        ${rows.map((r) => r.mode)}::text[], ${bookings.map((b) => b.scope)}::text[], ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.email)}::text[],
        ${rows.map((r) => r.phone ?? null)}::text[], ${rows.map((r) => r.whatsapp_opt_in ?? false)}::boolean[], ${rows.map((r) => r.ticket_type)}::text[],
        ${rows.map((r) => r.sub_event_id ?? null)}::int[], ${rows.map((r) => r.quantity)}::int[], ${rows.map((r) => r.custom_fields)}::text[],
        ${rows.map((r) => r.created_at)}::timestamptz[], ${bookings.map((b) => b.webhookType)}::text[])
        with ordinality as b(id, event_id, account_id, mode, scope, name, email, phone, whatsapp_opt_in, ticket_type, sub_event_id, quantity,
          custom_fields, created_at, webhook_type, ord)`;
}

/** The bookings' people, as rows `v`. */
function peopleOf(bookings: readonly FreeBooking[]) {
  const people = bookings.flatMap((b) => b.people.map((a) => ({ ...a, registrationId: b.row.id })));
  return sql`select * from unnest(${people.map((a) => a.id)}::text[], ${people.map((a) => a.registrationId)}::text[], ${people.map((a) => a.idx)}::int[],
        ${people.map((a) => a.name)}::text[], ${people.map((a) => a.email)}::text[]) as v(id, registration_id, idx, name, email)`;
}

/** The bookings' outbox rows, as rows `v`. */
function jobsOf(bookings: readonly FreeBooking[]) {
  const jobs = bookings.flatMap((b) => b.jobs.map((j) => ({ ...j, registrationId: b.row.id })));
  return sql`select * from unnest(${jobs.map((j) => j.id)}::text[], ${jobs.map((j) => j.registrationId)}::text[], ${jobs.map((j) => j.topic)}::text[],
        ${jobs.map((j) => j.payload)}::text[], ${jobs.map((j) => j.maxAttempts)}::int[]) as v(id, registration_id, topic, payload, max_attempts)`;
}

/** Each booking's webhook delivery (written only when its account's webhook subscribes to its type), as rows `v`. */
function webhookJobsOf(bookings: readonly FreeBooking[]) {
  const col = <T>(f: (b: FreeBooking) => T) => bookings.map(f);
  return sql`select * from unnest(${col((b) => b.webhookJob.id)}::text[], ${col((b) => b.row.id)}::text[], ${col((b) => b.webhookJob.topic)}::text[],
        ${col((b) => b.webhookJob.payload)}::text[], ${col((b) => b.webhookJob.maxAttempts)}::int[]) as v(id, registration_id, topic, payload, max_attempts)`;
}

/** Each booking's `registration.book` audit entry, as rows `v`. */
function auditEntriesOf(bookings: readonly FreeBooking[]) {
  const col = <T>(f: (b: FreeBooking) => T) => bookings.map(f);
  return sql`select * from unnest(${col((b) => b.auditRow.id)}::text[], ${col((b) => b.auditRow.account_id)}::text[], ${col((b) => b.auditRow.mode)}::text[],
        ${col((b) => b.auditRow.actor_kind)}::text[], ${col((b) => b.auditRow.actor_id)}::text[], ${col((b) => b.auditRow.actor_display)}::text[],
        ${col((b) => b.auditRow.action)}::text[], ${col((b) => b.auditRow.target_type)}::text[], ${col((b) => b.auditRow.target_id)}::text[],
        ${col((b) => b.auditRow.after)}::text[], ${col((b) => b.auditRow.at)}::timestamptz[])
        as v(id, account_id, mode, actor_kind, actor_id, actor_display, action, target_type, target_id, after, at)`;
}
