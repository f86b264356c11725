// Queries on ledger_entries, taking db or trx. Inserts never update: a repeat of
// the same (kind, source, ref) writes nothing.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, LedgerKind, LedgerSource, Mode } from '../../db/database.js';

export interface NewEntry {
  accountId: string;
  mode: Mode;
  kind: LedgerKind;
  amountPaise: number;
  sourceType: LedgerSource;
  sourceId: string;
  ref?: string;
  capturedAt: Date | null;
  createdAt: Date;
}

/** Deterministic: the same (kind, source, ref) always has the same id. */
export function entryId(kind: string, sourceType: string, sourceId: string, ref: string): string {
  return 'le_' + createHash('sha256').update(`${kind}\0${sourceType}\0${sourceId}\0${ref}`).digest('base64url').slice(0, 22);
}

export async function insertEntries(db: Kysely<Database>, entries: readonly NewEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const r = await db
    .insertInto('ledger_entries')
    .values(
      entries.map((e) => ({
        id: entryId(e.kind, e.sourceType, e.sourceId, e.ref ?? ''),
        account_id: e.accountId,
        mode: e.mode,
        kind: e.kind,
        amount_paise: e.amountPaise,
        source_type: e.sourceType,
        source_id: e.sourceId,
        ref: e.ref ?? '',
        captured_at: e.capturedAt,
        created_at: e.createdAt,
      })),
    )
    .onConflict((oc) => oc.columns(['kind', 'source_type', 'source_id', 'ref']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n);
}

export function entriesOf(db: Kysely<Database>, sourceType: LedgerSource, sourceId: string) {
  return db.selectFrom('ledger_entries').selectAll().where('source_type', '=', sourceType).where('source_id', '=', sourceId).execute();
}

/** Available (cleared by `clearedUpTo`, or no capture) and pending sums for one account and mode. */
export async function sums(db: Kysely<Database>, accountId: string, mode: Mode, clearedUpTo: Date): Promise<{ available: number; pending: number }> {
  const r = await sql<{ available: string; pending: string }>`
    select
      coalesce(sum(amount_paise) filter (where captured_at is null or captured_at <= ${clearedUpTo}::timestamptz), 0)::text as available,
      coalesce(sum(amount_paise) filter (where captured_at > ${clearedUpTo}::timestamptz), 0)::text as pending
    from ledger_entries where account_id = ${accountId} and mode = ${mode}`.execute(db);
  const row = r.rows[0]!;
  return { available: Number(row.available), pending: Number(row.pending) };
}

export function page(db: Kysely<Database>, accountId: string, mode: Mode, limit: number, before: string | undefined) {
  let q = db.selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId).where('mode', '=', mode);
  if (before !== undefined) q = q.where('seq', '<', before);
  return q.orderBy('seq', 'desc').limit(limit + 1).execute();
}

/** Ledger totals per account, mode and source type (for the recomputation check). */
export async function totalsBySource(db: Kysely<Database>, accountId?: string) {
  return db
    .selectFrom('ledger_entries')
    .select(['account_id', 'mode', 'source_type', sql<string>`sum(amount_paise)::text`.as('total')])
    .$if(accountId !== undefined, (q) => q.where('account_id', '=', accountId!))
    .groupBy(['account_id', 'mode', 'source_type'])
    .execute();
}
