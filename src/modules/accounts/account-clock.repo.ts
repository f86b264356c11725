// Each test account's clock offset (the table keeps its sandbox_ name from when the sandbox
// owned it).
import type { Db } from '../../lib/db-handle.js';

export async function clockOffset(db: Db, accountId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('sandbox_clocks')
    .select('offset_ms')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? Number(row.offset_ms) : undefined;
}

/** Every test clock's offset, as a sub-query (account_id, offset_ms) for another module's query to join. */
export function clockOffsets(db: Db) {
  return db.selectFrom('sandbox_clocks').select(['account_id', 'offset_ms']);
}

export async function advanceClock(db: Db, accountId: string, ms: number): Promise<void> {
  await db
    .insertInto('sandbox_clocks')
    .values({ account_id: accountId, offset_ms: ms })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({ offset_ms: (eb) => eb('sandbox_clocks.offset_ms', '+', ms) }),
    )
    .execute();
}

export async function resetClock(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('sandbox_clocks').where('account_id', '=', accountId).execute();
}
