import type { Kysely } from 'kysely';
import { partitionTable, type TableShape, unpartitionTable } from '../partition-migration.js';

// Webhook delivery records by month (docs/operations/partitions.md). The primary key becomes
// (id, created_at): a delivery is inserted once, under a fresh id, and read by account.
const shape: TableShape = {
  table: 'webhook_deliveries',
  column: 'created_at',
  key: ['id'],
  after: [
    'create index webhook_deliveries_owner on webhook_deliveries (account_id, mode, created_at)',
    'create index webhook_deliveries_age on webhook_deliveries (created_at)',
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await partitionTable(db, shape);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await unpartitionTable(db, shape);
}
