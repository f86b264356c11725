import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('amount_paise', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('fixed_term', 'recurring')`))
    .addColumn('term_months', 'integer')
    .addColumn('period', 'text')
    .addColumn('total_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('gateway_plan_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('plans_owner')
    .on('plans')
    .columns(['account_id', 'mode', 'created_at'])
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('created', 'authorised', 'active', 'halted', 'ended', 'pending_payment')`),
    )
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('api', 'manual')`))
    .addColumn('subscription_id', 'text', (c) => c.unique())
    .addColumn('authorisation_url', 'text')
    .addColumn('pending_order_id', 'text', (c) => c.unique())
    .addColumn('pending_amount_paise', 'bigint')
    .addColumn('last_payment_id', 'text', (c) => c.unique())
    .addColumn('valid_until', 'timestamptz')
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('memberships_plan_email', ['plan_id', 'email'])
    .execute();
  await db.schema
    .createIndex('memberships_lookup')
    .on('memberships')
    .columns(['account_id', 'mode', 'email'])
    .execute();

  await db.schema
    .createTable('sandbox_clocks')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_at_cycle_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['sandbox_subscriptions', 'sandbox_clocks', 'memberships', 'plans'])
    await db.schema.dropTable(t).execute();
}
