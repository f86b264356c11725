import { type Kysely, sql } from 'kysely';

// Closing every loop (docs/decisions/28-a-persons-day.md):
// - `registrations.refunded_paise`: what has been given back of a booking so far, so a
//   partial refund keeps it confirmed and the next refund knows what is left; filled from
//   `payment_captures` for bookings refunded before.
// - a booking may hold several credit notes (one per partial refund), still one sale document.
// - `users.org_name` and `users.reply_to`: the organisation's name its mails carry and the
//   address a reply goes to.
// - `ledger_test_settlements`: test-mode captures up to a moment made available by "Settle now
//   (test)", without moving the account's clock.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registrations')
    .addColumn('refunded_paise', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update registrations r set refunded_paise = c.refunded_paise
    from payment_captures c
    where c.mode = r.mode and c.payment_id = r.payment_id and c.registration_id = r.id and r.status in ('cancelled', 'refunded') and c.refunded_paise > 0`.execute(
    db,
  );
  await sql`alter table gst_documents drop constraint if exists gst_documents_once`.execute(db);
  await sql`create unique index gst_documents_one_sale on gst_documents (registration_id) where role = 'sale'`.execute(
    db,
  );
  await sql`create index gst_documents_registration on gst_documents (registration_id, issued_at)`.execute(
    db,
  );
  await db.schema.alterTable('users').addColumn('org_name', 'text').addColumn('reply_to', 'text').execute();
  await db.schema
    .createTable('ledger_test_settlements')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('settled_through', 'timestamptz', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ledger_test_settlements').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('org_name').dropColumn('reply_to').execute();
  await sql`drop index if exists gst_documents_registration`.execute(db);
  await sql`drop index if exists gst_documents_one_sale`.execute(db);
  await sql`alter table gst_documents add constraint gst_documents_once unique (registration_id, role)`.execute(
    db,
  );
  await db.schema.alterTable('registrations').dropColumn('refunded_paise').execute();
}
