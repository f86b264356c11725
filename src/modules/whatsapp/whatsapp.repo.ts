// The whatsapp_messages table: one row per ticket sent over WhatsApp, its Cloud API
// message id and the furthest delivery status reported.
import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Database, WhatsAppMessagesTable, WhatsAppStatus } from '../../db/database.js';

type Db = Kysely<Database> | Transaction<Database>;
export type WhatsAppMessageRow = Selectable<WhatsAppMessagesTable>;

/** Statuses in the order a message goes through them; one is never replaced by an earlier one. */
export const STATUS_ORDER: readonly WhatsAppStatus[] = [
  'unsent',
  'accepted',
  'sent',
  'delivered',
  'read',
  'failed',
];
const rank = (column: RawBuilder<unknown>) =>
  sql<number>`array_position(${sql.val(STATUS_ORDER)}::text[], ${column})`;

/** The row of a registration's WhatsApp ticket, made (`unsent`) on the first try. */
export async function rowFor(
  db: Db,
  row: { id: string; registrationId: string; phone: string; now: Date },
): Promise<WhatsAppMessageRow> {
  await db
    .insertInto('whatsapp_messages')
    .values({
      id: row.id,
      registration_id: row.registrationId,
      phone: row.phone,
      wamid: null,
      status: 'unsent',
      status_at: row.now,
      error_code: null,
      created_at: row.now,
    })
    .onConflict((oc) => oc.column('registration_id').doNothing())
    .execute();
  return db
    .selectFrom('whatsapp_messages')
    .selectAll()
    .where('registration_id', '=', row.registrationId)
    .executeTakeFirstOrThrow();
}

/** A try the Cloud API refused (or that did not reach it), while nothing was accepted. */
export async function markUnsent(db: Db, id: string, at: Date, errorCode: number | null): Promise<void> {
  await db
    .updateTable('whatsapp_messages')
    .set({ status_at: at, error_code: errorCode })
    .where('id', '=', id)
    .where('wamid', 'is', null)
    .execute();
}

/** The Cloud API accepted the message: its id, unless a status webhook got here first. */
export async function markAccepted(db: Db, id: string, wamid: string, at: Date): Promise<void> {
  await db
    .updateTable('whatsapp_messages')
    .set({
      wamid,
      status: sql<WhatsAppStatus>`case when status = 'unsent' then 'accepted' else status end`,
      status_at: sql<Date>`case when status = 'unsent' then ${at}::timestamptz else status_at end`,
      error_code: sql<number | null>`case when status = 'unsent' then null else error_code end`,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A status from a webhook, found by the message id (or, when the send's answer was lost,
 * by our row id echoed in `biz_opaque_callback_data`). Applied only if it is further along
 * than what is recorded: duplicates and late arrivals change nothing. True when applied.
 */
export async function advance(
  db: Db,
  s: {
    wamid: string;
    opaque: string | undefined;
    status: WhatsAppStatus;
    at: Date;
    errorCode: number | null;
  },
): Promise<boolean> {
  const r = await db
    .updateTable('whatsapp_messages')
    .set({
      status: s.status,
      status_at: s.at,
      error_code: s.errorCode,
      wamid: sql<string>`coalesce(wamid, ${s.wamid})`,
    })
    .where((eb) =>
      eb.or([
        eb('wamid', '=', s.wamid),
        ...(s.opaque === undefined ? [] : [eb.and([eb('wamid', 'is', null), eb('id', '=', s.opaque)])]),
      ]),
    )
    .where(rank(sql.ref('status')), '<', rank(sql.val(s.status)))
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export function byRegistrations(db: Db, registrationIds: readonly string[]): Promise<WhatsAppMessageRow[]> {
  if (registrationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('whatsapp_messages')
    .selectAll()
    .where('registration_id', 'in', registrationIds)
    .execute();
}
