// The audit log's queries (the table is append-only: the database refuses UPDATE and DELETE).
import type { Insertable, Selectable } from 'kysely';
import type { AuditLogTable, Mode } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';

export type AuditRow = Selectable<AuditLogTable>;

export async function insertEntry(db: Db, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

export interface AuditFilter {
  accountId: string;
  mode: Mode;
  targetType?: string | undefined;
  targetId?: string | undefined;
  action?: string | undefined;
  /** Entries older than this `seq` (the previous page's cursor). */
  beforeSeq?: string | undefined;
  limit: number;
}

/** Newest first, `limit` rows at most. */
export function listEntries(db: Db, f: AuditFilter): Promise<AuditRow[]> {
  let q = db
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', f.accountId)
    .where('mode', '=', f.mode);
  if (f.targetType !== undefined) q = q.where('target_type', '=', f.targetType);
  if (f.targetId !== undefined) q = q.where('target_id', '=', f.targetId);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.beforeSeq !== undefined) q = q.where('seq', '<', f.beforeSeq);
  return q.orderBy('seq', 'desc').limit(f.limit).execute();
}

/** One target's entries, oldest first (a registration's history); `limit` rows at most. */
export function entriesOfTarget(
  db: Db,
  t: { accountId: string; mode: Mode; targetType: string; targetId: string; limit: number },
): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', t.accountId)
    .where('mode', '=', t.mode)
    .where('target_type', '=', t.targetType)
    .where('target_id', '=', t.targetId)
    .orderBy('seq', 'asc')
    .limit(t.limit)
    .execute();
}
