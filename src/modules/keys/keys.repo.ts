import { sql, type Selectable } from 'kysely';
import type { ApiKeysTable, Mode } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';

/** A key as the service handles it: everything but its hash. */
export type KeyRow = Omit<Selectable<ApiKeysTable>, 'key_hash'>;

const publicColumns = [
  'id',
  'user_id',
  'name',
  'mode',
  'class',
  'allowed_origin',
  'prefix',
  'created_at',
  'revoked_at',
  'last_used_at',
] as const;

export async function insertKey(db: Db, row: KeyRow & { key_hash: string }): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** Holds the account's keys of one mode until the transaction ends (the cap on keys in use). */
export async function lockKeys(db: Db, userId: string, mode: Mode): Promise<void> {
  await sql`select pg_advisory_xact_lock(8036, hashtext(${`${userId}:${mode}`}))`.execute(db);
}

export async function countLiveKeys(db: Db, userId: string, mode: Mode): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('mode', '=', mode)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listKeys(db: Db, userId: string): Promise<KeyRow[]> {
  return db
    .selectFrom('api_keys')
    .select(publicColumns)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export function findKeyByHash(db: Db, keyHash: string): Promise<KeyRow | undefined> {
  return db.selectFrom('api_keys').select(publicColumns).where('key_hash', '=', keyHash).executeTakeFirst();
}

export function revokeKey(db: Db, userId: string, keyId: string, at: Date): Promise<KeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .returning(publicColumns)
    .executeTakeFirst();
}

export async function isPinnedOrigin(db: Db, origin: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('allowed_origin', '=', origin)
    .where('class', '=', 'checkout')
    .where('revoked_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a use; written at most once a minute per key, so a busy key costs no write per request. */
export async function touchKey(db: Db, keyId: string, at: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(at.getTime() - 60_000))]),
    )
    .execute();
}

/** The display prefixes of these keys (the audit log shows a key by its prefix). */
export async function prefixesOf(db: Db, keyIds: readonly string[]): Promise<Map<string, string>> {
  if (keyIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'prefix'])
    .where('id', 'in', [...keyIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.prefix]));
}
