import { type Kysely, sql } from 'kysely';

// Requests for publishing access (docs/decisions/17-the-organisers-office.md, getting started): an organiser asks
// with a short message, platform staff grant or decline it with a reason. At most one request
// of an account is pending at a time; decided ones stay as its history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('publishing_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'granted', 'declined')`))
    .addColumn('reason', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await sql`create unique index publishing_requests_one_pending on publishing_requests (user_id) where status = 'pending'`.execute(
    db,
  );
  await sql`create index publishing_requests_by_status on publishing_requests (status, created_at, id)`.execute(
    db,
  );
  await sql`create index publishing_requests_by_user on publishing_requests (user_id, created_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('publishing_requests').execute();
}
