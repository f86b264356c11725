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

export async function countUseByCodeKey(db: Db, eventId: string, codeKey: string): Promise<void> {
  await db.updateTable('promo_codes').set({ uses: sql`uses + 1` }).where('event_id', '=', eventId).where('code_key', '=', codeKey).execute();
}
