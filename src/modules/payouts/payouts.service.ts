// Payouts of an account's available balance to a UPI id. The rules, HTTP-free:
// - a request takes the account's payout lock, sums the ledger, and writes the payout
//   row, its hold entry and (live) its send job in one transaction, before any gateway
//   call: concurrent requests queue on the lock and never withdraw more than available;
// - the send job talks to RazorpayX with our payout id as the idempotency key, so a
//   timeout or 5xx is retried with the same key and body; a 4xx refusal fails the
//   payout and credits it back;
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
import { every, type Loop } from '../../lib/every.js';
import type { Ids } from '../../lib/ids.js';
import { rupeesToPaise } from '../../lib/money.js';
import * as accounts from '../accounts/accounts.service.js';
import { GatewayError } from '../payments/gateway.js';
import * as ledger from '../ledger/ledger.service.js';
import { addWorkingDays } from '../ledger/working-days.js';
import * as repo from './payouts.repo.js';
import { toGatewayPayout, type GatewayPayout, type RazorpayXPayouts } from './razorpayx.js';
import { normaliseUpiId } from './upi.js';
import { canMove, payoutStateChange, statusFor, type StateUpdate } from './payout-state.js';

export type { PayoutRow } from './payouts.repo.js';
export { canMove, creditsBack, statusFor, type StateUpdate } from './payout-state.js';

/** Sends a payout to RazorpayX; retried with the same idempotency key and body. */
export const payoutJob = defineJob<{ payoutId: string }>('payout.send', { maxAttempts: 100 });
export const MIN_PAYOUT_PAISE = 100_00;
/** Working days a payout is expected to take. */
export const PAYOUT_EXPECTED_WORKING_DAYS = 2;
/** A live payout untouched this long while processing is read back from the gateway by the sweep. */
export const STUCK_AFTER_MS = 10 * 60_000;

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
          ? `the available balance is below zero (${available} rupees) after refunds; no payout until it is positive again`
          : `amount exceeds the available balance of ${available} rupees`,
        { available },
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

function fromGateway(g: GatewayPayout): StateUpdate {
  return {
    status: statusFor(g.status),
    gatewayPayoutId: g.id,
    gatewayStatus: g.status,
    utr: g.utr,
    failureReason: g.failureReason,
  };
}

/** The durable send: contact, fund account (both reused), then the payout under our id as idempotency key. */
export async function sendPayoutJob(deps: PayoutDeps, payload: { payoutId: string }): Promise<void> {
  const p = await repo.findPayout(deps.db, payload.payoutId);
  if (!p || p.mode !== 'live' || p.status !== 'processing' || p.gateway_payout_id !== null) return;
  const x = deps.razorpayx;
  if (!x) throw new Error('live payouts are not configured (RAZORPAYX_ACCOUNT_NUMBER); the payout waits');
  let sent: GatewayPayout;
  try {
    const at = deps.clock.now();
    let contactId = await repo.contactOf(deps.db, p.account_id);
    if (!contactId) {
      const user = await accounts.getUser(deps.db, p.account_id);
      contactId = await repo.saveContact(
        deps.db,
        p.account_id,
        await x.createContact({ name: user.name, email: user.email, referenceId: p.account_id }),
        at,
      );
    }
    let fundAccountId = await repo.fundAccountOf(deps.db, p.account_id, p.upi_id);
    if (!fundAccountId)
      fundAccountId = await repo.saveFundAccount(
        deps.db,
        p.account_id,
        p.upi_id,
        await x.createVpaFundAccount(contactId, p.upi_id),
        at,
      );
    sent = await x.createPayout({
      payoutId: p.id,
      fundAccountId,
      amountPaise: Number(p.amount_paise),
      accountId: p.account_id,
    });
  } catch (err) {
    // A refusal on the merits (bad UPI id, invalid request) fails the payout and credits it
    // back; our credentials, throttling, timeouts and 5xx are retried with the same key.
    if (
      err instanceof GatewayError &&
      err.kind === 'rejected' &&
      err.status !== undefined &&
      ![401, 409, 429].includes(err.status)
    ) {
      deps.logger.warn(
        { payoutId: p.id, status: err.status, err: err.message },
        'payout refused by RazorpayX',
      );
      await applyPayoutState(deps, p.id, {
        status: 'failed',
        gatewayStatus: 'refused',
        failureReason: err.message,
      });
      return;
    }
    throw err;
  }
  await applyPayoutState(deps, p.id, fromGateway(sent));
}

/** A RazorpayX payout notification (payout.processed, .reversed, .failed, .updated, …), verified by the caller. */
export async function applyPayoutNotification(
  deps: PayoutDeps,
  event: { event: string; payload?: unknown },
): Promise<'applied' | 'ignored'> {
  const entity = (event.payload as { payout?: { entity?: unknown } } | undefined)?.payout?.entity;
  if (!entity || typeof entity !== 'object' || typeof (entity as { id?: unknown }).id !== 'string')
    return 'ignored';
  const g = toGatewayPayout(entity as Record<string, unknown>);
  let p = await repo.findByGatewayId(deps.db, g.id);
  // The send may not have recorded the gateway's id yet (a crash after the call): match our reference.
  if (!p && g.referenceId) {
    const byRef = await repo.findPayout(deps.db, g.referenceId);
    if (byRef?.gateway_payout_id === null) p = byRef;
  }
  if (!p || p.mode !== 'live') return 'ignored';
  const name = event.event.startsWith('payout.') ? event.event.slice('payout.'.length) : '';
  const status = ['processed', 'reversed', 'failed', 'rejected', 'cancelled'].includes(name)
    ? statusFor(name)
    : statusFor(g.status);
  return applyPayoutState(deps, p.id, { ...fromGateway(g), status });
}

/** Reads live payouts stuck in processing back from RazorpayX and applies what it says. */
export async function sweepStuckPayouts(
  deps: PayoutDeps,
  limit = 100,
): Promise<{ checked: number; changed: number }> {
  const x = deps.razorpayx;
  if (!x) return { checked: 0, changed: 0 };
  const stuck = await repo.stuckPayouts(
    deps.db,
    new Date(deps.clock.now().getTime() - STUCK_AFTER_MS),
    limit,
  );
  let changed = 0;
  for (const p of stuck) {
    try {
      const g = await x.fetchPayout(p.gateway_payout_id!);
      if (!g) {
        deps.logger.warn(
          { payoutId: p.id, gatewayPayoutId: p.gateway_payout_id },
          'payout unknown to RazorpayX',
        );
        continue;
      }
      if ((await applyPayoutState(deps, p.id, fromGateway(g))) === 'applied') changed++;
    } catch (err) {
      deps.logger.warn(
        { payoutId: p.id, err: (err as Error).message },
        'payout sweep could not read a payout',
      );
    }
  }
  return { checked: stuck.length, changed };
}

/** Runs the sweep every `everyMs` on a worker instance (the first after one period); stopped on shutdown. */
export class PayoutSweeper {
  #loop: Loop | undefined;
  constructor(private readonly deps: PayoutDeps) {}
  start(everyMs = 5 * 60_000): void {
    if (this.#loop) return;
    this.#loop = every(everyMs, () => sweepStuckPayouts(this.deps), {
      firstAfterMs: everyMs,
      onError: (err) => this.deps.logger.error({ err }, 'payout sweep failed'),
    });
  }
  async stop(): Promise<void> {
    const loop = this.#loop;
    this.#loop = undefined;
    await loop?.stop();
  }
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
