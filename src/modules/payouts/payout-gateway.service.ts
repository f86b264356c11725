// Payouts at RazorpayX: the durable send, the gateway's notifications and the sweep that reads
// back payouts stuck in processing. Each applies what the gateway says through applyPayoutState
// (payouts.service.ts), the one writer of a payout's state.
import { every, type Loop } from '../../lib/every.js';
import * as accounts from '../accounts/accounts.service.js';
import { GatewayError } from '../payments/gateway.js';
import * as repo from './payouts.repo.js';
import { applyPayoutState, type PayoutDeps } from './payouts.service.js';
import { statusFor, type StateUpdate } from './payout-state.js';
import { toGatewayPayout, type GatewayPayout } from './razorpayx.js';

/** A live payout untouched this long while processing is read back from the gateway by the sweep. */
export const STUCK_AFTER_MS = 10 * 60_000;

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
