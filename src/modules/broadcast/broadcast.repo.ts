// Broadcasts and their recipients: one row per send and one per person, so each
// person is mailed at most once per broadcast however often the request or its jobs run.
import { type Insertable, sql } from 'kysely';
import type { BroadcastRecipientStatus, BroadcastsTable } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';

/** Files a broadcast once: false when it was filed before (a repeated request). */
export async function insertBroadcast(db: Db, row: Insertable<BroadcastsTable>): Promise<boolean> {
  const r = await db
    .insertInto('broadcasts')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

export function findBroadcast(db: Db, id: string) {
  return db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Adds recipients not yet on the broadcast; returns the ones added now. */
export async function addRecipients(
  db: Db,
  broadcastId: string,
  recipients: readonly { email: string; status: BroadcastRecipientStatus; error: string | null }[],
  now: Date,
): Promise<{ email: string; status: BroadcastRecipientStatus }[]> {
  if (recipients.length === 0) return [];
  return db
    .insertInto('broadcast_recipients')
    .values(
      recipients.map((r) => ({
        broadcast_id: broadcastId,
        email: r.email,
        status: r.status,
        error: r.error,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['broadcast_id', 'email']).doNothing())
    .returning(['email', 'status'])
    .execute();
}

export function findRecipient(db: Db, broadcastId: string, email: string) {
  return db
    .selectFrom('broadcast_recipients')
    .selectAll()
    .where('broadcast_id', '=', broadcastId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Moves a recipient from one status to another; false when it was not in `from`. */
export async function moveRecipient(
  db: Db,
  broadcastId: string,
  email: string,
  from: BroadcastRecipientStatus,
  to: BroadcastRecipientStatus,
  error: string | null,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('broadcast_recipients')
    .set({ status: to, error, updated_at: now })
    .where('broadcast_id', '=', broadcastId)
    .where('email', '=', email)
    .where('status', '=', from)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** How many recipients of a broadcast are in each status. */
export async function countByStatus(
  db: Db,
  broadcastId: string,
): Promise<Record<BroadcastRecipientStatus, number>> {
  const rows = await db
    .selectFrom('broadcast_recipients')
    .select(['status', sql<string>`count(*)`.as('n')])
    .where('broadcast_id', '=', broadcastId)
    .groupBy('status')
    .execute();
  const out: Record<BroadcastRecipientStatus, number> = { queued: 0, sending: 0, delivered: 0, failed: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}
