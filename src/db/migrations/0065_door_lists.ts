import { type Kysely, sql } from 'kysely';

// Check-in lists (docs/decisions/28-a-persons-day.md): a door pass admits for the whole event, one track or one
// day. The whole event's admissions stay on the people themselves (attendees.checked_in_at);
// a track's or a day's are kept per list here, so a two-day ticket is admitted once on each
// day. `door_xid` marks the transaction that last wrote a row, as on the bookings, so a
// roster read `since` a cursor finds the admissions made after it; an undo keeps the row
// with `checked_in_at` null for the same reason.
//
// A device's synced scans (docs/decisions/21-trust-and-safety-third-round.md) are kept per holder — the pass, or the key — as well
// as per device and sequence number, so one pass holder sending scans under another's device
// id cannot answer for that device. Scans synced before keep an empty holder: no caller
// matches it, so a device replaying one has it decided again (an admit answers
// already_admitted).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table door_sync_scans add column holder text not null default ''`.execute(db);
  await sql`alter table door_sync_scans alter column holder drop default`.execute(db);
  await sql`alter table door_sync_scans drop constraint door_sync_scans_pk`.execute(db);
  await sql`alter table door_sync_scans add constraint door_sync_scans_pk primary key (event_id, holder, device_id, seq)`.execute(
    db,
  );

  await db.schema
    .alterTable('door_passes')
    .addColumn('scope_track_index', 'integer')
    .addColumn('scope_date', 'text')
    .execute();
  await sql`alter table door_passes add constraint door_passes_one_scope check (scope_track_index is null or scope_date is null)`.execute(
    db,
  );
  await db.schema.alterTable('checkin_log').addColumn('list', 'text').execute();

  await db.schema
    .createTable('door_list_admissions')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('registration_id', 'text', (c) => c.notNull())
    .addColumn('checked_in_at', 'timestamptz')
    .addColumn('checked_in_by', 'text')
    .addPrimaryKeyConstraint('door_list_admissions_pk', ['event_id', 'list', 'attendee_id'])
    .execute();
  await db.schema
    .createIndex('door_list_admissions_booking')
    .on('door_list_admissions')
    .columns(['event_id', 'list', 'registration_id'])
    .execute();
  await sql`alter table door_list_admissions add column door_xid xid8`.execute(db);
  await sql`create trigger door_list_admissions_door_mark before insert or update on door_list_admissions for each row execute function door_mark()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from door_sync_scans a using door_sync_scans b
    where a.event_id = b.event_id and a.device_id = b.device_id and a.seq = b.seq and a.holder > b.holder`.execute(
    db,
  );
  await sql`alter table door_sync_scans drop constraint door_sync_scans_pk`.execute(db);
  await sql`alter table door_sync_scans drop column holder`.execute(db);
  await sql`alter table door_sync_scans add constraint door_sync_scans_pk primary key (event_id, device_id, seq)`.execute(
    db,
  );
  await db.schema.dropTable('door_list_admissions').execute();
  await db.schema.alterTable('checkin_log').dropColumn('list').execute();
  await sql`alter table door_passes drop constraint if exists door_passes_one_scope`.execute(db);
  await db.schema
    .alterTable('door_passes')
    .dropColumn('scope_date')
    .dropColumn('scope_track_index')
    .execute();
}
