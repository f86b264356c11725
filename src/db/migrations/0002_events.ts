import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'published')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // As the caller wrote it (a date or a date-time with offset), and as an instant for ordering.
    .addColumn('start_date', 'text')
    .addColumn('start_at', 'timestamptz')
    .addColumn('end_date', 'text')
    .addColumn('location', 'text')
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('price_paise', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('INR'))
    .addColumn('max_team_size', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('requires_approval', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('custom_fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('special_prices', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('tracks', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('ticket_emails_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_owner')
    .on('events')
    .columns(['account_id', 'mode', 'start_at'])
    .execute();

  await db.schema
    .createTable('registrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'confirmed', 'cancelled', 'refunded')`),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('ticket_type', 'text', (c) => c.notNull().defaultTo('General'))
    .addColumn('sub_event_id', 'integer')
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('amount_paise', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('INR'))
    .addColumn('platform_fee_paise', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('gateway_fee_paise', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('custom_fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('promo_code', 'text')
    .addColumn('ticket_code', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('confirmed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('registrations_event')
    .on('registrations')
    .columns(['event_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registrations').execute();
  await db.schema.dropTable('events').execute();
}
