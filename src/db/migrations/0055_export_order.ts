import type { Kysely } from 'kysely';

// Exports (docs/decisions/17-the-organisers-office.md) read an event's registrations and an account's
// memberships in (created_at, id) order a page at a time; these indexes let each page start
// where the last ended instead of sorting the whole event or account again. The ledger
// (account, mode, seq) and GST documents (their unique number) already have theirs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('registrations_event_order')
    .on('registrations')
    .columns(['event_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('memberships_account_order')
    .on('memberships')
    .columns(['account_id', 'mode', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memberships_account_order').ifExists().execute();
  await db.schema.dropIndex('registrations_event_order').ifExists().execute();
}
