// The ledger: append-only money entries per account and mode, in paise. Balances are
// sums of entries, never a stored number. Every writer runs inside the transaction of
// the change that causes it (a confirmation, a refund, a membership payment, a payout),
// and every write is idempotent, so the ledger cannot disagree with the rows it follows.
import type { Kysely, Transaction } from 'kysely';
import type { Database, LedgerKind, LedgerSource, Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { nowFor } from '../accounts/account-clock.js';
import { gatewayFeePaise } from '../payments/fees.js';
import { membershipLines, refundOfSale, saleLines } from './entries.js';
import * as repo from './ledger.repo.js';
import { addWorkingDays, clearedUpTo } from './working-days.js';

type Db = Kysely<Database> | Transaction<Database>;

// ---------------------------------------------------------------- writers

/** A paid booking was confirmed: gross, platform fee, gateway charge. Test mode passes fees of 0. */
export async function recordTicketSale(
  trx: Db,
  input: {
    accountId: string;
    mode: Mode;
    registrationId: string;
    grossPaise: number;
    platformFeePaise: number;
    gatewayFeePaise: number;
    capturedAt: Date;
  },
): Promise<void> {
  const lines = saleLines(input.grossPaise, input.platformFeePaise, input.gatewayFeePaise);
  await repo.insertEntries(
    trx,
    lines.map((l) => ({
      ...l,
      accountId: input.accountId,
      mode: input.mode,
      sourceType: 'registration',
      sourceId: input.registrationId,
      capturedAt: input.capturedAt,
      createdAt: input.capturedAt,
    })),
  );
}

/**
 * A confirmed paid booking was refunded in full (cancel or refund). Writes the refund
 * and the platform-fee reversal against the sale's own entries; a booking the ledger
 * holds no sale for (never confirmed, e.g. a lost race for the last seat) writes nothing.
 */
export async function recordTicketRefund(
  trx: Db,
  input: { registrationId: string; at: Date },
): Promise<void> {
  const entries = await repo.entriesOf(trx, 'registration', input.registrationId);
  const sale = entries.find((e) => e.kind === 'ticket_sale');
  if (!sale) return;
  const lines = refundOfSale(entries.map((e) => ({ kind: e.kind, amountPaise: Number(e.amount_paise) })));
  await repo.insertEntries(
    trx,
    // The refund takes its sale's capture time: money refunded before it cleared comes out of pending.
    lines.map((l) => ({
      ...l,
      accountId: sale.account_id,
      mode: sale.mode,
      sourceType: 'registration',
      sourceId: input.registrationId,
      capturedAt: sale.captured_at,
      createdAt: input.at,
    })),
  );
}

/**
 * A part of a sale refunded (a cancellation whose policy keeps a fee, or the organiser giving
 * part back): the refunded part back to the buyer. The platform fee stays charged: the
 * booking was sold and the organiser keeps the rest of its price. `ref` tells one partial
 * refund of a booking from another (a repeat with the same ref writes nothing).
 */
export async function recordTicketPartialRefund(
  trx: Db,
  input: { registrationId: string; refundPaise: number; at: Date; ref?: string },
): Promise<void> {
  if (!Number.isSafeInteger(input.refundPaise) || input.refundPaise <= 0)
    throw new RangeError('refundPaise must be a positive whole number of paise');
  const sale = (await repo.entriesOf(trx, 'registration', input.registrationId)).find(
    (e) => e.kind === 'ticket_sale',
  );
  if (!sale) return;
  await repo.insertEntries(trx, [
    {
      kind: 'ticket_refund',
      amountPaise: -input.refundPaise,
      accountId: sale.account_id,
      mode: sale.mode,
      sourceType: 'registration',
      sourceId: input.registrationId,
      ref: input.ref ?? '',
      capturedAt: sale.captured_at,
      createdAt: input.at,
    },
  ]);
}

/**
 * A membership payment was applied (a fixed term, or one subscription charge). No
 * platform fee (the platform fee is charged per ticket); in live mode the gateway's 3 % charge.
 */
export async function recordMembershipPayment(
  trx: Db,
  input: {
    accountId: string;
    mode: Mode;
    membershipId: string;
    paymentId: string;
    grossPaise: number;
    capturedAt: Date;
  },
): Promise<boolean> {
  const lines = membershipLines(
    input.grossPaise,
    input.mode === 'live' ? gatewayFeePaise(input.grossPaise) : 0,
  );
  // True the first time this payment is recorded (a repeated notification records nothing).
  const inserted = await repo.insertEntries(
    trx,
    lines.map((l) => ({
      ...l,
      accountId: input.accountId,
      mode: input.mode,
      sourceType: 'membership',
      sourceId: input.membershipId,
      ref: input.paymentId,
      capturedAt: input.capturedAt,
      createdAt: input.capturedAt,
    })),
  );
  return inserted > 0;
}

/** Whether this payment entered the ledger as a payment of this membership (a term or a charge it keeps). */
export function hasMembershipPayment(db: Db, membershipId: string, paymentId: string): Promise<boolean> {
  return repo.hasEntry(db, 'membership_payment', 'membership', membershipId, paymentId);
}

/** The amount of a new payout, held in the transaction that creates the payout row. */
export async function recordPayoutHold(
  trx: Db,
  input: { accountId: string; mode: Mode; payoutId: string; amountPaise: number; at: Date },
): Promise<void> {
  await repo.insertEntries(trx, [
    {
      kind: 'payout_hold',
      amountPaise: -input.amountPaise,
      accountId: input.accountId,
      mode: input.mode,
      sourceType: 'payout',
      sourceId: input.payoutId,
      capturedAt: null,
      createdAt: input.at,
    },
  ]);
}

/** A payout failed, was cancelled or reversed: its amount comes back, at most once per payout. */
export async function recordPayoutCredit(
  trx: Db,
  input: { accountId: string; mode: Mode; payoutId: string; amountPaise: number; at: Date },
): Promise<boolean> {
  const n = await repo.insertEntries(trx, [
    {
      kind: 'payout_credit',
      amountPaise: input.amountPaise,
      accountId: input.accountId,
      mode: input.mode,
      sourceType: 'payout',
      sourceId: input.payoutId,
      capturedAt: null,
      createdAt: input.at,
    },
  ]);
  return n === 1;
}

// ---------------------------------------------------------------- readers

export interface LedgerDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Working days before a capture's net proceeds are available (PAYOUT_CLEARING_DAYS). */
  clearingDays: number;
}

/** Now for this account and mode: test mode follows the account's sandbox clock. */
export function ledgerNow(deps: LedgerDeps, accountId: string, mode: Mode): Promise<Date> {
  return nowFor(deps, accountId, mode);
}

export interface Balance {
  availablePaise: number;
  pendingPaise: number;
}

/**
 * When an entry's capture counts as cleared at `at`: after the clearing days, or, in test
 * mode, up to the moment "Settle now (test)" settled (the clock is never moved for it).
 */
async function clearedCutoff(
  deps: LedgerDeps,
  db: Db,
  accountId: string,
  mode: Mode,
  at: Date,
): Promise<Date> {
  const cleared = clearedUpTo(at, deps.clearingDays);
  if (mode !== 'test') return cleared;
  const settled = await repo.testSettlement(db as Kysely<Database>, accountId);
  return settled && settled.through > cleared ? settled.through : cleared;
}

/** Balance from the entries; pass a transaction holding the account's payout lock to act on it. */
export async function balance(
  deps: LedgerDeps,
  db: Db,
  accountId: string,
  mode: Mode,
  now?: Date,
): Promise<Balance> {
  const at = now ?? (await ledgerNow(deps, accountId, mode));
  const s = await repo.sums(db, accountId, mode, await clearedCutoff(deps, db, accountId, mode, at));
  return { availablePaise: s.available, pendingPaise: s.pending };
}

/**
 * Test mode's "settle now" (docs/decisions/17-the-organisers-office.md, docs/decisions/28-a-persons-day.md): pending test sales become available so a withdrawal can
 * be tried. Entries are immutable and clearing is a matter of time, so this records that every
 * capture up to the latest counts as cleared, without moving the account's clock (which dates
 * its test mails and orders). Only test mode settles by hand; 409 `settle_nothing_pending` when
 * nothing is pending.
 */
export async function settleTestSalesNow(
  deps: LedgerDeps,
  accountId: string,
): Promise<{ settledPaise: number; balance: Balance }> {
  const before = await balance(deps, deps.db, accountId, 'test');
  const latest = await repo.latestCapture(deps.db, accountId, 'test');
  if (latest === null || before.pendingPaise === 0)
    throw conflict('settle_nothing_pending', 'no test-mode sale is pending: everything is available already');
  await repo.settleTestThrough(deps.db, accountId, latest, deps.clock.now());
  const after = await balance(deps, deps.db, accountId, 'test');
  return { settledPaise: after.availablePaise - before.availablePaise, balance: after };
}

export interface EntryView {
  id: string;
  kind: LedgerKind;
  amountPaise: number;
  sourceType: LedgerSource;
  sourceId: string;
  ref: string | null;
  capturedAt: Date | null;
  availableFrom: Date | null;
  createdAt: Date;
  cursor: string;
}

export { PAGE_DEFAULT, PAGE_MAX } from '../../http/paging.js';

export function parseCursor(value: string | undefined, field = 'startingAfter'): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,17}$/.test(value))
    throw badRequest('invalid_cursor', `${field} must be a cursor from an earlier page's nextCursor`);
  return value;
}

/** Test mode's settlement by hand, which makes captures up to it available when it was made. */
type Settlement = { through: Date; at: Date } | null;

function availableFrom(deps: LedgerDeps, r: repo.LedgerRow, settled: Settlement): Date {
  if (!r.captured_at) return r.created_at;
  const cleared = addWorkingDays(r.captured_at, deps.clearingDays);
  return r.mode === 'test' && settled && r.captured_at <= settled.through && settled.at < cleared
    ? settled.at
    : cleared;
}

function entryView(deps: LedgerDeps, r: repo.LedgerRow, settled: Settlement = null): EntryView {
  return {
    id: r.id,
    kind: r.kind,
    amountPaise: Number(r.amount_paise),
    sourceType: r.source_type,
    sourceId: r.source_id,
    ref: r.ref === '' ? null : r.ref,
    capturedAt: r.captured_at,
    availableFrom: availableFrom(deps, r, settled),
    createdAt: r.created_at,
    cursor: String(r.seq),
  };
}

export async function listEntries(
  deps: LedgerDeps,
  accountId: string,
  mode: Mode,
  limit: number,
  startingAfter: string | undefined,
): Promise<{ items: EntryView[]; hasMore: boolean; nextCursor: string | null }> {
  const rows = await repo.page(deps.db, accountId, mode, limit, parseCursor(startingAfter));
  const hasMore = rows.length > limit;
  const settled = mode === 'test' ? await repo.testSettlement(deps.db, accountId) : null;
  const items = rows.slice(0, limit).map((r) => entryView(deps, r, settled));
  return { items, hasMore, nextCursor: hasMore ? items[items.length - 1]!.cursor : null };
}

/**
 * An account's entries in a mode for an export, oldest first, created in [from, to) when
 * given: `batchSize` at a time, each batch read when the reader asks for it.
 */
export async function* exportEntries(
  deps: LedgerDeps,
  accountId: string,
  mode: Mode,
  range: { from?: Date | undefined; to?: Date | undefined },
  batchSize: number,
) {
  let after: string | undefined;
  const settled = mode === 'test' ? await repo.testSettlement(deps.db, accountId) : null;
  for (;;) {
    const rows = await repo.exportPage(deps.db, accountId, mode, range, after, batchSize);
    if (rows.length === 0) return;
    yield rows.map((r) => entryView(deps, r, settled));
    if (rows.length < batchSize) return;
    after = String(rows[rows.length - 1]!.seq);
  }
}
