import { type Kysely, sql } from 'kysely';

// The sandbox gateway's refunds (docs/decisions/20-booking-lifecycle.md): each refund a row with the idempotency
// key it was made under (unique per account, payment and key, as Razorpay's X-Refund-Idempotency
// binds a key), written in the same statement that adds it to the payment's amount_refunded.
// The payment's refunded total can no longer pass its capture: the refund statement refuses it,
// and the check below would refuse a write that tried. NOT VALID: rows the old read-then-add
// refund over-refunded stay readable; every new write is checked.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('notes', 'jsonb', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('sandbox_refunds_key', ['account_id', 'payment_id', 'idempotency_key'])
    .execute();
  await sql`create index sandbox_refunds_payment on sandbox_refunds (payment_id, created_at)`.execute(db);
  await sql`alter table sandbox_payments add constraint sandbox_payments_refunded_within_capture check (amount_refunded >= 0 and amount_refunded <= amount) not valid`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sandbox_payments drop constraint if exists sandbox_payments_refunded_within_capture`.execute(
    db,
  );
  await db.schema.dropTable('sandbox_refunds').execute();
}
