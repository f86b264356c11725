// The ledger's recomputation check: every account's money recomputed from the rows the
// ledger follows and compared with its entries, in one snapshot.
import type { Kysely, Transaction } from 'kysely';
import type { Database, LedgerSource, Mode } from '../../db/database.js';
import * as repo from './ledger.repo.js';

export interface CheckResult {
  ok: boolean;
  accountsChecked: number;
  mismatches: {
    accountId: string;
    mode: Mode;
    source: LedgerSource;
    expectedPaise: number;
    ledgerPaise: number;
    detail?: string;
  }[];
}

/**
 * Recomputes every account's money from the rows the ledger follows (registrations,
 * memberships, payouts) and compares it with the ledger, per account, mode and source.
 * Registrations and payouts are recomputed in full; a membership keeps only its last
 * payment, so the check asks that each such payment has its ledger entry.
 */
export async function checkLedger(db: Kysely<Database>, accountId?: string): Promise<CheckResult> {
  // One snapshot for both sides, so a confirmation committing in between is not a difference.
  const r = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => compare(trx, accountId));
  return r;
}

async function compare(db: Transaction<Database>, accountId: string | undefined): Promise<CheckResult> {
  const expected = await repo.recomputedTotals(db, accountId);
  const ledger = await repo.totalsBySource(db, accountId);
  const key = (a: string, m: string, s: string) => `${a}\0${m}\0${s}`;
  const seen = new Map<
    string,
    { accountId: string; mode: Mode; source: LedgerSource; expected: number; ledger: number }
  >();
  for (const r of expected) {
    // A source may come in several parts (registrations standing, and those of deleted events).
    const k = key(r.account_id, r.mode, r.source_type);
    const e = seen.get(k);
    if (e) e.expected += Number(r.total);
    else
      seen.set(k, {
        accountId: r.account_id,
        mode: r.mode,
        source: r.source_type,
        expected: Number(r.total),
        ledger: 0,
      });
  }
  for (const r of ledger) {
    if (r.source_type === 'membership') continue;
    const k = key(r.account_id, r.mode, r.source_type);
    const e = seen.get(k) ?? {
      accountId: r.account_id,
      mode: r.mode,
      source: r.source_type,
      expected: 0,
      ledger: 0,
    };
    e.ledger = Number(r.total);
    seen.set(k, e);
  }
  const mismatches: CheckResult['mismatches'] = [];
  for (const e of seen.values()) {
    if (e.expected !== e.ledger)
      mismatches.push({
        accountId: e.accountId,
        mode: e.mode,
        source: e.source,
        expectedPaise: e.expected,
        ledgerPaise: e.ledger,
      });
  }
  const missing = await repo.membershipPaymentsWithoutEntry(db, accountId);
  for (const m of missing) {
    mismatches.push({
      accountId: m.account_id,
      mode: m.mode,
      source: 'membership',
      expectedPaise: 0,
      ledgerPaise: 0,
      detail: `membership ${m.id} has no ledger entry for payment ${m.last_payment_id}`,
    });
  }
  const accounts = new Set([...seen.values()].map((e) => e.accountId));
  return { ok: mismatches.length === 0, accountsChecked: accounts.size, mismatches };
}
