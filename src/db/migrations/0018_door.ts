import { type Kysely, sql } from 'kysely';

// The door (docs/decisions/15-the-door.md): passes that open one event's door, who admitted or undid
// each person, the devices' synced scans, and a change marker for the offline roster.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('door_passes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    // sha256 of the token, hex; the token itself is shown once and never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('door_passes_event')
    .on('door_passes')
    .columns(['event_id', 'created_at'])
    .execute();

  // Who admitted or undid whom, and when: `actor` is `pass:<id>[/<device>]`, `key:<id>` or `dashboard`.
  await db.schema
    .createTable('checkin_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('admit', 'undo')`))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checkin_log_event').on('checkin_log').columns(['event_id', 'id']).execute();

  // A device's scans as applied, so a repeated sync answers what it answered the first time.
  await db.schema
    .createTable('door_sync_scans')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('result', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('door_sync_scans_pk', ['event_id', 'device_id', 'seq'])
    .execute();

  await db.schema.alterTable('attendees').addColumn('checked_in_by', 'text').execute();

  // The roster's change marker: the transaction that last wrote a booking or a person.
  // A roster read answers its snapshot as the cursor; the next read `since` it answers
  // what that snapshot could not see.
  await sql`alter table registrations add column door_xid xid8`.execute(db);
  await sql`alter table attendees add column door_xid xid8`.execute(db);
  await sql`create or replace function door_mark() returns trigger language plpgsql as $$
    begin new.door_xid := pg_current_xact_id(); return new; end $$`.execute(db);
  await sql`create trigger registrations_door_mark before insert or update on registrations for each row execute function door_mark()`.execute(
    db,
  );
  await sql`create trigger attendees_door_mark before insert or update on attendees for each row execute function door_mark()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists attendees_door_mark on attendees`.execute(db);
  await sql`drop trigger if exists registrations_door_mark on registrations`.execute(db);
  await sql`drop function if exists door_mark()`.execute(db);
  await sql`alter table attendees drop column if exists door_xid`.execute(db);
  await sql`alter table registrations drop column if exists door_xid`.execute(db);
  await db.schema.alterTable('attendees').dropColumn('checked_in_by').execute();
  await db.schema.dropTable('door_sync_scans').execute();
  await db.schema.dropTable('checkin_log').execute();
  await db.schema.dropTable('door_passes').execute();
}
