// Plans and memberships: the queries of the memberships module (a subscribe's claims are in
// subscribe-claim.repo.ts, member codes in member-codes.repo.ts).
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { MembershipsTable, Mode, PlansTable } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';
import type { KeysetPosition } from '../../lib/keyset-cursor.js';

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

export function findPlanBySlug(db: Db, slug: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function planSlugTaken(db: Db, slug: string): Promise<boolean> {
  return (
    (await db.selectFrom('plans').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined
  );
}

export function listPlans(db: Db, accountId: string, mode: Mode): Promise<PlanRow[]> {
  return db
    .selectFrom('plans')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One page of plans, oldest first, after a position; reads limit + 1 rows to tell whether more follow. */
export function pagePlans(
  db: Db,
  accountId: string,
  mode: Mode,
  limit: number,
  after: KeysetPosition | undefined,
): Promise<PlanRow[]> {
  let q = db.selectFrom('plans').selectAll().where('account_id', '=', accountId).where('mode', '=', mode);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '>', after.at),
        eb.and([eb('created_at', '=', after.at), eb('id', '>', after.id)]),
      ]),
    );
  return q
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
}

export async function countPlans(db: Db, accountId: string, mode: Mode): Promise<number> {
  const r = await db
    .selectFrom('plans')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// ---------------------------------------------------------------- memberships

export function findMembership(db: Db, id: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByPlanAndEmail(
  db: Db,
  planId: string,
  email: string,
): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('plan_id', '=', planId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export function findByPendingOrder(db: Db, mode: Mode, orderId: string): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('pending_order_id', '=', orderId)
    .where('mode', '=', mode)
    .executeTakeFirst();
}

export function findByLastPayment(db: Db, paymentId: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('last_payment_id', '=', paymentId).executeTakeFirst();
}

export function findBySubscription(
  db: Db,
  mode: Mode,
  subscriptionId: string,
): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('mode', '=', mode)
    .executeTakeFirst();
}

/** The membership, locked until the transaction ends: what is decided on it cannot be overtaken. */
export function lockMembership(trx: Db, id: string): Promise<MembershipRow | undefined> {
  return trx.selectFrom('memberships').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The gateway refused the cancel: its ending claim goes, if it is still this one. */
export async function releaseEndingClaim(db: Db, id: string, claimedAt: Date): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ ending_claimed_at: null })
    .where('id', '=', id)
    .where('ending_claimed_at', '=', claimedAt)
    .execute();
}

export async function insertMembership(db: Db, row: Insertable<MembershipsTable>): Promise<MembershipRow> {
  return db.insertInto('memberships').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateMembership(
  db: Db,
  id: string,
  change: MembershipChange,
): Promise<MembershipRow | undefined> {
  return db.updateTable('memberships').set(change).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Applies a change unless the membership has ended meanwhile. */
export async function updateUnlessEnded(db: Db, id: string, change: MembershipChange): Promise<void> {
  await db
    .updateTable('memberships')
    .set(change)
    .where('id', '=', id)
    .where('status', '!=', 'ended')
    .execute();
}

/** Applies a change only while the membership is in `from`: false when it no longer is. */
export async function updateFromStatus(
  db: Db,
  id: string,
  from: MembershipsTable['status'],
  change: MembershipChange,
): Promise<boolean> {
  const r = await db
    .updateTable('memberships')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', from)
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** created → authorised, once: false when another delivery did it first. */
export async function markAuthorised(db: Db, id: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('memberships')
    .set({ status: 'authorised', updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'created')
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Applies a paid term while `orderId` is still the open order: undefined when it no longer is. */
export function bindTermPayment(
  db: Db,
  id: string,
  orderId: string | null,
  change: MembershipChange,
): Promise<MembershipRow | undefined> {
  return db
    .updateTable('memberships')
    .set(change)
    .where('id', '=', id)
    .where('pending_order_id', '=', orderId)
    .returningAll()
    .executeTakeFirst();
}

/** Adds a member, or updates the one already on that plan with that email. */
export function upsertMember(
  db: Db,
  row: Insertable<MembershipsTable>,
  change: MembershipChange,
): Promise<MembershipRow> {
  return db
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) => oc.columns(['plan_id', 'email']).doUpdateSet(change))
    .returningAll()
    .executeTakeFirstOrThrow();
}

type MemberFilter = { planId?: string | undefined; email?: string | undefined };

/** An account's members in one mode with their plan's kind, filtered, oldest first. */
function membersWithKind(db: Db, accountId: string, mode: Mode, filter: MemberFilter) {
  let q = db
    .selectFrom('memberships as m')
    .innerJoin('plans as pl', 'pl.id', 'm.plan_id')
    .selectAll('m')
    .select(['pl.kind as plan_kind'])
    .where('m.account_id', '=', accountId)
    .where('m.mode', '=', mode);
  if (filter.planId !== undefined) q = q.where('m.plan_id', '=', filter.planId);
  if (filter.email !== undefined) q = q.where('m.email', '=', filter.email);
  return q.orderBy('m.created_at').orderBy('m.id');
}

/** One page of them after a position (limit + 1 rows, so the caller knows whether more follow). */
export function pageMembersWithKind(
  db: Db,
  accountId: string,
  mode: Mode,
  filter: MemberFilter,
  limit: number,
  after: KeysetPosition | undefined,
) {
  let q = membersWithKind(db, accountId, mode, filter);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('m.created_at', '>', after.at),
        eb.and([eb('m.created_at', '=', after.at), eb('m.id', '>', after.id)]),
      ]),
    );
  return q.limit(limit + 1).execute();
}

export async function countMembers(
  db: Db,
  accountId: string,
  mode: Mode,
  filter: MemberFilter,
): Promise<number> {
  let q = db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('mode', '=', mode);
  if (filter.planId !== undefined) q = q.where('plan_id', '=', filter.planId);
  if (filter.email !== undefined) q = q.where('email', '=', filter.email);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** All of them (the dashboard's members screen). */
export function listMembersWithKind(db: Db, accountId: string, mode: Mode, filter: MemberFilter) {
  return membersWithKind(db, accountId, mode, filter).execute();
}

export type MemberExportRow = Awaited<ReturnType<typeof exportPage>>[number];

/**
 * One page of an account's members in a mode for an export, oldest first (created_at, then
 * id; the index memberships_account_order serves it), with their plan's name and kind: at
 * most `limit` after the membership `after`.
 */
export function exportPage(
  db: Db,
  accountId: string,
  mode: Mode,
  filter: { planId?: string | undefined },
  after: string | undefined,
  limit: number,
) {
  let q = db
    .selectFrom('memberships as m')
    .innerJoin('plans as pl', 'pl.id', 'm.plan_id')
    .selectAll('m')
    .select(['pl.name as plan_name', 'pl.kind as plan_kind'])
    .where('m.account_id', '=', accountId)
    .where('m.mode', '=', mode);
  if (filter.planId !== undefined) q = q.where('m.plan_id', '=', filter.planId);
  // The cursor is the last membership's id: its (created_at, id) read here, to the microsecond.
  if (after !== undefined)
    q = q.where(
      sql<boolean>`(m.created_at, m.id) > (select c.created_at, c.id from memberships c where c.id = ${after})`,
    );
  return q.orderBy('m.created_at').orderBy('m.id').limit(limit).execute();
}
