import { type Kysely, sql } from 'kysely';

// A booking awaiting payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// a third reason to be pending, the method, the reference the buyer quotes (unique per
// account), the time it lapses and when its reminder went; when it was paid, how and how much.
// An offline sale in the ledger never becomes payable (`offline_sale`, `offline_refund`).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table registrations drop constraint if exists registrations_pending_reason_check`.execute(
    db,
  );
  await sql`alter table registrations add constraint registrations_pending_reason_check
    check (pending_reason in ('payment', 'approval', 'offline_payment'))`.execute(db);
  await sql`alter table registrations
    add column offline_method text check (offline_method in ('bank_transfer', 'upi_to_organiser', 'cash_at_venue')),
    add column offline_reference text,
    add column pay_by timestamptz,
    add column reminded_at timestamptz,
    add column offline_paid jsonb`.execute(db);
  await sql`create unique index registrations_offline_reference on registrations (account_id, offline_reference)
    where offline_reference is not null`.execute(db);
  await sql`create index registrations_offline_due on registrations (pay_by)
    where status = 'pending' and pending_reason = 'offline_payment'`.execute(db);
  await sql`alter table ledger_entries drop constraint if exists ledger_entries_kind_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_kind_check check (kind in ('ticket_sale',
    'platform_fee', 'gateway_fee', 'ticket_refund', 'platform_fee_reversal', 'membership_payment', 'payout_hold',
    'payout_credit', 'offline_sale', 'offline_refund'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The ledger is append-only: its wider kinds stay.
  await sql`drop index if exists registrations_offline_due`.execute(db);
  await sql`drop index if exists registrations_offline_reference`.execute(db);
  await sql`alter table registrations drop column offline_method, drop column offline_reference,
    drop column pay_by, drop column reminded_at, drop column offline_paid`.execute(db);
  await sql`update registrations set pending_reason = 'payment' where pending_reason = 'offline_payment'`.execute(
    db,
  );
  await sql`alter table registrations drop constraint if exists registrations_pending_reason_check`.execute(
    db,
  );
  await sql`alter table registrations add constraint registrations_pending_reason_check
    check (pending_reason in ('payment', 'approval'))`.execute(db);
}
