// Membership plans and members: fixed terms paid by a one-time order, recurring
// mandates through the gateway's subscriptions. Standing is computed on read.
import type { Kysely, Selectable } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, MembershipsTable, Mode, PlansTable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { KeyPrincipal } from '../../shared/auth.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, badGateway, badRequest, notFound } from '../../shared/errors.js';
import type { Ids } from '../../shared/ids.js';
import { paiseToRupees, rupeesToPaise } from '../../shared/money.js';
import { GatewayError, untilCancelledCount, type GatewayPayment, type PaymentGateway, type PlanPeriod, type SubscriptionGateway } from '../payments/gateway.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import * as orderChecks from '../reconciliation/order-checks.js';
import { computeStanding, inRenewalWindow, periodEnd, renewedUntil } from './standing.js';

export type PlanRow = Selectable<PlansTable>;
export type MembershipRow = Selectable<MembershipsTable>;

export interface MembershipDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: Config;
  gatewayFor(mode: Mode, accountId: string): PaymentGateway;
  subscriptionsFor(mode: Mode, accountId: string): SubscriptionGateway;
  checkEmail(email: string): Promise<{ ok: true; email: string } | { ok: false; message: string }>;
}

export const RECURRING_MAX_PAISE = 15_000_00;

// ---------------------------------------------------------------- time

/** This account's clock: test mode may be moved forward by the sandbox clock. */
export async function nowFor(deps: { db: Kysely<Database>; clock: Clock }, accountId: string, mode: Mode): Promise<Date> {
  const now = deps.clock.now();
  if (mode !== 'test') return now;
  const row = await deps.db.selectFrom('sandbox_clocks').select('offset_ms').where('account_id', '=', accountId).executeTakeFirst();
  return row ? new Date(now.getTime() + Number(row.offset_ms)) : now;
}

function gatewayFailure(err: unknown, what: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof GatewayError) {
    if (err.kind === 'rejected') return new AppError(502, 'gateway_refused', `the payment gateway refused to ${what}: ${err.message}; nothing changed`);
    return badGateway(`the payment gateway failed to ${what}; nothing changed`);
  }
  throw err;
}

// ---------------------------------------------------------------- plans

export interface PlanInput {
  name: string;
  amount: number;
  kind?: 'fixed_term' | 'recurring' | undefined;
  termMonths?: number | undefined;
  period?: PlanPeriod | undefined;
  description?: string | undefined;
  totalCount?: number | undefined;
}

export async function createPlan(deps: MembershipDeps, p: KeyPrincipal, input: PlanInput): Promise<PlanRow> {
  const name = input.name.trim();
  if (name === '' || name.length > 80) throw badRequest('invalid_plan', 'name must be 1 to 80 characters');
  const description = input.description?.trim() || null;
  if (description !== null && description.length > 500) throw badRequest('invalid_plan', 'description must be at most 500 characters');
  const amountPaise = rupeesToPaise(input.amount, 'amount');
  if (amountPaise < 100) throw badRequest('invalid_plan', 'amount must be at least 1 rupee');
  const kind = input.kind ?? 'recurring';
  if (kind === 'fixed_term') {
    if (input.termMonths === undefined) throw badRequest('invalid_plan', 'termMonths (1 to 120) is required for a fixed_term plan');
    if (input.period !== undefined) throw badRequest('invalid_plan', 'period is for recurring plans only');
    if (input.totalCount !== undefined) throw badRequest('invalid_plan', 'totalCount is for recurring plans only');
  } else {
    if (input.period === undefined) throw badRequest('invalid_plan', 'period (weekly, monthly, quarterly or yearly) is required for a recurring plan');
    if (input.termMonths !== undefined) throw badRequest('invalid_plan', 'termMonths is for fixed_term plans only');
    if (amountPaise > RECURRING_MAX_PAISE) throw badRequest('amount_above_recurring_limit', 'a recurring plan may charge at most 15,000 rupees per period');
  }
  const row = {
    id: deps.ids.make('plan', 12),
    account_id: p.userId,
    mode: p.mode,
    name,
    description,
    amount_paise: amountPaise,
    kind,
    term_months: kind === 'fixed_term' ? input.termMonths! : null,
    period: kind === 'recurring' ? input.period! : null,
    total_count: input.totalCount ?? 0,
    gateway_plan_id: null as string | null,
    created_at: deps.clock.now(),
  };
  if (kind === 'recurring') {
    // The gateway's plan first: if it fails, nothing is created here.
    try {
      const gp = await deps.subscriptionsFor(p.mode, p.userId).createPlan({
        period: row.period!,
        amount: amountPaise,
        currency: 'INR',
        name,
        description: description ?? undefined,
        notes: { planId: row.id },
      });
      row.gateway_plan_id = gp.id;
    } catch (err) {
      throw gatewayFailure(err, 'create the plan');
    }
  }
  await deps.db.insertInto('plans').values(row).execute();
  return (await deps.db.selectFrom('plans').selectAll().where('id', '=', row.id).executeTakeFirst())!;
}

export function listPlans(db: Kysely<Database>, p: KeyPrincipal) {
  return db.selectFrom('plans').selectAll().where('account_id', '=', p.userId).where('mode', '=', p.mode).orderBy('created_at').orderBy('id').execute();
}

async function loadOwnedPlan(db: Kysely<Database>, p: KeyPrincipal, planId: string): Promise<PlanRow> {
  const plan = await db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst();
  if (!plan || plan.account_id !== p.userId || plan.mode !== p.mode) throw notFound('no such plan on this account in this mode', 'plan_not_found');
  return plan;
}

export function presentPlan(r: PlanRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    amount: paiseToRupees(Number(r.amount_paise)),
    currency: 'INR' as const,
    kind: r.kind,
    termMonths: r.term_months,
    period: r.period,
    totalCount: r.total_count,
    mode: r.mode,
    gatewayPlanId: r.gateway_plan_id,
    createdAt: r.created_at.toISOString(),
  };
}

// ---------------------------------------------------------------- members

export type SubscribeResult =
  | { kind: 'recurring'; existing: boolean; membership: MembershipRow; keyId: string }
  | { kind: 'fixed_term'; existing: boolean; membership: MembershipRow; order: { id: string; amount: number; currency: string } | null; keyId: string };

async function findMembership(db: Kysely<Database>, planId: string, email: string) {
  return db.selectFrom('memberships').selectAll().where('plan_id', '=', planId).where('email', '=', email).executeTakeFirst();
}

export async function subscribe(
  deps: MembershipDeps,
  p: KeyPrincipal,
  input: { planId: string; name: string; email: string; phone?: string | undefined },
): Promise<SubscribeResult> {
  const plan = await loadOwnedPlan(deps.db, p, input.planId);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  const checked = await deps.checkEmail(input.email);
  if (!checked.ok) throw badRequest('undeliverable_email', `email cannot receive mail: ${checked.message}`);
  const email = checked.email;
  const now = await nowFor(deps, p.userId, p.mode);
  const existing = await findMembership(deps.db, plan.id, email);

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
  await orderChecks.openOrderCheck(deps, { receipt, kind: 'membership', mode: p.mode, accountId: p.userId, amount: Number(plan.amount_paise), currency: 'INR' });
  try {
    order = await gateway.createOrder({ amount: Number(plan.amount_paise), currency: 'INR', receipt, notes: { planId: plan.id, email } });
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
  values: Partial<MembershipRow> & { updated_at: Date },
  now: Date,
): Promise<MembershipRow> {
  if (existing) {
    return (await deps.db.updateTable('memberships').set(values).where('id', '=', existing.id).returningAll().executeTakeFirst())!;
  }
  const id = deps.ids.make('mem', 12);
  try {
    await deps.db
      .insertInto('memberships')
      .values({
        id,
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
      })
      .execute();
  } catch (err) {
    // The same email subscribing twice at once: the second gets the first's row.
    if (isUniqueViolation(err)) {
      const row = await findMembership(deps.db, plan.id, email);
      if (row) return row;
    }
    throw err;
  }
  return (await deps.db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst())!;
}

export async function loadOwnedMembership(db: Kysely<Database>, p: KeyPrincipal, id: string): Promise<MembershipRow> {
  const m = await db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst();
  if (!m || m.mode !== p.mode) throw notFound('no such membership', 'membership_not_found');
  if (m.account_id !== p.userId) throw new AppError(403, 'not_your_object', 'this membership belongs to another account');
  return m;
}

function paymentNotVerified(message: string): AppError {
  return new AppError(402, 'payment_not_verified', message);
}

/** Step 2 of a fixed-term payment, verified at the gateway like a ticket payment. */
export async function confirm(deps: MembershipDeps, p: KeyPrincipal, id: string, input: { orderId: string; paymentId: string }): Promise<MembershipRow> {
  const m = await loadOwnedMembership(deps.db, p, id);
  if (m.last_payment_id === input.paymentId) return m;
  if (m.pending_order_id === null || m.pending_order_id !== input.orderId) throw paymentNotVerified('orderId is not the open order of this membership');
  const gateway = deps.gatewayFor(m.mode, m.account_id);
  let payment: GatewayPayment | null;
  try {
    payment = await gateway.fetchPayment(input.paymentId);
  } catch (err) {
    throw gatewayFailure(err, 'verify the payment');
  }
  if (!payment) throw paymentNotVerified('the gateway does not know this payment id');
  if (payment.orderId !== m.pending_order_id) throw paymentNotVerified('this payment belongs to another order');
  if (payment.amount !== Number(m.pending_amount_paise) || payment.currency !== 'INR') throw paymentNotVerified('the payment amount does not match');
  if (payment.status === 'authorized') {
    try {
      payment = await gateway.capturePayment(payment.id, payment.amount, payment.currency);
    } catch (err) {
      throw gatewayFailure(err, 'capture the payment');
    }
  }
  if (!payment.captured) throw paymentNotVerified(`the payment is ${payment.status}, not captured`);
  const done = await applyTermPayment(deps, m, payment.id);
  if (!done) throw paymentNotVerified('this payment could not be bound to the membership');
  return done;
}

async function applyTermPayment(deps: MembershipDeps, m: MembershipRow, paymentId: string): Promise<MembershipRow | undefined> {
  const plan = (await deps.db.selectFrom('plans').selectAll().where('id', '=', m.plan_id).executeTakeFirst())!;
  const paidAt = await nowFor(deps, m.account_id, m.mode);
  try {
    const updated = await deps.db.transaction().execute(async (trx) => {
      const u = await trx
        .updateTable('memberships')
        .set({
          status: 'active',
          valid_until: renewedUntil(m.status === 'active' ? m.valid_until : null, paidAt, plan.term_months!),
          pending_order_id: null,
          pending_amount_paise: null,
          last_payment_id: paymentId,
          ended_at: null,
          updated_at: deps.clock.now(),
        })
        .where('id', '=', m.id)
        .where('pending_order_id', '=', m.pending_order_id)
        .returningAll()
        .executeTakeFirst();
      // The period's payment is recorded with its order, so reconciliation knows it is spoken for.
      if (u && m.pending_order_id !== null) await orderChecks.recordMembershipPayment(trx, m.pending_order_id, paymentId);
      return u;
    });
    if (updated) return updated;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const now = await deps.db.selectFrom('memberships').selectAll().where('id', '=', m.id).executeTakeFirst();
  return now?.last_payment_id === paymentId ? now : undefined;
}

/** The gateway's paid notification for a fixed-term order. */
export async function confirmFromGateway(deps: MembershipDeps, mode: Mode, orderId: string, payment: GatewayPayment): Promise<'confirmed' | 'ignored'> {
  const m = await deps.db.selectFrom('memberships').selectAll().where('pending_order_id', '=', orderId).where('mode', '=', mode).executeTakeFirst();
  if (!m || !payment.captured || payment.orderId !== orderId || payment.amount !== Number(m.pending_amount_paise)) return 'ignored';
  return (await applyTermPayment(deps, m, payment.id)) ? 'confirmed' : 'ignored';
}

export async function cancel(
  deps: MembershipDeps,
  p: KeyPrincipal,
  id: string,
  immediate: boolean,
): Promise<{ membership: MembershipRow; alreadyEnded: boolean; message: string }> {
  const m = await loadOwnedMembership(deps.db, p, id);
  const plan = (await deps.db.selectFrom('plans').selectAll().where('id', '=', m.plan_id).executeTakeFirst())!;
  const now = await nowFor(deps, m.account_id, m.mode);
  const standing = computeStanding(standingInput(m, plan), now);
  if (standing.displayStatus === 'ended') return { membership: m, alreadyEnded: true, message: 'this membership has already ended' };
  // Nothing paid yet, or asked to end now: it ends now. Otherwise at the end of the paid period.
  const endNow = immediate || m.valid_until === null || m.status === 'created' || m.status === 'pending_payment';
  if (m.subscription_id !== null) {
    try {
      await deps.subscriptionsFor(m.mode, m.account_id).cancelSubscription(m.subscription_id, !endNow);
    } catch (err) {
      throw gatewayFailure(err, 'cancel the mandate');
    }
  }
  const updated = await deps.db
    .updateTable('memberships')
    .set(endNow ? { status: 'ended', ended_at: now, pending_order_id: null, updated_at: deps.clock.now() } : { cancel_at_period_end: true, pending_order_id: null, updated_at: deps.clock.now() })
    .where('id', '=', m.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    membership: updated,
    alreadyEnded: false,
    message: endNow ? 'the membership has ended' : `the membership ends at the end of the paid period, ${m.valid_until!.toISOString()}`,
  };
}

export type SubscriptionEvent = 'authenticated' | 'activated' | 'charged' | 'halted' | 'cancelled' | 'completed' | 'pending' | 'resumed';

/**
 * A subscription event from the gateway (or the sandbox). Idempotent and
 * order-tolerant: an ended membership stays ended, and a late `authenticated`
 * never moves an active one back.
 */
export async function applySubscriptionEvent(
  deps: MembershipDeps,
  mode: Mode,
  subscriptionId: string,
  event: SubscriptionEvent,
  currentEnd?: Date | null,
): Promise<'applied' | 'ignored'> {
  const m = await deps.db.selectFrom('memberships').selectAll().where('subscription_id', '=', subscriptionId).where('mode', '=', mode).executeTakeFirst();
  if (!m || m.status === 'ended') return 'ignored';
  const plan = (await deps.db.selectFrom('plans').selectAll().where('id', '=', m.plan_id).executeTakeFirst())!;
  const now = await nowFor(deps, m.account_id, m.mode);
  const at = deps.clock.now();
  switch (event) {
    case 'authenticated': {
      if (m.status !== 'created') return 'ignored';
      const done = await deps.db.transaction().execute(async (trx) => {
        const u = await trx.updateTable('memberships').set({ status: 'authorised', updated_at: at }).where('id', '=', m.id).where('status', '=', 'created').returning('id').executeTakeFirst();
        if (!u) return false;
        await webhooks.emit(trx, deps, {
          accountId: m.account_id,
          mode: m.mode,
          type: 'subscription.authenticated',
          data: { membershipId: m.id, planId: m.plan_id, planName: plan.name, subscriptionId, name: m.name, email: m.email, authorisedAt: now.toISOString() },
        });
        return true;
      });
      return done ? 'applied' : 'ignored';
    }
    case 'activated':
    case 'charged':
    case 'resumed': {
      const base = m.valid_until !== null && m.valid_until.getTime() > now.getTime() ? m.valid_until : now;
      const until = currentEnd ?? (event === 'activated' && m.valid_until !== null ? m.valid_until : periodEnd(base, plan.period ?? 'monthly'));
      const validUntil = m.valid_until !== null && m.valid_until.getTime() > until.getTime() ? m.valid_until : until;
      await deps.db.updateTable('memberships').set({ status: 'active', valid_until: validUntil, updated_at: at }).where('id', '=', m.id).where('status', '!=', 'ended').execute();
      return 'applied';
    }
    case 'halted':
    case 'pending':
      if (event === 'pending') return 'ignored';
      await deps.db.updateTable('memberships').set({ status: 'halted', updated_at: at }).where('id', '=', m.id).where('status', '!=', 'ended').execute();
      return 'applied';
    case 'cancelled':
    case 'completed':
      await deps.db.updateTable('memberships').set({ status: 'ended', ended_at: now, updated_at: at }).where('id', '=', m.id).execute();
      return 'applied';
  }
}

export function standingInput(m: MembershipRow, plan: Pick<PlanRow, 'kind'>) {
  return { status: m.status, kind: plan.kind, validUntil: m.valid_until, cancelAtPeriodEnd: m.cancel_at_period_end, endedAt: m.ended_at };
}

export async function listMembers(db: Kysely<Database>, p: KeyPrincipal, filter: { planId?: string | undefined; email?: string | undefined }) {
  let q = db
    .selectFrom('memberships as m')
    .innerJoin('plans as pl', 'pl.id', 'm.plan_id')
    .selectAll('m')
    .select(['pl.kind as plan_kind'])
    .where('m.account_id', '=', p.userId)
    .where('m.mode', '=', p.mode);
  if (filter.planId !== undefined) q = q.where('m.plan_id', '=', filter.planId);
  if (filter.email !== undefined) q = q.where('m.email', '=', filter.email.trim().toLowerCase());
  return q.orderBy('m.created_at').orderBy('m.id').execute();
}

export function presentMembership(m: MembershipRow, kind: PlanRow['kind'], now: Date) {
  const s = computeStanding(standingInput(m, { kind }), now);
  return {
    id: m.id,
    planId: m.plan_id,
    name: m.name,
    email: m.email,
    phone: m.phone,
    status: m.status,
    displayStatus: s.displayStatus,
    goodStanding: s.goodStanding,
    validUntil: m.valid_until?.toISOString() ?? null,
    source: m.source,
    subscriptionId: m.subscription_id,
    cancelAtPeriodEnd: m.cancel_at_period_end,
    endedAt: m.ended_at?.toISOString() ?? null,
    createdAt: m.created_at.toISOString(),
  };
}

/** Members-only tiers ask this: a live membership in good standing on this account and mode. */
export async function hasGoodStanding(deps: { db: Kysely<Database>; clock: Clock }, accountId: string, mode: Mode, email: string): Promise<boolean> {
  const rows = await deps.db
    .selectFrom('memberships as m')
    .innerJoin('plans as pl', 'pl.id', 'm.plan_id')
    .selectAll('m')
    .select(['pl.kind as plan_kind'])
    .where('m.account_id', '=', accountId)
    .where('m.mode', '=', mode)
    .where('m.email', '=', email.trim().toLowerCase())
    .execute();
  const now = await nowFor(deps, accountId, mode);
  return rows.some((r) => computeStanding(standingInput(r, { kind: r.plan_kind }), now).goodStanding);
}

/** Staff adds a member by hand (`source: manual`), good until `validUntil`. */
export async function addManualMember(
  deps: MembershipDeps,
  input: { planId: string; name: string; email: string; validUntil: string },
): Promise<{ membership: MembershipRow; kind: PlanRow['kind'] }> {
  const plan = await deps.db.selectFrom('plans').selectAll().where('id', '=', input.planId).executeTakeFirst();
  if (!plan) throw notFound('no such plan', 'plan_not_found');
  const checked = await deps.checkEmail(input.email);
  if (!checked.ok) throw badRequest('undeliverable_email', `email cannot receive mail: ${checked.message}`);
  const validUntil = new Date(input.validUntil);
  if (!/^\d{4}-\d{2}-\d{2}/.test(input.validUntil) || Number.isNaN(validUntil.getTime())) throw badRequest('invalid_date', 'validUntil must be an ISO 8601 date or date-time');
  const now = deps.clock.now();
  const values = {
    name: input.name.trim(),
    status: 'active' as const,
    source: 'manual' as const,
    valid_until: validUntil,
    cancel_at_period_end: false,
    ended_at: null,
    pending_order_id: null,
    updated_at: now,
  };
  const membership = await deps.db
    .insertInto('memberships')
    .values({
      id: deps.ids.make('mem', 12),
      account_id: plan.account_id,
      mode: plan.mode,
      plan_id: plan.id,
      email: checked.email,
      phone: null,
      subscription_id: null,
      authorisation_url: null,
      pending_amount_paise: null,
      last_payment_id: null,
      created_at: now,
      ...values,
    })
    .onConflict((oc) => oc.columns(['plan_id', 'email']).doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
  return { membership, kind: plan.kind };
}
