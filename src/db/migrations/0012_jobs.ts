import { type Kysely, sql } from 'kysely';

// Jobs are never dropped: a failing job is retried with capped back-off until
// `retry_until` (null: 72 hours after it was queued), then parked as `dead` for staff.
// Durable broadcasts: one row per send and one per recipient, so each person is
// mailed at most once however often the request or the jobs run.
// Memberships: the receipt of the order (or mandate) a subscribe is creating, so
// concurrent subscribes for one email make one order.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs drop constraint if exists jobs_status_check`.execute(db);
  await sql`update jobs set status = 'dead' where status = 'failed'`.execute(db);
  await sql`alter table jobs add constraint jobs_status_check check (status in ('pending', 'done', 'dead'))`.execute(
    db,
  );
  await db.schema.alterTable('jobs').addColumn('retry_until', 'timestamptz').execute();
  await db.schema.createIndex('jobs_by_status').on('jobs').columns(['status', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('jobs_leases')
    .on('jobs')
    .column('locked_until')
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('broadcasts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('event_title', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('recipient_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('broadcasts_event')
    .on('broadcasts')
    .columns(['event_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('broadcast_recipients')
    .addColumn('broadcast_id', 'text', (c) => c.notNull().references('broadcasts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('queued', 'sending', 'delivered', 'failed')`),
    )
    .addColumn('error', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('broadcast_recipients_pk', ['broadcast_id', 'email'])
    .execute();

  await db.schema.alterTable('memberships').addColumn('pending_receipt', 'text').execute();
  await db.schema.alterTable('memberships').addColumn('pending_claimed_at', 'timestamptz').execute();

  await db.schema
    .createIndex('webhook_deliveries_age')
    .on('webhook_deliveries')
    .column('created_at')
    .execute();
  await db.schema.createIndex('sandbox_emails_age').on('sandbox_emails').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sandbox_emails_age').execute();
  await db.schema.dropIndex('webhook_deliveries_age').execute();
  await db.schema.alterTable('memberships').dropColumn('pending_claimed_at').execute();
  await db.schema.alterTable('memberships').dropColumn('pending_receipt').execute();
  await db.schema.dropTable('broadcast_recipients').execute();
  await db.schema.dropTable('broadcasts').execute();
  await db.schema.dropIndex('jobs_leases').execute();
  await db.schema.dropIndex('jobs_by_status').execute();
  await db.schema.alterTable('jobs').dropColumn('retry_until').execute();
  await sql`alter table jobs drop constraint if exists jobs_status_check`.execute(db);
  await sql`update jobs set status = 'failed' where status = 'dead'`.execute(db);
  await sql`alter table jobs add constraint jobs_status_check check (status in ('pending', 'done', 'failed'))`.execute(
    db,
  );
}
