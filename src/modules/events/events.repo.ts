import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';

export async function countByStatus(db: Kysely<Database>, accountId: string, mode: Mode) {
  const rows = await db
    .selectFrom('events')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .groupBy('status')
    .execute();
  const draft = Number(rows.find((r) => r.status === 'draft')?.n ?? 0);
  const published = Number(rows.find((r) => r.status === 'published')?.n ?? 0);
  return { total: draft + published, draft, published };
}
