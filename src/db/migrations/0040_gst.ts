import { type Kysely, sql } from 'kysely';

// GST (docs/decisions/17-the-organisers-office.md): the organiser's tax settings per account and mode, the
// events' tax facts, the buyer's billing details, and the documents issued (tax
// invoices, bills of supply, credit notes) with the counters their numbers come from.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('gst_profiles')
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('gstin', 'text')
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('state_code', 'text')
    .addColumn('series_prefix', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('gst_profiles_pk', ['account_id', 'mode'])
    .execute();

  // One row per numbering series: the last number given. A document's number is taken by
  // incrementing its row inside the transaction that issues it, so the row lock orders
  // issuers and a rolled-back issue gives its number back: no gap, no repeat.
  await db.schema
    .createTable('gst_counters')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('gstin', 'text', (c) => c.notNull())
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('fy', 'text', (c) => c.notNull())
    .addColumn('last_seq', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('gst_counters_pk', ['account_id', 'mode', 'gstin', 'series', 'fy'])
    .execute();

  // Issued documents, kept whatever happens to the event or the booking (no foreign keys
  // to them) and never changed: the database refuses UPDATE, DELETE and TRUNCATE.
  await db.schema
    .createTable('gst_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('gstin', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('tax_invoice', 'bill_of_supply', 'credit_note')`),
    )
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('sale', 'refund')`))
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('fy', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull().check(sql`length(number) <= 16`))
    .addColumn('registration_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('original_id', 'text')
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('issued_on', 'text', (c) => c.notNull())
    .addColumn('place_of_supply', 'text', (c) => c.notNull())
    .addColumn('recipient_gstin', 'text')
    .addColumn('rate', 'integer', (c) => c.notNull())
    .addColumn('total_paise', 'bigint', (c) => c.notNull())
    .addColumn('doc', 'jsonb', (c) => c.notNull())
    .addUniqueConstraint('gst_documents_number', ['account_id', 'mode', 'gstin', 'series', 'fy', 'seq'])
    .addUniqueConstraint('gst_documents_once', ['registration_id', 'role'])
    .execute();
  await db.schema
    .createIndex('gst_documents_period')
    .on('gst_documents')
    .columns(['account_id', 'mode', 'issued_on'])
    .execute();
  await sql`
    create function gst_documents_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'GST documents are never changed: % is refused', tg_op using errcode = 'restrict_violation';
    end
    $$`.execute(db);
  await sql`create trigger gst_documents_no_update_or_delete before update or delete on gst_documents for each row execute function gst_documents_immutable()`.execute(
    db,
  );
  await sql`create trigger gst_documents_no_truncate before truncate on gst_documents for each statement execute function gst_documents_immutable()`.execute(
    db,
  );

  await db.schema
    .alterTable('events')
    .addColumn('tax_category', 'text', (c) =>
      c
        .notNull()
        .defaultTo('standard')
        .check(sql`tax_category in ('standard', 'admission_exempt_upto_500', 'premium_sporting', 'none')`),
    )
    .addColumn('supplier_gstin', 'text')
    .addColumn('sac', 'text')
    .addColumn('venue_state', 'text')
    .execute();
  await db.schema.alterTable('registrations').addColumn('billing', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').dropColumn('billing').execute();
  await db.schema
    .alterTable('events')
    .dropColumn('tax_category')
    .dropColumn('supplier_gstin')
    .dropColumn('sac')
    .dropColumn('venue_state')
    .execute();
  await sql`drop table gst_documents`.execute(db);
  await sql`drop function gst_documents_immutable()`.execute(db);
  await db.schema.dropTable('gst_counters').execute();
  await db.schema.dropTable('gst_profiles').execute();
}
