// The one-statement free booking on the registrations and attendees tables: the hot path
// of a ticket drop, in a repo file of its own. One statement books one or several free
// bookings of the same event and seat counter (free-bookings.ts gathers them), so a hot
// counter row is locked, and a commit flushed, once for all of them.
import { sql, type Insertable } from 'kysely';
import type { Mode, RegistrationsTable } from '../../db/database.js';
import type { JobRow } from '../../jobs/queue.js';
import type { Db, NewAttendee } from './registrations.repo.js';

export interface FreeBooking {
  row: Insertable<RegistrationsTable> & { id: string; event_id: string; account_id: string; mode: Mode; quantity: number; created_at: Date };
  people: readonly NewAttendee[];
  /** The seat counter it claims. */
  scope: string;
  /** Outbox rows written with the booking. */
  jobs: readonly JobRow[];
  /** A webhook delivery, written only when the account's webhook subscribes to `webhookType`. */
  webhookJob: JobRow;
  webhookType: string;
}

/** Bookings that one statement can write together: the same event, account, mode, seat counter and webhook type. */
export function batchKey(b: FreeBooking): string {
  return `${b.row.event_id}\u0000${b.scope}\u0000${b.row.account_id}\u0000${b.row.mode}\u0000${b.webhookType}`;
}

/**
 * Claims `sum(quantity)` seats on one seat counter and writes every booking, its people
 * and its jobs in one statement, so the counter row is locked only for that statement and
 * its commit. Each booking is stored as made (created and confirmed at its row's
 * `created_at`); the jobs are due at `now`. All or nothing: when the counter has not room
 * for all of them, nothing is written and false is returned. The rows travel as arrays
 * (`unnest`), so the statement's text, and its prepared plan, is the same for any number
 * of bookings.
 */
// ownership-exception: the common free booking is the hot path of a ticket drop; claiming the event's seat counter, reading the webhook configuration and writing the jobs in the same statement keeps the counter row locked for one statement only.
export async function bookFreeTogether(db: Db, bookings: readonly FreeBooking[], now: Date): Promise<boolean> {
  const first = bookings[0];
  if (!first) return true;
  for (const b of bookings) if (batchKey(b) !== batchKey(first)) throw new Error('bookFreeTogether: bookings of different counters');
  const total = bookings.reduce((s, b) => s + b.row.quantity, 0);
  const rows = bookings.map((b) => b.row);
  const people = bookings.flatMap((b) => b.people.map((a) => ({ ...a, registrationId: b.row.id })));
  const jobs = bookings.flatMap((b) => b.jobs);
  const hooks = bookings.map((b) => b.webhookJob);
  const written = await sql<{ n: number }>`
    with claim as (
      update seat_counters set taken = taken + ${total}::int
      where event_id = ${first.row.event_id} and scope = ${first.scope} and (capacity = 0 or taken + ${total}::int <= capacity)
      returning scope
    ),
    booking as (
      insert into registrations (id, event_id, account_id, mode, status, name, email, phone, whatsapp_opt_in, ticket_type, sub_event_id, quantity,
        amount_paise, custom_fields, promo_code, created_at, confirmed_at)
      select b.id, ${first.row.event_id}, ${first.row.account_id}, ${first.row.mode}, 'confirmed', b.name, b.email, b.phone, b.whatsapp_opt_in,
        b.ticket_type, b.sub_event_id, b.quantity, 0, b.custom_fields::jsonb, null, b.created_at, b.created_at
      from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.email)}::text[],
        ${rows.map((r) => r.phone ?? null)}::text[], ${rows.map((r) => r.whatsapp_opt_in ?? false)}::boolean[], ${rows.map((r) => r.ticket_type)}::text[],
        ${rows.map((r) => r.sub_event_id ?? null)}::int[], ${rows.map((r) => r.quantity)}::int[], ${rows.map((r) => r.custom_fields)}::text[],
        ${rows.map((r) => r.created_at)}::timestamptz[])
        as b(id, name, email, phone, whatsapp_opt_in, ticket_type, sub_event_id, quantity, custom_fields, created_at)
      where exists (select 1 from claim)
      returning id
    ),
    people as (
      insert into attendees (id, registration_id, idx, name, email)
      select v.id, v.registration_id, v.idx, v.name, v.email
      from unnest(${people.map((a) => a.id)}::text[], ${people.map((a) => a.registrationId)}::text[], ${people.map((a) => a.idx)}::int[],
        ${people.map((a) => a.name)}::text[], ${people.map((a) => a.email)}::text[]) as v(id, registration_id, idx, name, email)
      where exists (select 1 from claim)
    ),
    work as (
      insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
      select v.id, v.topic, v.payload::jsonb, ${now}::timestamptz, v.max_attempts, ${now}::timestamptz
      from unnest(${jobs.map((j) => j.id)}::text[], ${jobs.map((j) => j.topic)}::text[], ${jobs.map((j) => j.payload)}::text[],
        ${jobs.map((j) => j.maxAttempts)}::int[]) as v(id, topic, payload, max_attempts)
      where exists (select 1 from claim)
    ),
    hook as (
      insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
      select v.id, v.topic, v.payload::jsonb, ${now}::timestamptz, v.max_attempts, ${now}::timestamptz
      from unnest(${hooks.map((j) => j.id)}::text[], ${hooks.map((j) => j.topic)}::text[], ${hooks.map((j) => j.payload)}::text[],
        ${hooks.map((j) => j.maxAttempts)}::int[]) as v(id, topic, payload, max_attempts)
      join webhook_configs w on w.account_id = ${first.row.account_id} and w.mode = ${first.row.mode} and w.enabled
        and w.events @> ${JSON.stringify([first.webhookType])}::jsonb
      where exists (select 1 from claim)
    )
    select count(*)::int as n from booking`.execute(db);
  return written.rows[0]?.n === bookings.length;
}
