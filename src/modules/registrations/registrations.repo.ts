import type { Kysely } from 'kysely';
import type { Database, RegistrationsTable } from '../../db/database.js';
import type { Insertable } from 'kysely';

export async function statusCounts(db: Kysely<Database>, eventId: string) {
  // A booking counts as checked in once anyone on it is in (the attendees hold the door state).
  const rows = await db
    .selectFrom('registrations as r')
    .select([
      'r.status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) =>
        eb.fn
          .count<number>(
            eb.case().when(eb.exists(eb.selectFrom('attendees as a').select('a.id').whereRef('a.registration_id', '=', 'r.id').where('a.checked_in_at', 'is not', null))).then(1).end(),
          )
          .as('checked_in'),
      (eb) => eb.fn.sum<number>('r.amount_paise').as('amount'),
    ])
    .where('r.event_id', '=', eventId)
    .groupBy('r.status')
    .execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n), checkedIn: Number(r.checked_in), amountPaise: Number(r.amount ?? 0) }));
}

export function listByEvent(db: Kysely<Database>, eventId: string) {
  return db.selectFrom('registrations').selectAll().where('event_id', '=', eventId).orderBy('created_at').orderBy('id').execute();
}

export async function hasPaidUnrefunded(db: Kysely<Database>, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('registrations')
    .select('id')
    .where('event_id', '=', eventId)
    .where('status', '=', 'confirmed')
    .where('amount_paise', '>', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertRegistration(db: Kysely<Database>, row: Insertable<RegistrationsTable>): Promise<void> {
  await db.insertInto('registrations').values(row).execute();
}
