// The ledger (append-only money entries per account and mode) and payouts to UPI.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Payouts need a verified email. The email-verification work adds this column too;
  // `if not exists` lets both land in either order.
  await sql`alter table users add column if not exists email_verified_at timestamptz`.execute(db);

  // Never updated or deleted: a correction is a new entry. `amount_paise` is signed
  // (credits positive, debits negative). `captured_at` is the capture of the payment an
  // entry belongs to (a refund carries its sale's): such an entry is pending until
  // PAYOUT_CLEARING_DAYS working days after it, read at query time; payout entries have
  // none and count at once. (kind, source_type, source_id, ref) is unique, so
  // every writer can insert with ON CONFLICT DO NOTHING and a repeat writes nothing.
  await db.schema
    .createTable('ledger_entries')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`kind in ('ticket_sale', 'platform_fee', 'gateway_fee', 'ticket_refund', 'platform_fee_reversal', 'membership_payment', 'payout_hold', 'payout_credit')`,
        ),
    )
    .addColumn('amount_paise', 'bigint', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) =>
      c.notNull().check(sql`source_type in ('registration', 'membership', 'payout')`),
    )
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('captured_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('ledger_entries_once', ['kind', 'source_type', 'source_id', 'ref'])
    .execute();
  await db.schema
    .createIndex('ledger_entries_account')
    .on('ledger_entries')
    .columns(['account_id', 'mode', 'seq'])
    .execute();
  await db.schema
    .createIndex('ledger_entries_source')
    .on('ledger_entries')
    .columns(['source_type', 'source_id'])
    .execute();

  await db.schema
    .createTable('payouts')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    // Also the X-Payout-Idempotency key and reference_id at RazorpayX.
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('amount_paise', 'bigint', (c) => c.notNull().check(sql`amount_paise > 0`))
    .addColumn('upi_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('processing', 'processed', 'failed', 'cancelled', 'reversed')`),
    )
    .addColumn('gateway_payout_id', 'text', (c) => c.unique())
    .addColumn('gateway_status', 'text')
    .addColumn('utr', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('expected_by', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payouts_account')
    .on('payouts')
    .columns(['account_id', 'mode', 'seq'])
    .execute();
  await db.schema.createIndex('payouts_processing').on('payouts').columns(['status', 'updated_at']).execute();

  // RazorpayX contacts (one per account) and vpa fund accounts (one per account and UPI id).
  await db.schema
    .createTable('payout_contacts')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('contact_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('payout_fund_accounts')
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('upi_id', 'text', (c) => c.notNull())
    .addColumn('fund_account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_fund_accounts_pk', ['account_id', 'upi_id'])
    .execute();

  // Paid bookings confirmed before the ledger existed: their sale, fees and refund.
  await sql`
    insert into ledger_entries (id, account_id, mode, kind, amount_paise, source_type, source_id, ref, captured_at, created_at)
    select 'le_' || md5(r.id || k.kind), r.account_id, r.mode, k.kind, k.amount, 'registration', r.id, '', r.confirmed_at, r.confirmed_at
    from registrations r
    cross join lateral (values
      ('ticket_sale', r.amount_paise),
      ('platform_fee', -r.platform_fee_paise),
      ('gateway_fee', -r.gateway_fee_paise),
      ('ticket_refund', case when r.status in ('cancelled', 'refunded') and r.refund_id is not null then -r.amount_paise end),
      ('platform_fee_reversal', case when r.status in ('cancelled', 'refunded') and r.refund_id is not null then r.platform_fee_paise end)
    ) as k(kind, amount)
    where r.confirmed_at is not null and r.payment_id is not null and r.amount_paise > 0 and k.amount is not null and k.amount <> 0
  `.execute(db);
  // Memberships keep only their last payment: that one, at the plan's price.
  await sql`
    insert into ledger_entries (id, account_id, mode, kind, amount_paise, source_type, source_id, ref, captured_at, created_at)
    select 'le_' || md5(m.id || m.last_payment_id || k.kind), m.account_id, m.mode, k.kind, k.amount, 'membership', m.id, m.last_payment_id, m.updated_at, m.updated_at
    from memberships m
    join plans p on p.id = m.plan_id
    cross join lateral (values
      ('membership_payment', p.amount_paise),
      ('gateway_fee', case when m.mode = 'live' then -round(p.amount_paise * 0.03)::bigint end)
    ) as k(kind, amount)
    where m.last_payment_id is not null and k.amount is not null and k.amount <> 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['payout_fund_accounts', 'payout_contacts', 'payouts', 'ledger_entries'])
    await db.schema.dropTable(t).execute();
}
