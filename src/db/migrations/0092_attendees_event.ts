import { type Kysely, sql } from 'kysely';

// An event's analytics (events.reading.ts) count its bookings by status with their revenue,
// and the confirmed bookings someone of which is in. On an event of 150,000 bookings these
// were a read of every booking row and a probe of its people per booking. Now:
// - each person carries their booking's event (set when the booking is written, never changed:
//   a booking does not move between events), and the people who are in are indexed by event
//   and booking, so "whose bookings have someone in" is an index-only read of those people;
// - the bookings' (event, status) index carries the amount and the id, so the counts by status
//   and revenue, and the few bookings not confirmed that have someone in, are index-only reads.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table attendees add column event_id text`.execute(db);
  await sql`update attendees a set event_id = r.event_id from registrations r where r.id = a.registration_id`.execute(
    db,
  );
  await sql`alter table attendees alter column event_id set not null`.execute(db);
  await sql`create index attendees_event_in on attendees (event_id, registration_id) where checked_in_at is not null`.execute(
    db,
  );
  await sql`create index registrations_event_counts on registrations (event_id, status) include (amount_paise, id)`.execute(
    db,
  );
  await db.schema.dropIndex('registrations_event').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('registrations_event')
    .on('registrations')
    .columns(['event_id', 'status'])
    .execute();
  await db.schema.dropIndex('registrations_event_counts').ifExists().execute();
  await db.schema.dropIndex('attendees_event_in').ifExists().execute();
  await sql`alter table attendees drop column if exists event_id`.execute(db);
}
