import type { Kysely } from 'kysely';
import { partitionTable, type TableShape, unpartitionTable } from '../partition-migration.js';

// The audit log by month (docs/operations/partitions.md). Every entry keeps its id and `seq`
// (the identity column the keyset pages follow; its sequence goes on from the largest), and the
// log stays append-only: the triggers refusing UPDATE, DELETE and TRUNCATE are made on the new
// table (a row trigger on a partitioned table is cloned onto every partition). The primary key
// becomes (id, at); nothing points at the log, and no lookup needs id alone to be unique.
const shape: TableShape = {
  table: 'audit_log',
  column: 'at',
  key: ['id'],
  after: [
    'create index audit_log_account on audit_log (account_id, mode, seq desc)',
    'create index audit_log_target on audit_log (account_id, mode, target_type, target_id, seq desc)',
    'create trigger audit_log_no_update_or_delete before update or delete on audit_log for each row execute function audit_log_immutable()',
    'create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_immutable()',
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await partitionTable(db, shape);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await unpartitionTable(db, shape);
}
