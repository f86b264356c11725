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
  return db
    .selectFrom('promo_codes')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('code_key', '=', codeKey)
    .executeTakeFirst();
}

/** One page of an event's codes, oldest first: `limit + 1` rows after the code with id `after`. */
export function listByEvent(db: Db, eventId: string, limit: number, after?: string): Promise<PromoRow[]> {
  let q = db.selectFrom('promo_codes as p').selectAll('p').where('p.event_id', '=', eventId);
  if (after !== undefined) {
    q = q.where(
      sql<boolean>`exists (select 1 from promo_codes c where c.id = ${after} and c.event_id = ${eventId}
        and (p.created_at > c.created_at or (p.created_at = c.created_at and p.id > c.id)))`,
    );
  }
  return q
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(limit + 1)
    .execute();
}

export async function countByEvent(db: Db, eventId: string): Promise<number> {
  return Number(
    (
      await db
        .selectFrom('promo_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_id', '=', eventId)
        .executeTakeFirstOrThrow()
    ).n,
  );
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
    .where((eb) =>
      eb.or([eb('max_uses', 'is', null), eb(sql`uses + uses_reserved`, '<', eb.ref('max_uses'))]),
    )
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
