import { type Kysely, sql } from 'kysely';

// Reserved seating (docs/decisions/23-reserved-seating.md): a hold made from a browser (a checkout
// key) keeps the client address it came from, so one address cannot keep more than
// HELD_SEATS_PER_ADDRESS seats of an event held at once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table event_seats add column client_address text`.execute(db);
  await sql`create index event_seats_held_address on event_seats (event_id, client_address)
    where client_address is not null and status = 'held' and registration_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index event_seats_held_address`.execute(db);
  await sql`alter table event_seats drop column client_address`.execute(db);
}
