// Webhook configurations (one per account and mode) and the record of deliveries.
import type { Insertable } from 'kysely';
import type { Mode, WebhookConfigsTable, WebhookDeliveriesTable } from '../../db/database.js';
import type { Db } from '../../shared/db-handle.js';

export function findConfig(db: Db, accountId: string, mode: Mode) {
  return db.selectFrom('webhook_configs').selectAll().where('account_id', '=', accountId).where('mode', '=', mode).executeTakeFirst();
}

export async function upsertConfig(db: Db, row: Insertable<WebhookConfigsTable>): Promise<void> {
  await db
    .insertInto('webhook_configs')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['account_id', 'mode']).doUpdateSet({ url: row.url, enabled: row.enabled, events: row.events, secret_sealed: row.secret_sealed, updated_at: row.updated_at }),
    )
    .execute();
}

export async function deleteConfig(db: Db, accountId: string, mode: Mode): Promise<void> {
  await db.deleteFrom('webhook_configs').where('account_id', '=', accountId).where('mode', '=', mode).execute();
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
