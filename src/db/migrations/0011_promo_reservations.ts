import { type Kysely, sql } from 'kysely';

// Promo codes reserve a use with a booking's order: a pending
// booking holds one of `uses_reserved` until it is confirmed (the reservation becomes a
// use) or ends unpaid (the reservation is released), so `uses + uses_reserved` never
// passes `max_uses`. Bookings already pending when this runs hold theirs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('promo_codes')
    .addColumn('uses_reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update promo_codes p set uses_reserved = (
      select count(*) from registrations r
       where r.event_id = p.event_id and r.status = 'pending' and upper(r.promo_code) = p.code_key
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('promo_codes').dropColumn('uses_reserved').execute();
}
