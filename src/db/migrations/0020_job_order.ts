import { type Kysely, sql } from 'kysely';

// Jobs due at the same instant run in the order they were enqueued: `seq` (an identity
// column) breaks ties after run_at and created_at, where the id (random) used to.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs add column seq bigint generated always as identity`.execute(db);
  await db.schema.dropIndex('jobs_due').execute();
  await db.schema
    .createIndex('jobs_due')
    .on('jobs')
    .columns(['run_at', 'created_at', 'seq'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_due').execute();
  await db.schema
    .createIndex('jobs_due')
    .on('jobs')
    .columns(['run_at', 'created_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await sql`alter table jobs drop column seq`.execute(db);
}
