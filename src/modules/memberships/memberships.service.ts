// Membership plans and members: fixed terms paid by a one-time order, recurring
// mandates through the gateway's subscriptions. Standing is computed on read.
// Plans are in plans.service.ts, joining and paying in subscribe.service.ts, ending in
// cancel.service.ts, the gateway's subscription events in subscription-events.service.ts;
// this file holds what they share and the members' reads.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, Mode } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import { appError, badRequest, notFound } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { decodeCursor, pageOf } from '../../lib/keyset-cursor.js';
import { assertDeliverable, type CheckEmail } from '../mail/deliverable.js';
import type { PaymentGateway, SubscriptionGateway } from '../payments/gateway.js';
import { nowFor } from '../accounts/account-clock.js';
import { queueConfirmationMail } from './membership-mail.jobs.js';
import * as repo from './memberships.repo.js';
import type { MembershipRow, PlanRow } from './memberships.repo.js';
import { computeStanding } from './standing.js';

export type { MemberExportRow, MembershipRow, PlanRow } from './memberships.repo.js';

export interface MembershipDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: Config;
  gatewayFor(mode: Mode, accountId: string): PaymentGateway;
  subscriptionsFor(mode: Mode, accountId: string): SubscriptionGateway;
  checkEmail: CheckEmail;
  /** Called after a change that queued jobs (webhooks), so a local worker picks them up at once. */
  kickJobs(): void;
}

/** Plans charge in rupees only. */
export const PLAN_CURRENCY = 'INR';

export async function loadOwnedMembership(db: Db, p: KeyPrincipal, id: string): Promise<MembershipRow> {
  const m = await repo.findMembership(db, id);
  if (!m || m.mode !== p.mode) throw notFound('no such membership', 'membership_not_found');
  if (m.account_id !== p.userId)
    throw appError('not_your_object', 'this membership belongs to another account');
  return m;
}

/** The plan of a membership (plans are never deleted). */
export async function planOf(db: Db, m: Pick<MembershipRow, 'plan_id'>): Promise<PlanRow> {
  return (await repo.findPlan(db, m.plan_id))!;
}

export function standingInput(m: MembershipRow, plan: Pick<PlanRow, 'kind'>) {
  return {
    status: m.status,
    kind: plan.kind,
    validUntil: m.valid_until,
    cancelAtPeriodEnd: m.cancel_at_period_end,
    endedAt: m.ended_at,
  };
}

export function listMembers(
  db: Db,
  p: KeyPrincipal,
  filter: { planId?: string | undefined; email?: string | undefined },
) {
  return repo.listMembersWithKind(db, p.userId, p.mode, {
    planId: filter.planId,
    email: filter.email?.trim().toLowerCase(),
  });
}

/** One page of members, oldest first; `count` is the total matching the filter. */
export async function pageMembers(
  db: Db,
  p: KeyPrincipal,
  filter: { planId?: string | undefined; email?: string | undefined },
  page: { limit: number; startingAfter?: string | undefined },
) {
  const f = { planId: filter.planId, email: filter.email?.trim().toLowerCase() };
  const rows = await repo.pageMembersWithKind(
    db,
    p.userId,
    p.mode,
    f,
    page.limit,
    decodeCursor(page.startingAfter),
  );
  const out = pageOf(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }));
  return {
    items: out.items,
    hasMore: out.hasMore,
    nextCursor: out.nextCursor,
    count: await repo.countMembers(db, p.userId, p.mode, f),
  };
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

/** A membership as the API shows it, with standing on its account's clock. */
export async function presentNow(deps: { db: Db; clock: Clock }, m: MembershipRow, kind?: PlanRow['kind']) {
  const planKind = kind ?? (await planOf(deps.db, m)).kind;
  return presentMembership(m, planKind, await nowFor(deps, m.account_id, m.mode));
}

/** Members-only tiers ask this: a live membership in good standing on this account and mode. */
export async function hasGoodStanding(
  deps: { db: Db; clock: Clock },
  accountId: string,
  mode: Mode,
  email: string,
): Promise<boolean> {
  const rows = await repo.listMembersWithKind(deps.db, accountId, mode, {
    email: email.trim().toLowerCase(),
  });
  const now = await nowFor(deps, accountId, mode);
  return rows.some((r) => computeStanding(standingInput(r, { kind: r.plan_kind }), now).goodStanding);
}

/**
 * Members-only tiers with a checkout key ask this: the membership `membershipId` is of
 * this account and mode, carries this email, and is in good standing now.
 */
export async function isInGoodStanding(
  deps: { db: Db; clock: Clock },
  accountId: string,
  mode: Mode,
  membershipId: string,
  email: string,
): Promise<boolean> {
  const m = await repo.findMembership(deps.db, membershipId);
  if (
    !m ||
    m.account_id !== accountId ||
    m.mode !== mode ||
    m.email.toLowerCase() !== email.trim().toLowerCase()
  )
    return false;
  const plan = await planOf(deps.db, m);
  return computeStanding(standingInput(m, plan), await nowFor(deps, accountId, mode)).goodStanding;
}

/** The membership waiting for payment on this gateway order (reconciliation and the plan page ask). */
export const findByPendingOrder = (db: Db, mode: Mode, orderId: string) =>
  repo.findByPendingOrder(db, mode, orderId);

/** The membership of this gateway subscription (the plan page's sandbox mandate asks). */
export const findBySubscription = (db: Db, mode: Mode, subscriptionId: string) =>
  repo.findBySubscription(db, mode, subscriptionId);

/** Whether some membership's last period was paid with this payment (reconciliation asks). */
export async function isPaymentBound(db: Db, paymentId: string): Promise<boolean> {
  return (await repo.findByLastPayment(db, paymentId)) !== undefined;
}

/** Staff adds a member by hand (`source: manual`), good until `validUntil`. */
export async function addManualMember(
  deps: MembershipDeps,
  input: { planId: string; name: string; email: string; validUntil: string },
): Promise<{ membership: MembershipRow; kind: PlanRow['kind'] }> {
  const plan = await repo.findPlan(deps.db, input.planId);
  if (!plan) throw notFound('no such plan', 'plan_not_found');
  const email = await assertDeliverable(deps.checkEmail, input.email);
  const validUntil = new Date(input.validUntil);
  if (!/^\d{4}-\d{2}-\d{2}/.test(input.validUntil) || Number.isNaN(validUntil.getTime()))
    throw badRequest('invalid_date', 'validUntil must be an ISO 8601 date or date-time');
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
  // The member is mailed their id (members-only tickets ask for it) with the change.
  const membership = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.upsertMember(
      trx,
      {
        id: deps.ids.make('mem', 12),
        account_id: plan.account_id,
        mode: plan.mode,
        plan_id: plan.id,
        email,
        phone: null,
        subscription_id: null,
        authorisation_url: null,
        pending_amount_paise: null,
        last_payment_id: null,
        created_at: now,
        ...values,
      },
      values,
    );
    await queueConfirmationMail(trx, deps, row.id, await nowFor(deps, plan.account_id, plan.mode));
    return row;
  });
  deps.kickJobs();
  return { membership, kind: plan.kind };
}

/**
 * The key's account's members in its mode for an export, oldest first, with plan name and
 * kind: `batchSize` at a time, each batch read when the reader asks for it.
 */
export async function* exportMembers(
  db: Db,
  p: KeyPrincipal,
  filter: { planId?: string | undefined },
  batchSize: number,
) {
  let after: string | undefined;
  for (;;) {
    const rows = await repo.exportPage(db, p.userId, p.mode, filter, after, batchSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.id;
  }
}
