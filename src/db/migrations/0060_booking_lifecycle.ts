import { sql, type Kysely } from 'kysely';

// One lifecycle per booking (docs/decisions/20-booking-lifecycle.md):
// - `refunding`: the claim a refund holds while the gateway is asked, with what it claimed
//   (`claim`: the status it ends in, the amounts, the idempotency key, who) and when
//   (`claimed_at`, which the sweep reads to finish a claim a crash left behind);
// - `payment_captures`: what each bound payment captured and what has been refunded of it,
//   the database refusing any refund that would take the total above the capture.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table registrations drop constraint if exists registrations_status_check`.execute(db);
  await sql`alter table registrations add constraint registrations_status_check check (status in ('pending', 'confirmed', 'refunding', 'cancelled', 'refunded'))`.execute(
    db,
  );
  await db.schema
    .alterTable('registrations')
    .addColumn('claim', 'jsonb')
    .addColumn('claimed_at', 'timestamptz')
    .execute();
  await sql`create index registrations_claims on registrations (claimed_at) where status = 'refunding'`.execute(
    db,
  );
  await db.schema
    .createTable('payment_captures')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('registration_id', 'text')
    .addColumn('captured_paise', 'integer', (c) => c.notNull().check(sql`captured_paise > 0`))
    .addColumn('refunded_paise', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_captures_pkey', ['mode', 'payment_id'])
    .addCheckConstraint(
      'payment_captures_refund_within_capture',
      sql`refunded_paise >= 0 and refunded_paise <= captured_paise`,
    )
    .execute();
  // Every payment already bound to a booking, with what the ledger says was refunded of it.
  await sql`
    insert into payment_captures (mode, payment_id, account_id, registration_id, captured_paise, refunded_paise, created_at)
    select r.mode, r.payment_id, r.account_id, r.id, r.amount_paise,
      case when r.status in ('cancelled', 'refunded') and r.refund_id is not null then r.amount_paise - r.kept_paise else 0 end,
      coalesce(r.confirmed_at, r.created_at)
    from registrations r where r.payment_id is not null and r.amount_paise > 0
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_captures').ifExists().execute();
  await sql`drop index if exists registrations_claims`.execute(db);
  await db.schema.alterTable('registrations').dropColumn('claim').dropColumn('claimed_at').execute();
  await sql`alter table registrations drop constraint if exists registrations_status_check`.execute(db);
  await sql`alter table registrations add constraint registrations_status_check check (status in ('pending', 'confirmed', 'cancelled', 'refunded'))`.execute(
    db,
  );
}
