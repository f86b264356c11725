import { type Kysely, sql } from 'kysely';

// A test-mode order is timed on its account's clock (docs/decisions/20-booking-lifecycle.md): the reconciliation
// sweep also reads the open test-mode orders of each account whose clock was moved on. This index
// finds them by account, so the sweep never reads the open live orders a second time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index gateway_orders_test_open on gateway_orders (account_id) where settled_at is null and mode = 'test'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('gateway_orders_test_open').ifExists().execute();
}
