// Claim before effect (docs/decisions/20-booking-lifecycle.md): a change that gives money back first claims
// the booking in a committed step of its own (`refunding`, with the amounts, the gateway's
// idempotency key and who asked), then asks the gateway with that key, then completes. Of
// any number of concurrent requests for one booking, across processes, only the one whose
// claim committed asks the gateway; the others answer 409 and move no money. A refused
// refund gives the claim back (the booking is as it was); one whose outcome is unknown
// (timeout, network, 5xx, the same key in flight) keeps its claim, and the sweep
// (`finishStaleClaims`) asks again with the same key, which makes it the same refund.
import type { RefundClaimDoc } from '../../../db/database.js';
import { badGateway, conflict, type AppError } from '../../../lib/errors.js';
import { formatMoney } from '../../../lib/money.js';
import type { AuditActor } from '../../audit/audit.service.js';
import { GatewayError } from '../../payments/gateway.js';
import * as orderChecks from '../../payments/order-checks.js';
import { gatewayFailure, refundAtGateway } from '../../payments/payments.service.js';
import type { RegisterDeps } from '../register-deps.js';
import type { RegistrationRow as Row } from '../registrations.repo.js';
import type { ClaimedStatus } from './booking-lifecycle.js';
import { changeBooking } from './change-booking.js';
import {
  endingRefundPaise,
  keptPaise,
  partRefundOutcome,
  refundablePaise,
  refundKey,
} from './refund-amounts.js';
import * as repo from './lifecycle.repo.js';

/** A claim older than this is the sweep's to finish: its request crashed or gave up. */
export const STALE_CLAIM_MS = 60_000;

export const changedMeanwhile = (): AppError =>
  conflict('registration_changed', 'this registration changed meanwhile; read it again');

/**
 * Ends a confirmed paid booking as `to`, giving back `refundPaise` of what is left (all of it
 * when not given): the claim, the refund at the gateway, the completion. Throws 409
 * `registration_changed` when another change claimed the booking first.
 */
export async function endWithRefund(
  deps: RegisterDeps,
  reg: Row,
  to: 'cancelled' | 'refunded',
  actor: AuditActor,
  refundPaise?: number,
): Promise<Row> {
  const left = refundablePaise(reg);
  return claimAndRefund(deps, reg, actor, { to, refundPaise: endingRefundPaise(left, refundPaise) });
}

/**
 * Gives back part of a confirmed paid booking, which stays confirmed (docs/decisions/28-a-persons-day.md):
 * claimed, refunded at the gateway, completed, like any refund. What is asked must be more
 * than 0 and less than what is left (all that is left is a refund in full, which ends the
 * booking): 409 `refund_exceeds_capture` beyond it, here or, when another refund took it
 * meanwhile, from the capture's CHECK in the claiming transaction.
 */
export async function refundPart(
  deps: RegisterDeps,
  reg: Row,
  actor: AuditActor,
  refundPaise: number,
  reason: string,
): Promise<Row> {
  const left = refundablePaise(reg);
  const to = partRefundOutcome(left, refundPaise);
  if (to === 'exceeds')
    throw conflict(
      'refund_exceeds_capture',
      `only ${formatMoney(left, reg.currency)} of this booking is left to refund`,
    );
  return claimAndRefund(deps, reg, actor, { to, refundPaise, reason });
}

async function claimAndRefund(
  deps: RegisterDeps,
  reg: Row,
  actor: AuditActor,
  ask: { to: ClaimedStatus; refundPaise: number; reason?: string },
): Promise<Row> {
  const before = reg.refunded_paise;
  const claim: RefundClaimDoc = {
    to: ask.to,
    refundPaise: ask.refundPaise,
    keptPaise: keptPaise(reg.amount_paise, before, ask.refundPaise),
    key: refundKey(reg.id, ask.to, ask.refundPaise, before),
    actor,
    ...(ask.reason ? { reason: ask.reason } : {}),
  };
  const claimed = await deps.db
    .transaction()
    .execute((trx) => changeBooking(trx, deps, reg, actor, { event: 'claim_refund', claim }));
  if (!claimed) throw changedMeanwhile();
  return finishClaim(deps, claimed);
}

/** Asks the gateway for a claimed refund (again, with the same key) and completes or releases the claim. */
export async function finishClaim(deps: RegisterDeps, reg: Row): Promise<Row> {
  const claim = reg.claim!;
  const actor = claim.actor as AuditActor;
  let refundId: string | null = null;
  if (claim.refundPaise > 0) {
    if (reg.order_id !== null) await orderChecks.reopenOrderCheck(deps, reg.order_id);
    try {
      const gateway = deps.gatewayFor(reg.mode, reg.account_id);
      refundId = (
        await refundAtGateway(gateway, {
          paymentId: reg.payment_id!,
          amountPaise: claim.refundPaise,
          notes: { registrationId: reg.id },
          idempotencyKey: claim.key,
        })
      ).id;
    } catch (err) {
      if (err instanceof GatewayError && err.kind === 'rejected' && err.status !== 409) {
        // Refused: nothing left the account. The booking is as it was before the claim.
        await deps.db.transaction().execute((trx) =>
          changeBooking(trx, deps, reg, actor, {
            event: 'release_claim',
            reason: err.message.slice(0, 200),
          }),
        );
        throw gatewayFailure(err, 'refund the payment');
      }
      if (err instanceof GatewayError) {
        throw badGateway(
          'the payment gateway did not confirm the refund; it is asked again with the same key, and the booking shows refunding until the refund completes',
        );
      }
      throw err;
    }
  }
  const done = await deps.db
    .transaction()
    .execute((trx) => changeBooking(trx, deps, reg, actor, { event: 'complete_refund', refundId }));
  deps.kickJobs();
  // Completed meanwhile by the sweep (the same refund, by its key): the booking as it is now.
  return done ?? (await repo.findBooking(deps.db, reg.id))!;
}

/** The sweep's part: finishes claims left `refunding` for longer than STALE_CLAIM_MS. Answers how many it completed. */
export async function finishStaleClaims(
  deps: RegisterDeps,
  limit = 100,
): Promise<{ completed: number; failed: number }> {
  const before = new Date(deps.clock.now().getTime() - STALE_CLAIM_MS);
  let completed = 0;
  let failed = 0;
  for (const reg of await repo.staleClaims(deps.db, before, limit)) {
    try {
      const done = await finishClaim(deps, reg);
      if (done.status !== 'refunding') completed++;
    } catch {
      failed++;
    }
  }
  return { completed, failed };
}
