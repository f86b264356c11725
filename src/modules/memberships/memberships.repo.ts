// Plans and memberships: the queries of the memberships module.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { MembershipsTable, Mode, PlansTable } from '../../db/database.js';
import type { Db } from '../../shared/db-handle.js';

export type PlanRow = Selectable<PlansTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type MembershipChange = Updateable<MembershipsTable>;

// ---------------------------------------------------------------- plans

export async function insertPlan(db: Db, row: Insertable<PlansTable>): Promise<PlanRow> {
  return db.insertInto('plans').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findPlan(db: Db, planId: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst();
}

export function listPlans(db: Db, accountId: string, mode: Mode): Promise<PlanRow[]> {
  return db.selectFrom('plans').selectAll().where('account_id', '=', accountId).where('mode', '=', mode).orderBy('created_at').orderBy('id').execute();
}

// ---------------------------------------------------------------- memberships

export function findMembership(db: Db, id: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByPlanAndEmail(db: Db, planId: string, email: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('plan_id', '=', planId).where('email', '=', email).executeTakeFirst();
}

export function findByPendingOrder(db: Db, mode: Mode, orderId: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('pending_order_id', '=', orderId).where('mode', '=', mode).executeTakeFirst();
}

export function findByLastPayment(db: Db, paymentId: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('last_payment_id', '=', paymentId).executeTakeFirst();
}

export function findBySubscription(db: Db, mode: Mode, subscriptionId: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('subscription_id', '=', subscriptionId).where('mode', '=', mode).executeTakeFirst();
}

export async function insertMembership(db: Db, row: Insertable<MembershipsTable>): Promise<MembershipRow> {
  return db.insertInto('memberships').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateMembership(db: Db, id: string, change: MembershipChange): Promise<MembershipRow | undefined> {
  return db.updateTable('memberships').set(change).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Applies a change unless the membership has ended meanwhile. */
export async function updateUnlessEnded(db: Db, id: string, change: MembershipChange): Promise<void> {
  await db.updateTable('memberships').set(change).where('id', '=', id).where('status', '!=', 'ended').execute();
}

/** created → authorised, once: false when another delivery did it first. */
export async function markAuthorised(db: Db, id: string, at: Date): Promise<boolean> {
  const r = await db.updateTable('memberships').set({ status: 'authorised', updated_at: at }).where('id', '=', id).where('status', '=', 'created').returning('id').executeTakeFirst();
  return r !== undefined;
}

/** Applies a paid term while `orderId` is still the open order: undefined when it no longer is. */
export function bindTermPayment(db: Db, id: string, orderId: string | null, change: MembershipChange): Promise<MembershipRow | undefined> {
  return db.updateTable('memberships').set(change).where('id', '=', id).where('pending_order_id', '=', orderId).returningAll().executeTakeFirst();
}

/** Adds a member, or updates the one already on that plan with that email. */
export function upsertMember(db: Db, row: Insertable<MembershipsTable>, change: MembershipChange): Promise<MembershipRow> {
  return db
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) => oc.columns(['plan_id', 'email']).doUpdateSet(change))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An account's members in one mode with their plan's kind, oldest first. */
export function listMembersWithKind(db: Db, accountId: string, mode: Mode, filter: { planId?: string | undefined; email?: string | undefined }) {
  let q = db
    .selectFrom('memberships as m')
    .innerJoin('plans as pl', 'pl.id', 'm.plan_id')
    .selectAll('m')
    .select(['pl.kind as plan_kind'])
    .where('m.account_id', '=', accountId)
    .where('m.mode', '=', mode);
  if (filter.planId !== undefined) q = q.where('m.plan_id', '=', filter.planId);
  if (filter.email !== undefined) q = q.where('m.email', '=', filter.email);
  return q.orderBy('m.created_at').orderBy('m.id').execute();
}
