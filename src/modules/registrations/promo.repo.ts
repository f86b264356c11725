// Queries on promo_codes, owned by registrations.
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, PromoCodesTable } from '../../db/database.js';

type Db = Kysely<Database> | Transaction<Database>;
export type PromoRow = Selectable<PromoCodesTable>;

export async function insertPromo(db: Db, row: Insertable<PromoCodesTable>): Promise<void> {
  await db.insertInto('promo_codes').values(row).execute();
}

export function findPromo(db: Db, id: string): Promise<PromoRow | undefined> {
  return db.selectFrom('promo_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByCodeKey(db: Db, eventId: string, codeKey: string): Promise<PromoRow | undefined> {
  return db.selectFrom('promo_codes').selectAll().where('event_id', '=', eventId).where('code_key', '=', codeKey).executeTakeFirst();
}

export function listByEvent(db: Db, eventId: string): Promise<PromoRow[]> {
  return db.selectFrom('promo_codes').selectAll().where('event_id', '=', eventId).orderBy('created_at').orderBy('id').execute();
}

/**
 * Reserves one use, atomically: the row's condition is re-checked under its row lock,
 * so no interleaving across any number of processes holds more than `max_uses`.
 */
export async function reserveUse(db: Db, eventId: string, codeKey: string): Promise<boolean> {
  const r = await db
    .updateTable('promo_codes')
    .set({ uses_reserved: sql`uses_reserved + 1` })
    .where('event_id', '=', eventId)
    .where('code_key', '=', codeKey)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb(sql`uses + uses_reserved`, '<', eb.ref('max_uses'))]))
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** A reserved use becomes a use (its booking was confirmed); never refused. */
export async function useReservation(db: Db, eventId: string, codeKey: string): Promise<void> {
  await db
    .updateTable('promo_codes')
    .set({ uses: sql`uses + 1`, uses_reserved: sql`greatest(uses_reserved - 1, 0)` })
    .where('event_id', '=', eventId)
    .where('code_key', '=', codeKey)
    .execute();
}

/** A reserved use goes back (its booking ended unpaid). */
export async function releaseReservation(db: Db, eventId: string, codeKey: string): Promise<void> {
  await db
    .updateTable('promo_codes')
    .set({ uses_reserved: sql`greatest(uses_reserved - 1, 0)` })
    .where('event_id', '=', eventId)
    .where('code_key', '=', codeKey)
    .execute();
}
