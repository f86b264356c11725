import { type Kysely, sql } from 'kysely';

// Unpaid bookings are capped per email and per client address on each event
// (docs/decisions/14-trust-and-safety-second-round.md): a paid booking records the address it was made from, as the
// service saw it, and the bookings awaiting payment are found by a partial index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').addColumn('client_address', 'text').execute();
  await sql`create index registrations_awaiting_payment on registrations (event_id) where status = 'pending' and pending_reason = 'payment'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('registrations_awaiting_payment').execute();
  await db.schema.alterTable('registrations').dropColumn('client_address').execute();
}
