import type { Kysely } from 'kysely';
import { partitionTable, type TableShape, unpartitionTable } from '../partition-migration.js';

// The job queue by the month a job was queued (docs/operations/partitions.md): finished jobs
// stay where they were queued, and old months go whole. A job keeps its partition for life
// (created_at never changes), so claiming, finishing and retrying it update it in place. The
// primary key becomes (id, created_at); jobs are enqueued under fresh ids and found by id
// (one index probe per partition). `seq` keeps its values and its sequence goes on.
const shape: TableShape = {
  table: 'jobs',
  column: 'created_at',
  key: ['id'],
  after: [
    "create index jobs_due on jobs (run_at, created_at, seq) where status = 'pending'",
    'create index jobs_by_status on jobs (status, created_at, id)',
    "create index jobs_leases on jobs (locked_until) where status = 'pending'",
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await partitionTable(db, shape);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await unpartitionTable(db, shape);
}
