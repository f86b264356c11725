// Payouts of an account's available balance to a UPI id. The rules, HTTP-free:
// - a request takes the account's payout lock, sums the ledger, and writes the payout
//   row, its hold entry and (live) its send job in one transaction, before any gateway
//   call: concurrent requests queue on the lock and never withdraw more than available;
// - the send job (payout-gateway.service.ts) talks to RazorpayX with our payout id as the
//   idempotency key, so a timeout or 5xx is retried with the same key and body; a 4xx
//   refusal fails the payout and credits it back;
// - states move forward only (processing → processed | failed | cancelled | reversed),
//   except that reversed may follow processed; failed, cancelled and reversed credit
//   the amount back once (the ledger's unique key makes a second credit impossible);
// - test mode uses the sandbox payout gateway: no network, states moved by sandbox routes.
import * as audit from '../audit/audit.service.js';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Mode, PayoutStatus } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import { assertOwned, type KeyPrincipal } from '../../http/auth.js';
import { badRequest, conflict, notFound, unavailable } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { rupeesToPaise } from '../../lib/money.js';
import * as accounts from '../accounts/accounts.service.js';
import * as ledger from '../ledger/ledger.service.js';
import { addWorkingDays } from '../ledger/working-days.js';
import * as repo from './payouts.repo.js';
import type { RazorpayXPayouts } from './razorpayx.js';
import { normaliseUpiId } from '../../lib/upi.js';
import { canMove, payoutStateChange, type StateUpdate } from './payout-state.js';

export type { PayoutRow } from './payouts.repo.js';
export { canMove, creditsBack, statusFor, type StateUpdate } from './payout-state.js';

/** Sends a payout to RazorpayX; retried with the same idempotency key and body. */
export const payoutJob = defineJob<{ payoutId: string }>('payout.send', { maxAttempts: 100 });
export const MIN_PAYOUT_PAISE = 100_00;
/** Working days a payout is expected to take. */
export const PAYOUT_EXPECTED_WORKING_DAYS = 2;

export interface PayoutDeps extends ledger.LedgerDeps {
  ids: Ids;
  logger: Logger;
  /** RazorpayX, when RAZORPAYX_ACCOUNT_NUMBER and the Razorpay key are set. */
  razorpayx: RazorpayXPayouts | undefined;
  kickJobs(): void;
}

// ---------------------------------------------------------------- requests

function notConfigured() {
  return unavailable(
    'payouts_not_configured',
    'live payouts are not configured on this service (RAZORPAYX_ACCOUNT_NUMBER with RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET)',
  );
}

export async function requestPayout(
  deps: PayoutDeps,
  accountId: string,
  mode: Mode,
  input: { amount: number; upiId: string },
  actor: audit.AuditActor,
): Promise<repo.PayoutRow> {
  const amountPaise = rupeesToPaise(input.amount, 'amount');
  if (amountPaise < MIN_PAYOUT_PAISE)
    throw badRequest('amount_below_minimum', `amount must be at least ${MIN_PAYOUT_PAISE / 100} rupees`);
  const upiId = normaliseUpiId(input.upiId);
  if (mode === 'live') {
    await accounts.requireVerifiedEmail(deps.db, accountId, 'request a payout');
    if (!deps.razorpayx) throw notConfigured();
  }
  const at = deps.clock.now();
  const now = await ledger.ledgerNow(deps, accountId, mode);
  const id = deps.ids.make('po', 16);
  const payout = await deps.db.transaction().execute(async (trx) => {
    // One payout at a time per account and mode; a long wait becomes 409 busy.
    await sql`set local lock_timeout = '5s'`.execute(trx);
    await sql`select pg_advisory_xact_lock(8008, hashtext(${`${accountId}:${mode}`}))`.execute(trx);
    const balance = await ledger.balance(deps, trx, accountId, mode, now);
    if (amountPaise > balance.availablePaise) {
      const available = balance.availablePaise / 100;
      throw conflict(
        'insufficient_balance',
        balance.availablePaise < 0
          ? `the available balance is below zero (${available} rupees): platform fees of bookings paid outside the gateway, or refunds after a payout; no payout until it is positive again`
          : `amount exceeds the available balance of ${available} rupees`,
        { available, ...(balance.availablePaise < 0 ? { reason: 'negative_balance' } : {}) },
      );
    }
    const row = await repo.insertPayout(trx, {
      id,
      accountId,
      mode,
      amountPaise,
      upiId,
      expectedBy: addWorkingDays(now, PAYOUT_EXPECTED_WORKING_DAYS),
      at,
    });
    await ledger.recordPayoutHold(trx, { accountId, mode, payoutId: id, amountPaise, at });
    await audit.recordChange(trx, deps, {
      accountId,
      mode,
      actor,
      action: 'payout.request',
      target: { type: 'payout', id },
      after: { amount: amountPaise / 100, upiId },
    });
    if (mode === 'live') {
      // Retried with back-off for days (1 s doubling to 1 h, then hourly): well over 72 hours.
      await enqueue(trx, deps, payoutJob, { payoutId: id });
      return row;
    }
    // The sandbox payout gateway: accepted at once, settled by the sandbox routes.
    const sandboxId = `spout_${id.slice(3)}`;
    await repo.updatePayout(trx, id, {
      gateway_payout_id: sandboxId,
      gateway_status: 'processing',
      updated_at: at,
    });
    return { ...row, gateway_payout_id: sandboxId, gateway_status: 'processing' };
  });
  if (mode === 'live') deps.kickJobs();
  return payout;
}

export async function listPayouts(
  deps: PayoutDeps,
  accountId: string,
  mode: Mode,
  limit: number,
  startingAfter: string | undefined,
) {
  const rows = await repo.page(deps.db, accountId, mode, limit, ledger.parseCursor(startingAfter));
  const hasMore = rows.length > limit;
  const items = rows.slice(0, limit);
  return { items, hasMore, nextCursor: hasMore ? String(items[items.length - 1]!.seq) : null };
}

export async function getPayout(
  deps: PayoutDeps,
  accountId: string,
  mode: Mode,
  payoutId: string,
): Promise<repo.PayoutRow> {
  const p = await repo.findPayout(deps.db, payoutId);
  if (!p || p.mode !== mode || p.account_id !== accountId)
    throw notFound('no such payout', 'payout_not_found');
  return p;
}

// ---------------------------------------------------------------- state changes

/**
 * Applies what the gateway (or the sandbox) says about a payout, once: the change is
 * payoutStateChange's (payout-state.ts), decided on the row locked, and a credit back is
 * written with the move that causes it.
 */
export async function applyPayoutState(
  deps: PayoutDeps,
  payoutId: string,
  update: StateUpdate,
): Promise<'applied' | 'ignored'> {
  return (await applyLocked(deps, payoutId, update, false)).result;
}

/**
 * applyPayoutState's transaction, answering the row as it wrote it. `mustMove`: a status the
 * locked row cannot move to is refused (409 `invalid_payout_transition`) rather than
 * ignored, and nothing is written.
 */
async function applyLocked(
  deps: PayoutDeps,
  payoutId: string,
  update: StateUpdate,
  mustMove: boolean,
): Promise<{ result: 'applied' | 'ignored'; row: repo.PayoutRow | undefined }> {
  const at = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const p = await repo.lockPayout(trx, payoutId);
    if (!p) return { result: 'ignored', row: undefined };
    if (mustMove && !canMove(p.status, update.status))
      throw conflict('invalid_payout_transition', `a ${p.status} payout cannot become ${update.status}`);
    const change = payoutStateChange(p, update);
    if (change.creditBack) {
      await ledger.recordPayoutCredit(trx, {
        accountId: p.account_id,
        mode: p.mode,
        payoutId: p.id,
        amountPaise: Number(p.amount_paise),
        at,
      });
    }
    // An unchanged row is still touched when asked (the sweep), so it is not re-read at once.
    const row = await repo.updatePayout(trx, p.id, { ...change.set, updated_at: at });
    return { result: change.changed ? 'applied' : 'ignored', row };
  });
}

// ---------------------------------------------------------------- sandbox

export type SandboxOutcome = 'process' | 'fail' | 'reverse' | 'cancel';

/** Moves a test-mode payout as the sandbox gateway would; refused when the state does not allow it. */
export async function settleSandboxPayout(
  deps: PayoutDeps,
  p: KeyPrincipal,
  payoutId: string,
  outcome: SandboxOutcome,
): Promise<repo.PayoutRow> {
  const payout = await repo.findPayout(deps.db, payoutId);
  assertOwned(p, payout ? { accountId: payout.account_id, mode: payout.mode } : undefined, 'payout');
  const status: PayoutStatus =
    outcome === 'process'
      ? 'processed'
      : outcome === 'fail'
        ? 'failed'
        : outcome === 'reverse'
          ? 'reversed'
          : 'cancelled';
  // Decided on the locked row: of two settles at once, the one the state no longer allows is
  // refused, and the answer is the row this move wrote.
  const utr =
    status === 'processed'
      ? `SANDBOX${deps.ids
          .secret(6)
          .replace(/[^A-Za-z0-9]/g, '0')
          .toUpperCase()}`
      : null;
  const failureReason =
    status === 'failed'
      ? 'sandbox: failed on request'
      : status === 'reversed'
        ? 'sandbox: returned by the bank'
        : null;
  return (await applyLocked(deps, payoutId, { status, gatewayStatus: status, utr, failureReason }, true))
    .row!;
}
