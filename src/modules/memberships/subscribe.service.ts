// Joining a plan and paying for a fixed term: a recurring plan starts a mandate at the
// gateway; a fixed term opens an order, paid by step 2 or the gateway's notification.
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { KeyPrincipal } from '../../shared/auth.js';
import { badRequest } from '../../shared/errors.js';
import { assertDeliverable } from '../mail/deliverable.js';
import { untilCancelledCount, type GatewayPayment } from '../payments/gateway.js';
import { gatewayFailure, paymentNotVerified, verifyPayment } from '../payments/payments.service.js';
import { nowFor } from '../sandbox/sandbox.service.js';
import * as ledger from '../ledger/ledger.service.js';
import * as orderChecks from '../reconciliation/order-checks.js';
import * as repo from './memberships.repo.js';
import type { MembershipChange } from './memberships.repo.js';
import { loadOwnedMembership, planOf, PLAN_CURRENCY, standingInput, type MembershipDeps, type MembershipRow, type PlanRow } from './memberships.service.js';
import { loadOwnedPlan } from './plans.service.js';
import { computeStanding, inRenewalWindow, renewedUntil } from './standing.js';
import type { Mode } from '../../db/database.js';

export type SubscribeResult =
  | { kind: 'recurring'; existing: boolean; membership: MembershipRow; keyId: string }
  | { kind: 'fixed_term'; existing: boolean; membership: MembershipRow; order: { id: string; amount: number; currency: string } | null; keyId: string };

export async function subscribe(
  deps: MembershipDeps,
  p: KeyPrincipal,
  input: { planId: string; name: string; email: string; phone?: string | undefined },
): Promise<SubscribeResult> {
  const plan = await loadOwnedPlan(deps.db, p, input.planId);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  const email = await assertDeliverable(deps.checkEmail, input.email);
  const now = await nowFor(deps, p.userId, p.mode);
  const existing = await repo.findByPlanAndEmail(deps.db, plan.id, email);

  if (plan.kind === 'recurring') {
    const subs = deps.subscriptionsFor(p.mode, p.userId);
    if (existing && existing.status !== 'ended' && computeStanding(standingInput(existing, plan), now).displayStatus !== 'ended') {
      return { kind: 'recurring', existing: true, membership: existing, keyId: subs.keyId };
    }
    let sub;
    try {
      sub = await subs.createSubscription({
        planId: plan.gateway_plan_id!,
        totalCount: plan.total_count > 0 ? plan.total_count : untilCancelledCount(plan.period!),
        notes: { planId: plan.id, email },
      });
    } catch (err) {
      throw gatewayFailure(err, 'create the subscription');
    }
    const values = {
      name,
      phone: input.phone?.trim() || null,
      status: 'created' as const,
      subscription_id: sub.id,
      authorisation_url: sub.authorisationUrl,
      pending_order_id: null,
      pending_amount_paise: null,
      valid_until: null,
      cancel_at_period_end: false,
      ended_at: null,
      updated_at: now,
    };
    const membership = await upsertMembership(deps, p, plan, email, existing, values, now);
    return { kind: 'recurring', existing: false, membership, keyId: subs.keyId };
  }

  // Fixed term: a new order unless a term is running outside its renewal window.
  const gateway = deps.gatewayFor(p.mode, p.userId);
  if (existing && existing.status === 'active' && !existing.cancel_at_period_end && !inRenewalWindow(existing.valid_until, now)) {
    return { kind: 'fixed_term', existing: true, membership: existing, order: null, keyId: gateway.keyId };
  }
  let order;
  // A receipt of its own per order, written before the call, so a lost answer is found by it.
  const receipt = deps.ids.make('rcpt', 18);
  await orderChecks.openOrderCheck(deps, { receipt, kind: 'membership', mode: p.mode, accountId: p.userId, amount: Number(plan.amount_paise), currency: PLAN_CURRENCY });
  try {
    order = await gateway.createOrder({ amount: Number(plan.amount_paise), currency: PLAN_CURRENCY, receipt, notes: { planId: plan.id, email } });
  } catch (err) {
    throw gatewayFailure(err, 'create the order');
  }
  await orderChecks.attachOrder(deps.db, receipt, order.id);
  const membership = await upsertMembership(
    deps,
    p,
    plan,
    email,
    existing,
    {
      name,
      phone: input.phone?.trim() || existing?.phone || null,
      status: existing && existing.status === 'active' ? 'active' : 'pending_payment',
      pending_order_id: order.id,
      pending_amount_paise: order.amount,
      cancel_at_period_end: false,
      updated_at: now,
    },
    now,
  );
  return { kind: 'fixed_term', existing: false, membership, order: { id: order.id, amount: order.amount, currency: order.currency }, keyId: gateway.keyId };
}

async function upsertMembership(
  deps: MembershipDeps,
  p: KeyPrincipal,
  plan: PlanRow,
  email: string,
  existing: MembershipRow | undefined,
  values: MembershipChange & { updated_at: Date },
  now: Date,
): Promise<MembershipRow> {
  if (existing) return (await repo.updateMembership(deps.db, existing.id, values))!;
  try {
    return await repo.insertMembership(deps.db, {
      id: deps.ids.make('mem', 12),
      account_id: p.userId,
      mode: p.mode,
      plan_id: plan.id,
      email,
      name: values.name!,
      phone: values.phone ?? null,
      status: values.status!,
      source: 'api',
      subscription_id: values.subscription_id ?? null,
      authorisation_url: values.authorisation_url ?? null,
      pending_order_id: values.pending_order_id ?? null,
      pending_amount_paise: values.pending_amount_paise ?? null,
      last_payment_id: null,
      valid_until: null,
      ended_at: null,
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    // The same email subscribing twice at once: the second gets the first's row.
    if (isUniqueViolation(err)) {
      const row = await repo.findByPlanAndEmail(deps.db, plan.id, email);
      if (row) return row;
    }
    throw err;
  }
}

/** Step 2 of a fixed-term payment, verified at the gateway like a ticket payment. */
export async function confirm(deps: MembershipDeps, p: KeyPrincipal, id: string, input: { orderId: string; paymentId: string }): Promise<MembershipRow> {
  const m = await loadOwnedMembership(deps.db, p, id);
  if (m.last_payment_id === input.paymentId) return m;
  if (m.pending_order_id === null || m.pending_order_id !== input.orderId) throw paymentNotVerified('orderId is not the open order of this membership');
  const payment = await verifyPayment(
    deps.gatewayFor(m.mode, m.account_id),
    { orderId: m.pending_order_id, amountPaise: Number(m.pending_amount_paise), currency: PLAN_CURRENCY },
    input.paymentId,
  );
  const done = await applyTermPayment(deps, m, payment.id);
  if (!done) throw paymentNotVerified('this payment could not be bound to the membership');
  return done;
}

async function applyTermPayment(deps: MembershipDeps, m: MembershipRow, paymentId: string): Promise<MembershipRow | undefined> {
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
      // The term's payment enters the ledger in the transaction that applies it.
      if (u) await ledger.recordMembershipPayment(trx, { accountId: m.account_id, mode: m.mode, membershipId: m.id, paymentId, grossPaise: Number(m.pending_amount_paise), capturedAt: paidAt });
      // The period's payment is recorded with its order, so reconciliation knows it is spoken for.
      if (u && m.pending_order_id !== null) await orderChecks.recordMembershipPayment(trx, m.pending_order_id, paymentId);
      return u;
    });
    if (updated) return updated;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const now = await repo.findMembership(deps.db, m.id);
  return now?.last_payment_id === paymentId ? now : undefined;
}

/** The gateway's paid notification for a fixed-term order. */
export async function confirmFromGateway(deps: MembershipDeps, mode: Mode, orderId: string, payment: GatewayPayment): Promise<'confirmed' | 'ignored'> {
  const m = await repo.findByPendingOrder(deps.db, mode, orderId);
  if (!m || !payment.captured || payment.orderId !== orderId || payment.amount !== Number(m.pending_amount_paise)) return 'ignored';
  return (await applyTermPayment(deps, m, payment.id)) ? 'confirmed' : 'ignored';
}
