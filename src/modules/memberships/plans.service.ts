// Membership plans: a fixed term paid once, or a recurring mandate whose plan also
// lives at the gateway.
import * as audit from '../audit/audit.service.js';
import type { KeyPrincipal } from '../../http/auth.js';
import type { Db } from '../../lib/db-handle.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { paiseToRupees, rupeesToPaise } from '../../lib/money.js';
import { decodeCursor, pageOf } from '../../lib/keyset-cursor.js';
import type { PlanPeriod } from '../payments/gateway.js';
import { gatewayFailure } from '../payments/payments.service.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Mode } from '../../db/database.js';
import { slugify, slugSuffix } from '../events/slug.js';
import * as repo from './memberships.repo.js';
import { PLAN_CURRENCY, type MembershipDeps, type PlanRow } from './memberships.service.js';

/** The most a recurring mandate may charge per period, in paise. */
export const RECURRING_MAX_PAISE = 15_000_00;

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
  if (description !== null && description.length > 500)
    throw badRequest('invalid_plan', 'description must be at most 500 characters');
  const amountPaise = rupeesToPaise(input.amount, 'amount');
  if (amountPaise < 100) throw badRequest('invalid_plan', 'amount must be at least 1 rupee');
  const kind = input.kind ?? 'recurring';
  if (kind === 'fixed_term') {
    if (input.termMonths === undefined)
      throw badRequest('invalid_plan', 'termMonths (1 to 120) is required for a fixed_term plan');
    if (input.period !== undefined) throw badRequest('invalid_plan', 'period is for recurring plans only');
    if (input.totalCount !== undefined)
      throw badRequest('invalid_plan', 'totalCount is for recurring plans only');
  } else {
    if (input.period === undefined)
      throw badRequest(
        'invalid_plan',
        'period (weekly, monthly, quarterly or yearly) is required for a recurring plan',
      );
    if (input.termMonths !== undefined)
      throw badRequest('invalid_plan', 'termMonths is for fixed_term plans only');
    if (amountPaise > RECURRING_MAX_PAISE)
      throw badRequest(
        'amount_above_recurring_limit',
        'a recurring plan may charge at most 15,000 rupees per period',
      );
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
        currency: PLAN_CURRENCY,
        name,
        description: description ?? undefined,
        notes: { planId: row.id },
      });
      row.gateway_plan_id = gp.id;
    } catch (err) {
      throw gatewayFailure(err, 'create the plan');
    }
  }
  return insertWithSlug(deps, p, row);
}

/** Files the plan under a public slug made from its name (with a suffix when the name's is taken), with its audit entry. */
async function insertWithSlug(
  deps: MembershipDeps,
  p: KeyPrincipal,
  row: Omit<PlanRow, 'slug'>,
): Promise<PlanRow> {
  const base = slugify(row.name, 'plan');
  let slug = (await repo.planSlugTaken(deps.db, base)) ? `${base}-${slugSuffix(deps.ids)}` : base;
  const facts = {
    name: row.name,
    kind: row.kind,
    amount: Number(row.amount_paise) / 100,
    termMonths: row.term_months,
    period: row.period,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.db.transaction().execute(async (trx) => {
        const plan = await repo.insertPlan(trx, { ...row, slug });
        await audit.recordChange(trx, deps, {
          accountId: p.userId,
          mode: p.mode,
          actor: audit.actorOfKey(p),
          action: 'plan.create',
          target: { type: 'plan', id: row.id },
          after: { ...facts, slug },
        });
        return plan;
      });
    } catch (err) {
      // Two plans with the same name made at once: the loser takes a suffix.
      if (attempt < 3 && isUniqueViolation(err, 'plans_slug')) {
        slug = `${base}-${slugSuffix(deps.ids)}`;
        continue;
      }
      throw err;
    }
  }
}

/** A plan by its public slug (its hosted page, /m/{slug}). */
export function findPlanBySlug(db: Db, slug: string): Promise<PlanRow | undefined> {
  return repo.findPlanBySlug(db, slug);
}

/** An account's plans in a mode, oldest first: the plans a members-only tier's "Join" offers. */
export function plansOf(db: Db, accountId: string, mode: Mode): Promise<PlanRow[]> {
  return repo.listPlans(db, accountId, mode);
}

export function listPlans(db: Db, p: KeyPrincipal): Promise<PlanRow[]> {
  return repo.listPlans(db, p.userId, p.mode);
}

/** One page of this account's plans in the key's mode, oldest first; `count` is the total. */
export async function pagePlans(
  db: Db,
  p: KeyPrincipal,
  page: { limit: number; startingAfter?: string | undefined },
) {
  const rows = await repo.pagePlans(db, p.userId, p.mode, page.limit, decodeCursor(page.startingAfter));
  const out = pageOf(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }));
  return {
    items: out.items,
    hasMore: out.hasMore,
    nextCursor: out.nextCursor,
    count: await repo.countPlans(db, p.userId, p.mode),
  };
}

/** A plan of this account in this key's mode; 404 for any other. */
export async function loadOwnedPlan(db: Db, p: KeyPrincipal, planId: string): Promise<PlanRow> {
  const plan = await repo.findPlan(db, planId);
  if (!plan || plan.account_id !== p.userId || plan.mode !== p.mode)
    throw notFound('no such plan on this account in this mode', 'plan_not_found');
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
    slug: r.slug,
    createdAt: r.created_at.toISOString(),
  };
}
