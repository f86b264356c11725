import { type Kysely, sql } from 'kysely';

// An account's events in the lists' order (the dashboard's numbered pages and the API's keyset
// pages: no start date last, newest start first, then newest made, then id): a page is the
// index's next rows, where it was a sort of every event of the account (2,500 of them in the
// size benchmark, for 50 shown). events_owner stays for the counts, which it answers from its
// smaller entries.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_list on events (account_id, mode, start_at desc nulls last, created_at desc, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_list').ifExists().execute();
}
