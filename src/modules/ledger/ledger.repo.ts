// Queries on ledger_entries, taking db or trx. Inserts never update: a repeat of
// the same (kind, source, ref) writes nothing.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, LedgerEntriesTable, LedgerKind, LedgerSource, Mode } from '../../db/database.js';
import { NEVER_PAYABLE } from './entries.js';

export type LedgerRow = Selectable<LedgerEntriesTable>;

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
  return (
    'le_' +
    createHash('sha256')
      .update(`${kind}\0${sourceType}\0${sourceId}\0${ref}`)
      .digest('base64url')
      .slice(0, 22)
  );
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

/** Whether the entry (kind, source, ref) was written. */
export async function hasEntry(
  db: Kysely<Database>,
  kind: LedgerKind,
  sourceType: LedgerSource,
  sourceId: string,
  ref: string,
): Promise<boolean> {
  const r = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('kind', '=', kind)
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .where('ref', '=', ref)
    .executeTakeFirst();
  return r !== undefined;
}

export function entriesOf(db: Kysely<Database>, sourceType: LedgerSource, sourceId: string) {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .execute();
}

/** Available (cleared by `clearedUpTo`, or no capture) and pending sums for one account and mode. */
export async function sums(
  db: Kysely<Database>,
  accountId: string,
  mode: Mode,
  clearedUpTo: Date,
): Promise<{ available: number; pending: number }> {
  const r = await sql<{ available: string; pending: string }>`
    select
      coalesce(sum(amount_paise) filter (where captured_at is null or captured_at <= ${clearedUpTo}::timestamptz), 0)::text as available,
      coalesce(sum(amount_paise) filter (where captured_at > ${clearedUpTo}::timestamptz), 0)::text as pending
    from ledger_entries where account_id = ${accountId} and mode = ${mode}
      and kind not in (${sql.join(NEVER_PAYABLE.map((k) => sql.lit(k)))})`.execute(db);
  const row = r.rows[0]!;
  return { available: Number(row.available), pending: Number(row.pending) };
}

export function page(
  db: Kysely<Database>,
  accountId: string,
  mode: Mode,
  limit: number,
  before: string | undefined,
) {
  let q = db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode);
  if (before !== undefined) q = q.where('seq', '<', before);
  return q
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
}

/**
 * One page of an account's entries in a mode for an export, oldest first (by seq, the order
 * they were written): at most `limit` after `afterSeq`, created in [from, to) when given.
 */
export function exportPage(
  db: Kysely<Database>,
  accountId: string,
  mode: Mode,
  range: { from?: Date | undefined; to?: Date | undefined },
  afterSeq: string | undefined,
  limit: number,
) {
  let q = db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode);
  if (range.from !== undefined) q = q.where('created_at', '>=', range.from);
  if (range.to !== undefined) q = q.where('created_at', '<', range.to);
  if (afterSeq !== undefined) q = q.where('seq', '>', afterSeq);
  return q.orderBy('seq').limit(limit).execute();
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

// ownership-exception: the recomputation check reads the rows the ledger follows
// (registrations, payouts) in the check's one snapshot, as an audit independent of the
// code paths that wrote the entries.
export async function recomputedTotals(db: Transaction<Database>, accountId: string | undefined) {
  const r = await sql<{ account_id: string; mode: Mode; source_type: LedgerSource; total: string }>`
    select account_id, mode, 'registration' as source_type, sum(
      amount_paise - platform_fee_paise - gateway_fee_paise
      -- Refunded in full: by the organiser, or found refunded at the gateway (a refund whose
      -- answer was lost, which leaves no refund id), or cancelled after confirmation with all
      -- of it back: the price and the platform fee back. Otherwise what was given back so far
      -- (a policy's cancellation keeping a fee, the organiser's partial refunds).
      + case when (status = 'refunded' or (status = 'cancelled' and refund_id is not null)) and kept_paise = 0
          then platform_fee_paise - amount_paise
          else -refunded_paise end
    )::text as total
    from registrations
    -- Paid through the gateway, or marked paid outside it (docs/decisions/24-payment-outside-the-gateway.md):
    -- an offline sale's entries are its gross and platform fee (no gateway charge), and its
    -- refund in full gives both back, as the same sum says.
    where confirmed_at is not null and (payment_id is not null or offline_paid is not null) and amount_paise > 0
      and (${accountId ?? null}::text is null or account_id = ${accountId ?? null})
    group by account_id, mode
    union all
    -- A deleted event's registrations are gone (deletion refunds paid ones first): their
    -- immutable entries stand as recorded, as nothing is left to recompute them from.
    select l.account_id, l.mode, 'registration', sum(l.amount_paise)::text
    from ledger_entries l
    where l.source_type = 'registration' and not exists (select 1 from registrations r where r.id = l.source_id)
      and (${accountId ?? null}::text is null or l.account_id = ${accountId ?? null})
    group by l.account_id, l.mode
    union all
    select account_id, mode, 'payout', sum(case when status in ('failed', 'cancelled', 'reversed') then 0 else -amount_paise end)::text
    from payouts where (${accountId ?? null}::text is null or account_id = ${accountId ?? null})
    group by account_id, mode`.execute(db);
  return r.rows;
}

// ownership-exception: the same audit, for memberships' last payments.
export function membershipPaymentsWithoutEntry(db: Transaction<Database>, accountId: string | undefined) {
  return db
    .selectFrom('memberships as m')
    .select(['m.account_id', 'm.mode', 'm.id', 'm.last_payment_id'])
    .where('m.last_payment_id', 'is not', null)
    .$if(accountId !== undefined, (q) => q.where('m.account_id', '=', accountId!))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('ledger_entries as l')
            .select('l.seq')
            .where('l.kind', '=', 'membership_payment')
            .where('l.source_type', '=', 'membership')
            .whereRef('l.source_id', '=', 'm.id')
            .whereRef('l.ref', '=', 'm.last_payment_id'),
        ),
      ),
    )
    .execute();
}

/** The latest capture among an account's entries in one mode (what clears last), or null. */
export async function latestCapture(
  db: Kysely<Database>,
  accountId: string,
  mode: Mode,
): Promise<Date | null> {
  const r = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.max('captured_at').as('at'))
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .executeTakeFirst();
  return r?.at ? new Date(r.at as unknown as string) : null;
}

/** Test mode's "Settle now": captures up to when count as cleared, and since when (null: never settled by hand). */
export async function testSettlement(
  db: Kysely<Database>,
  accountId: string,
): Promise<{ through: Date; at: Date } | null> {
  const r = await db
    .selectFrom('ledger_test_settlements')
    .select(['settled_through', 'settled_at'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return r ? { through: r.settled_through, at: r.settled_at } : null;
}

/** Settles test-mode captures up to `through` (never back: a later settlement only moves it on). */
export async function settleTestThrough(
  db: Kysely<Database>,
  accountId: string,
  through: Date,
  at: Date,
): Promise<void> {
  await db
    .insertInto('ledger_test_settlements')
    .values({ account_id: accountId, settled_through: through, settled_at: at })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({
        settled_through: sql`greatest(ledger_test_settlements.settled_through, excluded.settled_through)`,
        settled_at: sql`excluded.settled_at`,
      }),
    )
    .execute();
}
