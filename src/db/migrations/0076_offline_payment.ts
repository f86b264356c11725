import { type Kysely, sql } from 'kysely';

// Payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md): an event's
// offline payment settings, stored as one document (null: off).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column offline_payment jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events drop column offline_payment`.execute(db);
}
