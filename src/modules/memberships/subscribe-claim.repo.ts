// Subscribe claims: the queries of a subscribe's claim on its membership row.
import type { Insertable } from 'kysely';
import type { MembershipsTable } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';
import type { MembershipChange, MembershipRow } from './memberships.repo.js';

// A subscribe that is about to ask the gateway for an order (or a mandate) first claims
// the membership row with its receipt, so a concurrent subscribe for the same email and
// plan waits for that order instead of making a second one.

/** A new membership row, claimed: undefined when a row for this plan and email exists. */
export async function insertClaimed(
  db: Db,
  row: Insertable<MembershipsTable>,
): Promise<MembershipRow | undefined> {
  return db
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) => oc.columns(['plan_id', 'email']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Claims an existing row unchanged since `seen` and not claimed (or claimed longer ago than `staleBefore`). */
export async function claimExisting(
  db: Db,
  seen: MembershipRow,
  receipt: string,
  now: Date,
  staleBefore: Date,
): Promise<MembershipRow | undefined> {
  return db
    .updateTable('memberships')
    .set({ pending_receipt: receipt, pending_claimed_at: now })
    .where('id', '=', seen.id)
    .where('updated_at', '=', seen.updated_at)
    .where((eb) =>
      seen.pending_order_id === null
        ? eb('pending_order_id', 'is', null)
        : eb('pending_order_id', '=', seen.pending_order_id),
    )
    .where((eb) => eb.or([eb('pending_receipt', 'is', null), eb('pending_claimed_at', '<', staleBefore)]))
    .returningAll()
    .executeTakeFirst();
}

/** Applies what the gateway made while the claim is still this receipt's, and releases it. */
export async function finishClaim(
  db: Db,
  id: string,
  receipt: string,
  change: MembershipChange,
): Promise<MembershipRow | undefined> {
  return db
    .updateTable('memberships')
    .set({ ...change, pending_receipt: null, pending_claimed_at: null })
    .where('id', '=', id)
    .where('pending_receipt', '=', receipt)
    .returningAll()
    .executeTakeFirst();
}

/** The gateway failed: a row made only for this claim goes, an older row is released unchanged. */
export async function dropClaim(db: Db, id: string, receipt: string, inserted: boolean): Promise<void> {
  if (inserted) {
    await db
      .deleteFrom('memberships')
      .where('id', '=', id)
      .where('pending_receipt', '=', receipt)
      .where('subscription_id', 'is', null)
      .where('pending_order_id', 'is', null)
      .where('last_payment_id', 'is', null)
      .execute();
  }
  await db
    .updateTable('memberships')
    .set({ pending_receipt: null, pending_claimed_at: null })
    .where('id', '=', id)
    .where('pending_receipt', '=', receipt)
    .execute();
}
