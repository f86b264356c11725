// Queries on the table reconciliation owns: reconcile_lease (one sweep at a time). The
// orders it settles are the payments module's (payments/order-checks.ts).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';

export type Db = Kysely<Database> | Transaction<Database>;

// ---------------------------------------------------------------- the lease

/** Takes (or renews) the sweep's lease until `until`; false when another holder has it. */
export async function takeLease(db: Db, holder: string, now: Date, until: Date): Promise<boolean> {
  const r = await db
    .updateTable('reconcile_lease')
    .set({ holder, until })
    .where('name', '=', 'sweep')
    .where((eb) => eb.or([eb('until', '<', now), eb('holder', '=', holder)]))
    .returning('name')
    .executeTakeFirst();
  return r !== undefined;
}

export async function releaseLease(db: Db, holder: string): Promise<void> {
  await db
    .updateTable('reconcile_lease')
    .set({ holder: null, until: new Date(0) })
    .where('name', '=', 'sweep')
    .where('holder', '=', holder)
    .execute();
}
