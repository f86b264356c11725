import { type Kysely, sql } from 'kysely';

// The per-buyer limit (docs/decisions/26-a-fair-waiting-room.md) counts, in each booking's
// transaction, one buyer's tickets on the event by email and by phone: these indexes make that
// count read the buyer's own bookings rather than every booking of the event.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index registrations_buyer_email on registrations (event_id, lower(trim(email)))
    where status in ('confirmed', 'pending')`.execute(db);
  await sql`create index registrations_buyer_phone on registrations (event_id, phone)
    where status in ('confirmed', 'pending') and phone is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('registrations_buyer_phone').ifExists().execute();
  await db.schema.dropIndex('registrations_buyer_email').ifExists().execute();
}
