import { sql } from 'kysely';
import type { Db } from '../../lib/db-handle.js';

export type UserRow = Awaited<ReturnType<typeof findUserById>>;

export function findUserById(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUsersById(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', sql<string>`any(${[...ids]}::text[])`)
    .execute();
}

export async function setMailSettings(
  db: Db,
  userId: string,
  s: { orgName: string | null; replyTo: string | null },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ org_name: s.orgName, reply_to: s.replyTo })
    .where('id', '=', userId)
    .execute();
}

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** A new account: the person, and the organisation they own (call it in a transaction). */
export async function insertUser(
  db: Db,
  user: {
    id: string;
    email: string;
    passwordHash: string;
    name: string;
    phone: string | null;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      password_hash: user.passwordHash,
      name: user.name,
      phone: user.phone,
      created_at: user.createdAt,
    })
    .execute();
  // Every account is an organisation whose first member, its owner, is the person who made it.
  await db
    .insertInto('organisation_members')
    .values({
      organisation_id: user.id,
      user_id: user.id,
      role: 'owner',
      event_ids: null,
      created_at: user.createdAt,
    })
    .execute();
}

export async function setPasswordHash(db: Db, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

export async function setCanPublish(db: Db, id: string, canPublish: boolean): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ can_publish: canPublish })
    .where('id', '=', id)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function countUsers(db: Db): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Marks the address verified, keeping the first verification time; only while it is still the account's address. */
export async function markEmailVerified(db: Db, id: string, email: string, at: Date): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(at)) }))
    .where('id', '=', id)
    .where('email', '=', email)
    .execute();
}

export async function insertVerification(
  db: Db,
  row: { tokenHash: string; userId: string; email: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('email_verifications')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      email: row.email,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Uses the token if it is unused and unexpired; answers whose it was, or undefined. */
export function consumeVerification(db: Db, tokenHash: string, userId: string, now: Date) {
  return db
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email'])
    .executeTakeFirst();
}

export function findVerification(db: Db, tokenHash: string) {
  return db
    .selectFrom('email_verifications')
    .select(['user_id', 'used_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Raises the account's session epoch, so every idToken issued before is refused; answers the new epoch. */
export async function raiseSessionEpoch(db: Db, id: string): Promise<number> {
  const r = await db
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
    .where('id', '=', id)
    .returning('session_epoch')
    .executeTakeFirstOrThrow();
  return r.session_epoch;
}

/** Locks sign-in until a password reset; true only for the call that locked it. */
export async function lockLogin(db: Db, id: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ login_locked_at: at })
    .where('id', '=', id)
    .where('login_locked_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function clearLoginLock(db: Db, id: string): Promise<void> {
  await db.updateTable('users').set({ login_locked_at: null }).where('id', '=', id).execute();
}

export async function insertPasswordReset(
  db: Db,
  row: { tokenHash: string; userId: string; email: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      email: row.email,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Uses a reset token if it is unused and unexpired; answers whose it was, or undefined. */
export function consumePasswordReset(db: Db, tokenHash: string, now: Date) {
  return db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email'])
    .executeTakeFirst();
}

export function findPasswordReset(db: Db, tokenHash: string) {
  return db
    .selectFrom('password_resets')
    .select(['email', 'used_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** A reset ends every other reset link of the account. */
export async function expirePasswordResets(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
