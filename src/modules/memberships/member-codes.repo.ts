// Member codes: the queries of the codes that prove a membership (member-codes.ts).
import type { Insertable, Selectable } from 'kysely';
import type { MemberCodesTable, Mode } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';

export type MemberCodeRow = Selectable<MemberCodesTable>;

export async function insertMemberCode(db: Db, row: Insertable<MemberCodesTable>): Promise<void> {
  await db.insertInto('member_codes').values(row).execute();
}

export function findMemberCode(db: Db, id: string): Promise<MemberCodeRow | undefined> {
  return db.selectFrom('member_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The code the mail carries replaces the placeholder the request stored (only while unused and live). */
export async function setMemberCodeHash(db: Db, id: string, codeHash: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('member_codes')
    .set({ code_hash: codeHash })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The newest code asked for this address on this account and mode. */
export function latestMemberCode(
  db: Db,
  accountId: string,
  mode: Mode,
  email: string,
): Promise<MemberCodeRow | undefined> {
  return db
    .selectFrom('member_codes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .where('email', '=', email)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Counts one try on a live, unused code with tries left; undefined when it has none. */
export function takeMemberCodeTry(
  db: Db,
  id: string,
  maxTries: number,
  now: Date,
): Promise<MemberCodeRow | undefined> {
  return db
    .updateTable('member_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', maxTries)
    .returningAll()
    .executeTakeFirst();
}

/** Uses the code once: false when another request used it first. */
export async function useMemberCode(db: Db, id: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('member_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Codes lapsed a day ago are of no use to anyone. */
export async function pruneMemberCodes(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('member_codes').where('expires_at', '<', before).execute();
}
