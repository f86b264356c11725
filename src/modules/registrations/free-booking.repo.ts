// The one-statement free booking on the registrations and attendees tables: the hot path
// of a ticket drop, in a repo file of its own.
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

/**
 * Claims one seat counter and writes the booking, its people and its jobs in one
 * statement, so the counter row is locked only for that statement and its commit.
 * When the claim finds no seat, nothing is written and false is returned.
 */
// ownership-exception: the common free booking is the hot path of a ticket drop; claiming the event's seat counter, reading the webhook configuration and writing the jobs in the same statement keeps the counter row locked for one statement only.
export async function bookFreeInOneStatement(db: Db, b: FreeBooking, now: Date): Promise<boolean> {
  const r = b.row;
  // VALUES needs a row even when there are no jobs; that row is filtered out.
  const jobRows = b.jobs.length > 0 ? b.jobs : [{ id: '', topic: '', payload: '{}', maxAttempts: 0 }];
  const written = await sql<{ n: number }>`
    with claim as (
      update seat_counters set taken = taken + ${r.quantity}
      where event_id = ${r.event_id} and scope = ${b.scope} and (capacity = 0 or taken + ${r.quantity} <= capacity)
      returning scope
    ),
    booking as (
      insert into registrations (id, event_id, account_id, mode, status, name, email, phone, ticket_type, sub_event_id, quantity,
        amount_paise, custom_fields, promo_code, created_at, confirmed_at)
      select ${r.id}, ${r.event_id}, ${r.account_id}, ${r.mode}, 'confirmed', ${r.name}, ${r.email}, ${r.phone ?? null},
        ${r.ticket_type}, ${r.sub_event_id ?? null}::int, ${r.quantity}::int, 0, ${r.custom_fields}::jsonb, null, ${now}::timestamptz, ${now}::timestamptz
      from claim
      returning id
    ),
    people as (
      insert into attendees (id, registration_id, idx, name, email)
      select v.id, v.registration_id, v.idx, v.name, v.email
      from (values ${sql.join(b.people.map((a) => sql`(${a.id}, ${r.id}, ${a.idx}::int, ${a.name}, ${a.email})`))}) as v(id, registration_id, idx, name, email)
      where exists (select 1 from booking)
    ),
    work as (
      insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
      select v.id, v.topic, v.payload::jsonb, ${now}::timestamptz, v.max_attempts, ${now}::timestamptz
      from (values ${sql.join(jobRows.map((j) => sql`(${j.id}, ${j.topic}, ${j.payload}, ${j.maxAttempts}::int)`))}) as v(id, topic, payload, max_attempts)
      where exists (select 1 from booking) and ${b.jobs.length > 0}::boolean
    ),
    hook as (
      insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
      select ${b.webhookJob.id}, ${b.webhookJob.topic}, ${b.webhookJob.payload}::jsonb, ${now}::timestamptz, ${b.webhookJob.maxAttempts}::int, ${now}::timestamptz
      from webhook_configs w
      where w.account_id = ${r.account_id} and w.mode = ${r.mode} and w.enabled
        and w.events @> ${JSON.stringify([b.webhookType])}::jsonb and exists (select 1 from booking)
    )
    select count(*)::int as n from booking`.execute(db);
  return written.rows[0]?.n === 1;
}
