// The seating module's queries (Kysely, taking db | trx).
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { Database, SeatingPlansTable } from '../../db/database.js';
import type { KeysetPosition } from '../../lib/keyset-cursor.js';
import type { SeatingPlanLayout } from './plan.js';

export type SeatingPlanRow = Selectable<SeatingPlansTable>;
type Db = Kysely<Database> | Transaction<Database>;

export async function insertPlan(
  db: Db,
  row: { id: string; accountId: string; name: string; layout: SeatingPlanLayout; at: Date },
): Promise<SeatingPlanRow> {
  return db
    .insertInto('seating_plans')
    .values({
      id: row.id,
      account_id: row.accountId,
      name: row.name,
      layout: JSON.stringify(row.layout),
      seat_count: row.layout.seats.length,
      created_at: row.at,
      updated_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** When an account's plan last changed, without its seats (to tell whether a copy kept is current). */
export async function planVersion(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('seating_plans')
    .select(['id', 'updated_at'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** An account's plan, or undefined (another account's plan is as good as none). */
export async function findPlan(db: Db, accountId: string, id: string): Promise<SeatingPlanRow | undefined> {
  return db
    .selectFrom('seating_plans')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** A page of an account's plans, oldest first, without their layouts. */
export async function listPlans(db: Db, accountId: string, limit: number, after?: KeysetPosition) {
  let q = db
    .selectFrom('seating_plans')
    .select(['id', 'name', 'seat_count', 'created_at', 'updated_at'])
    .where('account_id', '=', accountId);
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

/** Replaces a plan's name and layout; undefined when the account has no such plan. */
export async function updatePlan(
  db: Db,
  accountId: string,
  id: string,
  change: { name: string; layout: SeatingPlanLayout; at: Date },
): Promise<SeatingPlanRow | undefined> {
  return db
    .updateTable('seating_plans')
    .set({
      name: change.name,
      layout: JSON.stringify(change.layout),
      seat_count: change.layout.seats.length,
      updated_at: change.at,
    })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * A plan's lock, for the transaction: exclusive while the plan changes, shared while a hold takes
 * seats by it, so a hold never takes a seat by a version of the plan that is being replaced.
 * (An advisory lock: shared holders cost the lock table nothing per row, unlike FOR SHARE.)
 */
export async function lockPlan(trx: Transaction<Database>, id: string, shared: boolean): Promise<void> {
  if (shared) await sql`select pg_advisory_xact_lock_shared(8023, hashtext(${id}))`.execute(trx);
  else await sql`select pg_advisory_xact_lock(8023, hashtext(${id}))`.execute(trx);
}
