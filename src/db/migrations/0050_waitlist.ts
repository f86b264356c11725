import { type Kysely, sql } from 'kysely';

// Waitlists and the attendee's own page (docs/decisions/18-waitlist-and-attendee-page.md). An event (and a track,
// inside its JSON) carries `waitlist`; an event carries its `self_service` policy. A
// waitlist entry in `offered` holds one seat on the event's counters until it lapses;
// a booking made from the offer names it (`registrations.waitlist_entry_id`) and takes
// that seat. `kept_paise` is what the organiser keeps of a captured payment when a
// booking was cancelled under a policy that refunds less than all of it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('events')
    .addColumn('waitlist', 'jsonb')
    .addColumn('self_service', 'jsonb')
    .execute();
  await db.schema
    .alterTable('registrations')
    .addColumn('waitlist_entry_id', 'text')
    .addColumn('kept_paise', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('waitlist_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('ticket_type', 'text', (c) => c.notNull())
    .addColumn('sub_event_id', 'integer')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('waiting', 'offered', 'booked', 'lapsed', 'removed')`),
    )
    .addColumn('offered_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('registration_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await sql`create index waitlist_entries_queue on waitlist_entries (event_id, seq) where status = 'waiting'`.execute(
    db,
  );
  await sql`create index waitlist_entries_event on waitlist_entries (event_id, seq)`.execute(db);
  await sql`create index waitlist_entries_expiry on waitlist_entries (expires_at) where status = 'offered'`.execute(
    db,
  );
  // One place in a queue per person: the same email waits (or holds an offer) once per choice.
  await sql`create unique index waitlist_entries_once on waitlist_entries (event_id, lower(email), ticket_type, coalesce(sub_event_id, -1)) where status in ('waiting', 'offered')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('waitlist_entries').execute();
  await db.schema
    .alterTable('registrations')
    .dropColumn('waitlist_entry_id')
    .dropColumn('kept_paise')
    .execute();
  await db.schema.alterTable('events').dropColumn('waitlist').dropColumn('self_service').execute();
}
