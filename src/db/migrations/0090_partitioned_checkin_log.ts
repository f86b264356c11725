import type { Kysely } from 'kysely';
import { partitionTable, type TableShape, unpartitionTable } from '../partition-migration.js';

// The door's scans (who admitted or undid whom, and when) by month (docs/operations/partitions.md).
// `id` keeps its values and its sequence; the primary key becomes (id, at). Deleting an event
// still deletes its scans (the foreign key is made on the partitioned table).
const shape: TableShape = {
  table: 'checkin_log',
  column: 'at',
  key: ['id'],
  after: [
    'create index checkin_log_event on checkin_log (event_id, id)',
    'alter table checkin_log add constraint checkin_log_event_id_fkey foreign key (event_id) references events (id) on delete cascade',
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await partitionTable(db, shape);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await unpartitionTable(db, shape);
}
