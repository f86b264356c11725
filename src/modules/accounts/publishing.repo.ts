// Queries on publishing_requests, taking db or trx.
import type { Db } from '../../lib/db-handle.js';

export type PublishingRequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

export function findRequest(db: Db, id: string) {
  return db.selectFrom('publishing_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertRequest(
  db: Db,
  row: { id: string; userId: string; message: string; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('publishing_requests')
    .values({
      id: row.id,
      user_id: row.userId,
      message: row.message,
      status: 'pending',
      created_at: row.createdAt,
    })
    .execute();
}

/** The account's requests, newest first. */
export function requestsOf(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('publishing_requests')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Requests in one status, oldest first (the queue staff work through), `limit + 1` rows after the cursor. */
export async function requestsByStatus(
  db: Db,
  status: 'pending' | 'granted' | 'declined',
  limit: number,
  after?: { createdAt: Date; id: string },
) {
  let q = db.selectFrom('publishing_requests').selectAll().where('status', '=', status);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '>', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
      ]),
    );
  return q
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit + 1)
    .execute();
}

export async function countByStatus(db: Db, status: 'pending' | 'granted' | 'declined'): Promise<number> {
  const r = await db
    .selectFrom('publishing_requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Decides a pending request; undefined when it is not pending (decided already, or no such request). */
export function decideRequest(
  db: Db,
  id: string,
  d: { status: 'granted' | 'declined'; reason: string | null; decidedBy: string; at: Date },
) {
  return db
    .updateTable('publishing_requests')
    .set({ status: d.status, reason: d.reason, decided_by: d.decidedBy, decided_at: d.at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}
