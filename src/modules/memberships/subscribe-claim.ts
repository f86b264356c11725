// A subscribe's claim on its membership row (subscribe.service.ts): taken with the
// subscribe's receipt before the gateway is asked for anything, then the order or mandate the
// gateway made is filed under it, or the claim is dropped when the gateway fails.
import type { KeyPrincipal } from '../../http/auth.js';
import { untilCancelledCount } from '../payments/gateway.js';
import { gatewayFailure } from '../payments/payments.service.js';
import * as orderChecks from '../payments/order-checks.js';
import {
  PLAN_CURRENCY,
  type MembershipDeps,
  type MembershipRow,
  type PlanRow,
} from './memberships.service.js';
import * as repo from './subscribe-claim.repo.js';

/** A claim older than this is taken over (its subscribe died between the gateway and us). */
const CLAIM_STALE_MS = 5 * 60_000;

/** Who subscribes, as subscribe read them, and when it read the membership. */
export interface Subscriber {
  name: string;
  phone: string | null;
  email: string;
  now: Date;
}

/** What the gateway made under a claim, filed (subscribe adds the key and whether the row was there before). */
export type Claimed =
  | { kind: 'recurring'; existing: false; membership: MembershipRow }
  | {
      kind: 'fixed_term';
      existing: false;
      membership: MembershipRow;
      order: { id: string; amount: number; currency: string };
    };

/**
 * Claims the membership read as `existing` (unchanged since, and not claimed or claimed long
 * ago), or inserts it claimed when there was none: undefined when another subscribe holds it.
 */
export function claimMembership(
  deps: MembershipDeps,
  p: KeyPrincipal,
  plan: PlanRow,
  existing: MembershipRow | undefined,
  receipt: string,
  at: Date,
  who: Subscriber,
): Promise<MembershipRow | undefined> {
  return existing
    ? repo.claimExisting(deps.db, existing, receipt, at, new Date(at.getTime() - CLAIM_STALE_MS))
    : repo.insertClaimed(deps.db, {
        id: deps.ids.make('mem', 12),
        account_id: p.userId,
        mode: p.mode,
        plan_id: plan.id,
        email: who.email,
        name: who.name,
        phone: who.phone,
        status: plan.kind === 'recurring' ? 'created' : 'pending_payment',
        source: 'api',
        subscription_id: null,
        authorisation_url: null,
        pending_order_id: null,
        pending_amount_paise: null,
        last_payment_id: null,
        valid_until: null,
        ended_at: null,
        created_at: who.now,
        updated_at: who.now,
        pending_receipt: receipt,
        pending_claimed_at: at,
      });
}

/** Asks the gateway for the order or mandate under a claim, then files it; undefined when the claim was lost. */
export async function withClaim(
  deps: MembershipDeps,
  p: KeyPrincipal,
  plan: PlanRow,
  m: MembershipRow,
  inserted: boolean,
  receipt: string,
  who: Subscriber,
): Promise<Claimed | undefined> {
  const at = deps.clock.now();
  if (plan.kind === 'recurring') {
    let sub;
    try {
      sub = await deps.subscriptionsFor(p.mode, p.userId).createSubscription({
        planId: plan.gateway_plan_id!,
        totalCount: plan.total_count > 0 ? plan.total_count : untilCancelledCount(plan.period!),
        notes: { planId: plan.id, email: who.email },
      });
    } catch (err) {
      await repo.dropClaim(deps.db, m.id, receipt, inserted);
      throw gatewayFailure(err, 'create the subscription');
    }
    const membership = await repo.finishClaim(deps.db, m.id, receipt, {
      name: who.name,
      phone: who.phone,
      status: 'created',
      subscription_id: sub.id,
      authorisation_url: sub.authorisationUrl,
      pending_order_id: null,
      pending_amount_paise: null,
      valid_until: null,
      cancel_at_period_end: false,
      ended_at: null,
      updated_at: at,
    });
    return membership ? { kind: 'recurring', existing: false, membership } : undefined;
  }
  return orderUnderClaim(deps, p, plan, m, inserted, receipt, who, at);
}

/** A fixed term's order, asked for under the claim and filed with the membership. */
async function orderUnderClaim(
  deps: MembershipDeps,
  p: KeyPrincipal,
  plan: PlanRow,
  m: MembershipRow,
  inserted: boolean,
  receipt: string,
  who: Subscriber,
  at: Date,
): Promise<Claimed | undefined> {
  // Fixed term: a receipt of its own per order, written before the call, so a lost answer is found by it.
  const gateway = deps.gatewayFor(p.mode, p.userId);
  await orderChecks.openOrderCheck(deps, {
    receipt,
    kind: 'membership',
    mode: p.mode,
    accountId: p.userId,
    amount: Number(plan.amount_paise),
    currency: PLAN_CURRENCY,
  });
  let order;
  try {
    order = await gateway.createOrder({
      amount: Number(plan.amount_paise),
      currency: PLAN_CURRENCY,
      receipt,
      notes: { planId: plan.id, email: who.email },
    });
  } catch (err) {
    await repo.dropClaim(deps.db, m.id, receipt, inserted);
    throw gatewayFailure(err, 'create the order');
  }
  await orderChecks.attachOrder(deps.db, receipt, order.id);
  const renewing = m.status === 'active';
  const membership = await repo.finishClaim(deps.db, m.id, receipt, {
    name: who.name,
    phone: who.phone ?? m.phone,
    status: renewing ? 'active' : 'pending_payment',
    pending_order_id: order.id,
    pending_amount_paise: order.amount,
    cancel_at_period_end: false,
    ...(m.status === 'ended' ? { ended_at: null } : {}),
    updated_at: at,
  });
  // A lost claim leaves this order to nobody: the reconciliation sweep refunds any payment for it.
  return membership
    ? {
        kind: 'fixed_term',
        existing: false,
        membership,
        order: { id: order.id, amount: order.amount, currency: order.currency },
      }
    : undefined;
}
