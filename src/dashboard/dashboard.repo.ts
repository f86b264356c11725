// Queries on dashboard_sessions, taking db or trx.
import type { Database } from '../db/database.js';
import type { Db } from '../lib/db-handle.js';
import type { Insertable } from 'kysely';

export async function insertSession(db: Db, row: Insertable<Database['dashboard_sessions']>): Promise<void> {
  await db.insertInto('dashboard_sessions').values(row).execute();
}

export function findLiveSession(db: Db, idHash: string, now: Date) {
  return db
    .selectFrom('dashboard_sessions')
    .select(['id_hash', 'user_id', 'organisation_id'])
    .where('id_hash', '=', idHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteExpired(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .where('expires_at', '<=', now)
    .execute();
}

export async function setFlash(db: Db, idHash: string, flash: string | null): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ flash }).where('id_hash', '=', idHash).execute();
}

export async function findFlash(db: Db, idHash: string) {
  return (
    (
      await db
        .selectFrom('dashboard_sessions')
        .select('flash')
        .where('id_hash', '=', idHash)
        .executeTakeFirst()
    )?.flash ?? null
  );
}

/** Every session of the user but `keep`. */
export async function deleteUserSessions(db: Db, userId: string, keep?: string): Promise<void> {
  let q = db.deleteFrom('dashboard_sessions').where('user_id', '=', userId);
  if (keep !== undefined) q = q.where('id_hash', '!=', keep);
  await q.execute();
}

export async function setOrganisation(db: Db, idHash: string, organisationId: string): Promise<void> {
  await db
    .updateTable('dashboard_sessions')
    .set({ organisation_id: organisationId })
    .where('id_hash', '=', idHash)
    .execute();
}
