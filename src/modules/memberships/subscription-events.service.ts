// The gateway's (or the sandbox's) subscription events applied to the membership of
// that subscription; the rules are in subscription-state.ts. Each event is decided and
// applied with the membership row locked, so deliveries at once (two processes, two
// charges, a cancel in between) each start from what the one before them did: a period's
// end never moves back, and a charge is kept with its period or refunded, never both.
import type { Mode } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';
import * as ledger from '../ledger/ledger.service.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import { nowFor } from '../accounts/account-clock.js';
import { isChargeRefunded, refundCharge } from './charge-refunds.js';
import { queueConfirmationMail } from './membership-mail.jobs.js';
import { applyMembershipPayment } from './membership-payment.js';
import * as repo from './memberships.repo.js';
import { planOf, type MembershipDeps, type MembershipRow, type PlanRow } from './memberships.service.js';
import {
  endingClaimHeld,
  nextSubscriptionState,
  type SubscriptionChange,
  type SubscriptionEvent,
} from './subscription-state.js';

/** `refunding`: a charge came for a membership that ended (or is ending now) first: its money goes back. */
export type SubscriptionEventResult = 'applied' | 'ignored' | 'refunding';

/** A charge's payment as the gateway reports it. */
export interface ChargePayment {
  id: string;
  amount: number;
  captured: boolean;
}

/** Idempotent and order-tolerant: 'ignored' when the event changes nothing. */
export async function applySubscriptionEvent(
  deps: MembershipDeps,
  mode: Mode,
  subscriptionId: string,
  event: SubscriptionEvent,
  currentEnd?: Date | null,
  /** The charge's payment, when the gateway sent one (subscription.charged). */
  payment?: ChargePayment,
): Promise<SubscriptionEventResult> {
  const found = await repo.findBySubscription(deps.db, mode, subscriptionId);
  if (!found) return 'ignored';
  const plan = await planOf(deps.db, found);
  const now = await nowFor(deps, found.account_id, found.mode);
  const charge = event === 'charged' && payment?.captured ? payment : undefined;
  return deps.db.transaction().execute(async (trx) => {
    const m = await repo.lockMembership(trx, found.id);
    if (!m || m.subscription_id !== subscriptionId) return 'ignored';
    if (charge) {
      const held = await chargeWithoutPeriod(trx, deps, m, charge);
      if (held) return held;
    }
    const change = nextSubscriptionState({ status: m.status, validUntil: m.valid_until }, event, {
      now,
      period: plan.period,
      currentEnd,
    });
    if (!change) return 'ignored';
    return applyChange(trx, deps, { m, plan, subscriptionId, now, change, event, charge });
  });
}

/**
 * A charge that gets no period: one reported before (kept, or its refund decided), or one
 * for a membership ended, or held by a cancel that ends it now, before the charge was
 * applied — refunded. undefined: the charge pays for a period.
 */
async function chargeWithoutPeriod(
  trx: Db,
  deps: MembershipDeps,
  m: MembershipRow,
  charge: ChargePayment,
): Promise<SubscriptionEventResult | undefined> {
  if (await ledger.hasMembershipPayment(trx, m.id, charge.id)) return 'ignored';
  if (await isChargeRefunded(trx, m.mode, charge.id)) return 'ignored';
  if (m.status !== 'ended' && !endingClaimHeld(m.ending_claimed_at, deps.clock.now())) return undefined;
  await refundCharge(trx, deps, m, charge);
  return 'refunding';
}

/** What applyChange is given: the locked membership, its plan, the event and the change it makes. */
interface ChangeInput {
  m: MembershipRow;
  plan: PlanRow;
  subscriptionId: string;
  now: Date;
  change: SubscriptionChange;
  event: SubscriptionEvent;
  charge: ChargePayment | undefined;
}

async function applyChange(trx: Db, deps: MembershipDeps, c: ChangeInput): Promise<SubscriptionEventResult> {
  const { m, plan, now, change } = c;
  const at = deps.clock.now();
  switch (change.status) {
    case 'authorised':
      return authorise(trx, deps, c, at);
    case 'active': {
      // A charge's money enters the ledger with the period it pays for. The sandbox's
      // charges carry no gateway payment, so the sandbox names one.
      const paid =
        c.event !== 'charged'
          ? undefined
          : (c.charge ??
            (m.mode === 'test'
              ? { id: deps.ids.make('spay', 12), amount: Number(plan.amount_paise) }
              : undefined));
      await repo.updateMembership(trx, m.id, {
        status: 'active',
        valid_until: change.validUntil,
        updated_at: at,
      });
      // Activated before its authentication arrived: the membership starts here, once.
      if (m.status === 'created') await queueConfirmationMail(trx, deps, m.id, now);
      if (paid)
        await applyMembershipPayment(trx, deps, m, {
          id: paid.id,
          amountPaise: paid.amount,
          paidAt: now,
          validUntil: change.validUntil,
        });
      return 'applied';
    }
    case 'halted':
      await repo.updateMembership(trx, m.id, { status: 'halted', updated_at: at });
      return 'applied';
    case 'ended':
      await repo.updateMembership(trx, m.id, {
        status: 'ended',
        ended_at: change.endedAt,
        ending_claimed_at: null,
        updated_at: at,
      });
      return 'applied';
  }
}

/** Authorised once, and the organiser told in the same transaction. */
async function authorise(
  trx: Db,
  deps: MembershipDeps,
  c: ChangeInput,
  at: Date,
): Promise<SubscriptionEventResult> {
  const { m, plan, now } = c;
  if (!(await repo.markAuthorised(trx, m.id, at))) return 'ignored';
  await queueConfirmationMail(trx, deps, m.id, now);
  await webhooks.emit(trx, deps, {
    accountId: m.account_id,
    mode: m.mode,
    type: 'subscription.authenticated',
    data: {
      membershipId: m.id,
      planId: m.plan_id,
      planName: plan.name,
      subscriptionId: c.subscriptionId,
      name: m.name,
      email: m.email,
      authorisedAt: now.toISOString(),
    },
  });
  return 'applied';
}
