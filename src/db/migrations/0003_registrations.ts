import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registrations')
    .addColumn('pending_reason', 'text', (c) => c.check(sql`pending_reason in ('payment', 'approval')`))
    .addColumn('order_id', 'text', (c) => c.unique())
    .addColumn('payment_id', 'text', (c) => c.unique())
    .addColumn('refund_id', 'text')
    .addColumn('previous_ticket_codes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('cancelled_at', 'timestamptz')
    .execute();

  // Everyone on a booking, the primary first (idx 0, whose id is the registration id).
  // Each has an own unguessable id: their QR.
  await db.schema
    .createTable('attendees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('registration_id', 'text', (c) =>
      c.notNull().references('registrations.id').onDelete('cascade'),
    )
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('checked_in_at', 'timestamptz')
    .addUniqueConstraint('attendees_registration_idx', ['registration_id', 'idx'])
    .execute();

  // Seats held, per event, tier and track. Confirmation claims seats with one
  // conditional UPDATE over these rows; availability reads the same rows.
  await db.schema
    .createTable('seat_counters')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('taken', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('seat_counters_pk', ['event_id', 'scope'])
    .execute();
  await sql`
    insert into seat_counters (event_id, scope, capacity, taken)
    select e.id, 'event', e.capacity,
      coalesce((select sum(r.quantity) from registrations r where r.event_id = e.id and r.status = 'confirmed'), 0)
    from events e`.execute(db);

  await db.schema
    .createTable('promo_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('code_key', 'text', (c) => c.notNull())
    .addColumn('discount_percent', 'integer')
    .addColumn('discount_paise', 'bigint')
    .addColumn('valid_from', 'timestamptz')
    .addColumn('valid_until', 'timestamptz')
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('promo_codes_event_code', ['event_id', 'code_key'])
    .execute();

  // The sandbox gateway's own state, for test keys.
  await db.schema
    .createTable('sandbox_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('receipt', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notes', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_refunded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_payments_order').on('sandbox_payments').column('order_id').execute();

  await db.schema
    .createTable('sandbox_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('recipients', 'jsonb', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('attachments', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_emails_account')
    .on('sandbox_emails')
    .columns(['account_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'sandbox_emails',
    'sandbox_payments',
    'sandbox_orders',
    'promo_codes',
    'seat_counters',
    'attendees',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
