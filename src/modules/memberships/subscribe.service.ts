// Joining a plan and paying for a fixed term: a recurring plan starts a mandate at the
// gateway; a fixed term opens an order, paid by step 2 or the gateway's notification.
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { appError, badRequest } from '../../lib/errors.js';
import { assertDeliverable } from '../mail/deliverable.js';
import type { GatewayPayment } from '../payments/gateway.js';
import { paymentNotVerified, verifyPayment } from '../payments/payments.service.js';
import { nowFor } from '../accounts/account-clock.js';
import * as orderChecks from '../payments/order-checks.js';
import { applyMembershipPayment } from './membership-payment.js';
import * as repo from './memberships.repo.js';
import {
  loadOwnedMembership,
  planOf,
  PLAN_CURRENCY,
  standingInput,
  type MembershipDeps,
  type MembershipRow,
  type PlanRow,
} from './memberships.service.js';
import { loadOwnedPlan } from './plans.service.js';
import { claimMembership, withClaim } from './subscribe-claim.js';
import { computeStanding, inRenewalWindow, renewedUntil } from './standing.js';
import type { Mode } from '../../db/database.js';

/**
 * `existing`: answered from a membership as it stands, nothing new at the gateway.
 * `existedBefore`: the membership row was there before this subscribe (a renewal, or a new
 * mandate for an ended one), so its id is not new to the world and may be proof.
 */
export type SubscribeResult =
  | { kind: 'recurring'; existing: boolean; existedBefore: boolean; membership: MembershipRow; keyId: string }
  | {
      kind: 'fixed_term';
      existing: boolean;
      existedBefore: boolean;
      membership: MembershipRow;
      order: { id: string; amount: number; currency: string } | null;
      keyId: string;
    };

/** How long a subscribe waits for a concurrent one (a double-click) to finish its order. */
const CLAIM_WAIT_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What a membership that already exists answers, when it needs no new order or mandate:
 * one waiting for payment or authorisation answers its open order or subscription, and
 * nothing stored changes; a running term outside its renewal
 * window and a live mandate answer themselves. undefined: a new order or mandate is due.
 */
function openAnswer(
  plan: PlanRow,
  m: MembershipRow | undefined,
  now: Date,
  keyId: string,
): SubscribeResult | undefined {
  if (!m) return undefined;
  if (plan.kind === 'recurring') {
    if (
      m.subscription_id !== null &&
      m.status !== 'ended' &&
      computeStanding(standingInput(m, plan), now).displayStatus !== 'ended'
    ) {
      return { kind: 'recurring', existing: true, existedBefore: true, membership: m, keyId };
    }
    return undefined;
  }
  if (m.pending_order_id !== null && (m.status === 'pending_payment' || m.status === 'active')) {
    return {
      kind: 'fixed_term',
      existing: true,
      existedBefore: true,
      membership: m,
      order: { id: m.pending_order_id, amount: Number(m.pending_amount_paise), currency: PLAN_CURRENCY },
      keyId,
    };
  }
  if (m.status === 'active' && !m.cancel_at_period_end && !inRenewalWindow(m.valid_until, now)) {
    return { kind: 'fixed_term', existing: true, existedBefore: true, membership: m, order: null, keyId };
  }
  return undefined;
}

export async function subscribe(
  deps: MembershipDeps,
  p: KeyPrincipal,
  input: { planId: string; name: string; email: string; phone?: string | undefined },
): Promise<SubscribeResult> {
  const plan = await loadOwnedPlan(deps.db, p, input.planId);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  const email = await assertDeliverable(deps.checkEmail, input.email);
  const phone = input.phone?.trim() || null;
  const keyId =
    plan.kind === 'recurring'
      ? deps.subscriptionsFor(p.mode, p.userId).keyId
      : deps.gatewayFor(p.mode, p.userId).keyId;
  const waitUntil = performance.now() + CLAIM_WAIT_MS;

  for (;;) {
    const now = await nowFor(deps, p.userId, p.mode);
    const existing = await repo.findByPlanAndEmail(deps.db, plan.id, email);
    const answer = openAnswer(plan, existing, now, keyId);
    if (answer) return answer;

    // Claim the row with this subscribe's receipt before asking the gateway for anything:
    // of several subscribes at once for this email and plan, one makes the order.
    const at = deps.clock.now();
    const receipt = deps.ids.make('rcpt', 18);
    const who = { name, phone, email, now };
    const claimed = await claimMembership(deps, p, plan, existing, receipt, at, who);
    if (!claimed) {
      // Another subscribe holds the claim (or changed the row): wait for its order.
      if (performance.now() > waitUntil)
        throw appError(
          'busy',
          'another subscribe for this email is creating its order; retry shortly',
          {},
          { 'retry-after': '2' },
        );
      await sleep(50);
      continue;
    }
    const done = await withClaim(deps, p, plan, claimed, existing === undefined, receipt, who);
    if (done) return { ...done, existedBefore: existing !== undefined, keyId } as SubscribeResult;
    // The claim was taken over meanwhile (ours looked dead): answer what is there now.
  }
}

/** Step 2 of a fixed-term payment, verified at the gateway like a ticket payment. */
export async function confirm(
  deps: MembershipDeps,
  p: KeyPrincipal,
  id: string,
  input: { orderId: string; paymentId: string },
): Promise<MembershipRow> {
  const m = await loadOwnedMembership(deps.db, p, id);
  if (m.last_payment_id === input.paymentId) return m;
  if (m.pending_order_id === null || m.pending_order_id !== input.orderId)
    throw paymentNotVerified('orderId is not the open order of this membership');
  const payment = await verifyPayment(
    deps.gatewayFor(m.mode, m.account_id),
    { orderId: m.pending_order_id, amountPaise: Number(m.pending_amount_paise), currency: PLAN_CURRENCY },
    input.paymentId,
  );
  const done = await applyTermPayment(deps, m, payment.id);
  if (!done) throw paymentNotVerified('this payment could not be bound to the membership');
  return done;
}

async function applyTermPayment(
  deps: MembershipDeps,
  m: MembershipRow,
  paymentId: string,
): Promise<MembershipRow | undefined> {
  const plan = await planOf(deps.db, m);
  const paidAt = await nowFor(deps, m.account_id, m.mode);
  try {
    const updated = await deps.db.transaction().execute(async (trx) => {
      const u = await repo.bindTermPayment(trx, m.id, m.pending_order_id, {
        status: 'active',
        valid_until: renewedUntil(m.status === 'active' ? m.valid_until : null, paidAt, plan.term_months!),
        pending_order_id: null,
        pending_amount_paise: null,
        last_payment_id: paymentId,
        ended_at: null,
        updated_at: deps.clock.now(),
      });
      // The term's payment enters the ledger in the transaction that applies it, with the
      // member's mails: a confirmation when the membership starts, a receipt per charge.
      if (u) {
        const amountPaise = Number(m.pending_amount_paise);
        await applyMembershipPayment(
          trx,
          deps,
          m,
          { id: paymentId, amountPaise, paidAt, validUntil: u.valid_until },
          m.status !== 'active',
        );
      }
      // The period's payment is recorded with its order, so reconciliation knows it is spoken for.
      if (u && m.pending_order_id !== null)
        await orderChecks.recordMembershipPayment(trx, m.pending_order_id, paymentId);
      return u;
    });
    if (updated) {
      deps.kickJobs();
      return updated;
    }
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const now = await repo.findMembership(deps.db, m.id);
  return now?.last_payment_id === paymentId ? now : undefined;
}

/** The gateway's paid notification for a fixed-term order. */
export async function confirmFromGateway(
  deps: MembershipDeps,
  mode: Mode,
  orderId: string,
  payment: GatewayPayment,
): Promise<'confirmed' | 'ignored'> {
  const m = await repo.findByPendingOrder(deps.db, mode, orderId);
  // Only money that is captured and still held pays for a period: not a refunded or
  // merely created payment, not another amount or currency.
  if (
    !m ||
    !payment.captured ||
    payment.status !== 'captured' ||
    payment.amountRefunded > 0 ||
    payment.orderId !== orderId ||
    payment.amount !== Number(m.pending_amount_paise) ||
    payment.currency !== PLAN_CURRENCY
  ) {
    return 'ignored';
  }
  return (await applyTermPayment(deps, m, payment.id)) ? 'confirmed' : 'ignored';
}
