import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every gateway order the service asks for, written before the call: the receipt
  // finds an order whose create timed out, and the sweep asks the gateway about each
  // open row until its money has ended in one place (a confirmation or a refund).
  await db.schema
    .createTable('gateway_orders')
    .addColumn('receipt', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('registration', 'membership')`))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('amount_paise', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.unique())
    // The payment a membership period was confirmed with (a registration holds its own).
    .addColumn('payment_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('check_after', 'timestamptz', (c) => c.notNull())
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settled_at', 'timestamptz')
    .addColumn('outcome', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await sql`create index gateway_orders_due on gateway_orders (check_after) where settled_at is null`.execute(
    db,
  );

  // One sweep at a time across instances: a lease on this row.
  await db.schema
    .createTable('reconcile_lease')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`insert into reconcile_lease (name, holder, until) values ('sweep', null, 'epoch')`.execute(db);

  // Orders already waiting for payment are watched from now on.
  await sql`
    insert into gateway_orders (receipt, kind, mode, account_id, amount_paise, currency, order_id, created_at, check_after)
    select r.id, 'registration', r.mode, r.account_id, r.amount_paise, r.currency, r.order_id, r.created_at, r.created_at
    from registrations r where r.order_id is not null and r.status = 'pending'`.execute(db);
  await sql`
    insert into gateway_orders (receipt, kind, mode, account_id, amount_paise, currency, order_id, created_at, check_after)
    select 'legacy_' || m.pending_order_id, 'membership', m.mode, m.account_id, coalesce(m.pending_amount_paise, 0), 'INR', m.pending_order_id, m.updated_at, m.updated_at
    from memberships m where m.pending_order_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reconcile_lease').execute();
  await db.schema.dropTable('gateway_orders').execute();
}
