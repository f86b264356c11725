// Queries on two_factor and two_factor_recovery_codes (and the organisation's requirement on its
// users row), taking db or trx. Every change that must happen once is one conditional statement.
import type { Db } from '../../lib/db-handle.js';

export function findTwoFactor(db: Db, userId: string) {
  return db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** A new secret waiting for its first code; replaces an earlier one not yet confirmed, never an enabled one. */
export async function savePending(db: Db, userId: string, sealed: string, now: Date): Promise<boolean> {
  const row = await db
    .insertInto('two_factor')
    .values({ user_id: userId, secret_sealed: sealed, enabled_at: null, last_step: null, created_at: now })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret_sealed: sealed, last_step: null, created_at: now })
        .where('two_factor.enabled_at', 'is', null),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Enables the pending secret `sealed` with the step of its first code; false if something else won. */
export async function enable(db: Db, userId: string, sealed: string, step: number, now: Date) {
  const row = await db
    .updateTable('two_factor')
    .set({ enabled_at: now, last_step: step })
    .where('user_id', '=', userId)
    .where('secret_sealed', '=', sealed)
    .where('enabled_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes the code of time step `step`: only if no code of this step or a later one was taken. */
export async function takeStep(db: Db, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', String(step))]))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function replaceRecoveryCodes(db: Db, userId: string, hashes: readonly string[], now: Date) {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now, used_at: null })))
    .execute();
}

/** Uses a recovery code: one statement, so of two concurrent uses exactly one wins. */
export async function useRecoveryCode(db: Db, userId: string, hash: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function remove(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
}

/** Which of `userIds` have two-factor enabled. */
export async function enabledAmong(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('two_factor')
    .select('user_id')
    .where('user_id', 'in', userIds)
    .where('enabled_at', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

export async function isRequired(db: Db, organisationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('two_factor_required')
    .where('id', '=', organisationId)
    .executeTakeFirst();
  return row?.two_factor_required === true;
}

export async function setRequired(db: Db, organisationId: string, required: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ two_factor_required: required })
    .where('id', '=', organisationId)
    .execute();
}

/** Whether any organisation the person belongs to requires two-factor. */
export async function requiredOfPerson(db: Db, personId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organisation_members as m')
    .innerJoin('users as o', 'o.id', 'm.organisation_id')
    .select('m.organisation_id')
    .where('m.user_id', '=', personId)
    .where('o.two_factor_required', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
