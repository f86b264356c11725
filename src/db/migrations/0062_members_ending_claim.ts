import type { Kysely } from 'kysely';

// A membership cancel that ends it now claims the row before it asks the gateway to cancel
// the mandate (docs/decisions/20-booking-lifecycle.md): `ending_claimed_at` says since when. A charge whose
// notification arrives while the claim is held, or after the membership ended, gets no
// period, so its money is refunded instead of kept.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('ending_claimed_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memberships').dropColumn('ending_claimed_at').execute();
}
