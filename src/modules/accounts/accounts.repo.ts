import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

export type UserRow = Awaited<ReturnType<typeof findUserById>>;

export function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function insertUser(
  db: Kysely<Database>,
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

export async function setCanPublish(db: Kysely<Database>, id: string, canPublish: boolean): Promise<boolean> {
  const r = await db.updateTable('users').set({ can_publish: canPublish }).where('id', '=', id).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether the user's email address is verified (users.email_verified_at, added by migration 0008 if absent). */
export async function isEmailVerified(db: Kysely<Database>, userId: string): Promise<boolean> {
  const r = await sql<{ verified: boolean }>`select email_verified_at is not null as verified from users where id = ${userId}`.execute(db);
  return r.rows[0]?.verified === true;
}
