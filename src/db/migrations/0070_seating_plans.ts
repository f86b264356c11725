import { type Kysely, sql } from 'kysely';

// Seating plans (docs/decisions/23-reserved-seating.md): an account's reusable plans, each its
// seats and stage as one JSON layout (written and read whole; a plan's seats are not queried one
// by one), with the counts the lists show.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seating_plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('layout', 'jsonb', (c) => c.notNull())
    .addColumn('seat_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index seating_plans_account on seating_plans (account_id, created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('seating_plans').execute();
}
