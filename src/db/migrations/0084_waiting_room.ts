import { type Kysely, sql } from 'kysely';

// A fair waiting room (docs/decisions/26-a-fair-waiting-room.md): an event's on-sale settings as
// one document (null: none), and the queue's tables for a service without Redis: a room per
// event (opened when, the admission cursor), a place per contact email, and the proof-of-work
// challenges already used (each solves one join).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column on_sale jsonb`.execute(db);
  await sql`create table waiting_room_rooms (
    event_id text primary key references events(id) on delete cascade,
    next_seq bigint not null default 0,
    opened_at timestamptz,
    shuffle_seed text,
    admitted_base bigint not null default 0,
    anchor_ms bigint not null default 0,
    rate integer not null default 0
  )`.execute(db);
  await sql`create table waiting_room_places (
    place_id text primary key,
    event_id text not null references events(id) on delete cascade,
    email text not null,
    arrival_seq bigint not null,
    score bigint,
    admitted_at timestamptz,
    joined_at timestamptz not null,
    unique (event_id, email)
  )`.execute(db);
  await sql`create index waiting_room_places_order on waiting_room_places (event_id, score)`.execute(db);
  await sql`create table waiting_room_proofs (
    proof text primary key,
    expires_at timestamptz not null
  )`.execute(db);
  await sql`create index waiting_room_proofs_expiry on waiting_room_proofs (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table waiting_room_proofs`.execute(db);
  await sql`drop table waiting_room_places`.execute(db);
  await sql`drop table waiting_room_rooms`.execute(db);
  await sql`alter table events drop column on_sale`.execute(db);
}
