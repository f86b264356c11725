import { type Kysely, sql } from 'kysely';

// WhatsApp tickets (docs/decisions/16-the-buyers-ticket.md): the buyer's consent is stored with the booking
// (the Cloud API records none), and each ticket sent over WhatsApp has one row holding the
// Cloud API's message id and the latest delivery status its webhooks reported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registrations')
    .addColumn('whatsapp_opt_in', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('whatsapp_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('registration_id', 'text', (c) =>
      c.notNull().unique().references('registrations.id').onDelete('cascade'),
    )
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('wamid', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('unsent', 'accepted', 'sent', 'delivered', 'read', 'failed')`),
    )
    .addColumn('status_at', 'timestamptz', (c) => c.notNull())
    .addColumn('error_code', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('whatsapp_messages').execute();
  await db.schema.alterTable('registrations').dropColumn('whatsapp_opt_in').execute();
}
