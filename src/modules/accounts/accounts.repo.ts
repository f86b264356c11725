import type { Db } from '../../shared/db-handle.js';

export type UserRow = Awaited<ReturnType<typeof findUserById>>;

export function findUserById(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function insertUser(
  db: Db,
  user: { id: string; email: string; passwordHash: string; name: string; phone: string | null; createdAt: Date },
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
}

export async function setCanPublish(db: Db, id: string, canPublish: boolean): Promise<boolean> {
  const r = await db.updateTable('users').set({ can_publish: canPublish }).where('id', '=', id).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function countUsers(db: Db): Promise<number> {
  const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether the account's email address has been verified. */
export async function isEmailVerified(db: Db, userId: string): Promise<boolean> {
  const r = await db.selectFrom('users').select('email_verified_at').where('id', '=', userId).executeTakeFirst();
  return r?.email_verified_at != null;
}
