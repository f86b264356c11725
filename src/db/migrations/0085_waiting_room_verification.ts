import { type Kysely, sql } from 'kysely';

// The waiting room's contact verification (docs/decisions/26-a-fair-waiting-room.md): a place is
// made only when a one-time code sent to the contact comes back. A place is bound to the contact
// that was verified (its email, or its phone when the code went by WhatsApp): one place per
// verified email and one per verified phone. Verifications keep the code's HMAC only, never the
// code, and are pruned a day after they expire.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table waiting_room_places
    add column phone text,
    add column verified_by text not null default 'email'`.execute(db);
  await sql`alter table waiting_room_places drop constraint waiting_room_places_event_id_email_key`.execute(
    db,
  );
  await sql`create unique index waiting_room_places_email on waiting_room_places (event_id, email)
    where verified_by = 'email'`.execute(db);
  await sql`create unique index waiting_room_places_phone on waiting_room_places (event_id, phone)
    where verified_by = 'whatsapp'`.execute(db);
  await sql`create table waiting_room_verifications (
    verification_id text primary key,
    event_id text not null references events(id) on delete cascade,
    email text not null,
    phone text,
    channel text not null,
    code_mac text not null,
    attempts integer not null default 0,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index waiting_room_verifications_expiry on waiting_room_verifications (expires_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table waiting_room_verifications`.execute(db);
  await sql`drop index waiting_room_places_phone`.execute(db);
  await sql`drop index waiting_room_places_email`.execute(db);
  await sql`delete from waiting_room_places where verified_by <> 'email'`.execute(db);
  await sql`alter table waiting_room_places add constraint waiting_room_places_event_id_email_key
    unique (event_id, email)`.execute(db);
  await sql`alter table waiting_room_places drop column verified_by, drop column phone`.execute(db);
}
