// Webhook configurations (one per account and mode) and the record of deliveries.
import type { Insertable } from 'kysely';
import type { Mode, WebhookConfigsTable, WebhookDeliveriesTable } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';
import type { KeysetPosition } from '../../lib/keyset-cursor.js';

export function findConfig(db: Db, accountId: string, mode: Mode) {
  return db
    .selectFrom('webhook_configs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .executeTakeFirst();
}

export async function upsertConfig(db: Db, row: Insertable<WebhookConfigsTable>): Promise<void> {
  await db
    .insertInto('webhook_configs')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['account_id', 'mode']).doUpdateSet({
        url: row.url,
        enabled: row.enabled,
        events: row.events,
        secret_sealed: row.secret_sealed,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function deleteConfig(db: Db, accountId: string, mode: Mode): Promise<void> {
  await db
    .deleteFrom('webhook_configs')
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .execute();
}

export async function insertDelivery(db: Db, row: Insertable<WebhookDeliveriesTable>): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

export function listDeliveries(db: Db, accountId: string, mode: Mode, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One page of deliveries, newest first, before a position (limit + 1 rows). */
export function pageDeliveries(
  db: Db,
  accountId: string,
  mode: Mode,
  limit: number,
  after: KeysetPosition | undefined,
) {
  let q = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', after.at),
        eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)]),
      ]),
    );
  return q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

export async function countDeliveries(db: Db, accountId: string, mode: Mode): Promise<number> {
  const r = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Deletes deliveries recorded before `before`, a batch at a time; returns how many went. */
export async function pruneDeliveries(db: Db, before: Date, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await db
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', (qb) =>
        qb.selectFrom('webhook_deliveries').select('id').where('created_at', '<', before).limit(batch),
      )
      .executeTakeFirst();
    const n = Number(r.numDeletedRows);
    total += n;
    if (n < batch) return total;
  }
}

/** Delivery attempts since `since` that failed (no 2xx answer), for /metrics. */
export async function countFailedDeliveriesSince(db: Db, since: Date): Promise<number> {
  const r = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', since)
    .where((eb) =>
      eb.or([eb('status_code', 'is', null), eb('status_code', '<', 200), eb('status_code', '>=', 300)]),
    )
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
