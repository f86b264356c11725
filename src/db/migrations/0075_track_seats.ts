import { type Kysely, sql } from 'kysely';

// Reserved seating for tracks (docs/decisions/23-reserved-seating.md): a track may be sold from a
// seating plan of its own, so a seat row names the sitting it is of: the event's own plan
// (track -1) or one track's (its index). The key becomes (event, track, seat): the same seat of
// the same plan is one seat in each track, and still held or sold once in each.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table event_seats add column track smallint not null default -1`.execute(db);
  await sql`alter table event_seats drop constraint event_seats_pkey,
    add constraint event_seats_pkey primary key (event_id, track, seat_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from event_seats where track <> -1`.execute(db);
  await sql`alter table event_seats drop constraint event_seats_pkey,
    add constraint event_seats_pkey primary key (event_id, seat_id)`.execute(db);
  await sql`alter table event_seats drop column track`.execute(db);
}
