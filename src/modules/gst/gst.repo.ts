// Queries on the tables gst owns: gst_profiles, gst_counters and gst_documents.
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, GstDocumentsTable, GstProfilesTable, Mode } from '../../db/database.js';

export type Db = Kysely<Database> | Transaction<Database>;
export type ProfileRow = Selectable<GstProfilesTable>;
export type DocumentRow = Selectable<GstDocumentsTable>;

export function findProfile(db: Db, accountId: string, mode: Mode): Promise<ProfileRow | undefined> {
  return db
    .selectFrom('gst_profiles')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .executeTakeFirst();
}

export async function upsertProfile(db: Db, row: Insertable<GstProfilesTable>): Promise<ProfileRow> {
  const { account_id: _a, mode: _m, ...changes } = row;
  return db
    .insertInto('gst_profiles')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'mode']).doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The next number of a series: inserts the counter at 1 or increments it, in the caller's
 * transaction. The row stays locked until that transaction ends, so concurrent issuers
 * take turns, and a rollback gives the number back.
 */
export async function nextSeq(
  trx: Transaction<Database>,
  key: { accountId: string; mode: Mode; gstin: string; series: string; fy: string },
): Promise<number> {
  const row = await trx
    .insertInto('gst_counters')
    .values({
      account_id: key.accountId,
      mode: key.mode,
      gstin: key.gstin,
      series: key.series,
      fy: key.fy,
      last_seq: 1,
    })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'mode', 'gstin', 'series', 'fy'])
        .doUpdateSet({ last_seq: sql`gst_counters.last_seq + 1` }),
    )
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  return row.last_seq;
}

export async function insertDocument(
  trx: Transaction<Database>,
  row: Insertable<GstDocumentsTable>,
): Promise<void> {
  await trx.insertInto('gst_documents').values(row).execute();
}

/** A booking's document of `role`: its one sale document, or its first credit note. */
export function findByRegistration(
  db: Db,
  registrationId: string,
  role: 'sale' | 'refund',
): Promise<DocumentRow | undefined> {
  return db
    .selectFrom('gst_documents')
    .selectAll()
    .where('registration_id', '=', registrationId)
    .where('role', '=', role)
    .orderBy('issued_at')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/** Every document of a booking, oldest first. */
export function documentsOf(db: Db, registrationId: string): Promise<DocumentRow[]> {
  return db
    .selectFrom('gst_documents')
    .selectAll()
    .where('registration_id', '=', registrationId)
    .orderBy('issued_at')
    .orderBy('role', 'desc')
    .orderBy('seq')
    .execute();
}

export function findSalesOf(db: Db, registrationIds: readonly string[]): Promise<DocumentRow[]> {
  if (registrationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('gst_documents')
    .selectAll()
    .where('registration_id', '=', sql<string>`any(${[...registrationIds]}::text[])`)
    .where('role', '=', 'sale')
    .execute();
}

/** An account's documents in a mode issued on days `from` ≤ day < `to` (India time), in number order. */
export function documentsIssuedBetween(
  db: Db,
  accountId: string,
  mode: Mode,
  from: string,
  to: string,
): Promise<DocumentRow[]> {
  return db
    .selectFrom('gst_documents')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .where('issued_on', '>=', from)
    .where('issued_on', '<', to)
    .orderBy('gstin')
    .orderBy('series')
    .orderBy('fy')
    .orderBy('seq')
    .execute();
}

export function findById(db: Db, ids: readonly string[]): Promise<DocumentRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('gst_documents')
    .selectAll()
    .where('id', '=', sql<string>`any(${[...ids]}::text[])`)
    .execute();
}

/** The numbers of these bookings' documents (invoice or bill of supply, and credit note). */
export function numbersOf(db: Db, registrationIds: readonly string[]) {
  if (registrationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('gst_documents')
    .select(['registration_id', 'role', 'number'])
    .where('registration_id', '=', sql<string>`any(${[...registrationIds]}::text[])`)
    .orderBy('issued_at')
    .orderBy('seq')
    .execute();
}

/** Where an export of documents stands: the last document's place in number order. */
export interface DocumentPosition {
  gstin: string;
  series: string;
  fy: string;
  seq: number;
}

/**
 * One page of an account's documents in a mode for an export, in number order (supplier
 * GSTIN, series, financial year, number: the unique gst_documents_number serves it), issued
 * on days `from` ≤ day ≤ `to` (India time; either may be absent), after `after`.
 */
export function exportPage(
  db: Db,
  accountId: string,
  mode: Mode,
  days: { from?: string | undefined; to?: string | undefined },
  after: DocumentPosition | undefined,
  limit: number,
) {
  let q = db
    .selectFrom('gst_documents')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode);
  if (days.from !== undefined) q = q.where('issued_on', '>=', days.from);
  if (days.to !== undefined) q = q.where('issued_on', '<=', days.to);
  if (after !== undefined)
    q = q.where(
      sql<boolean>`(gstin, series, fy, seq) > (${after.gstin}, ${after.series}, ${after.fy}, ${after.seq})`,
    );
  return q.orderBy('gstin').orderBy('series').orderBy('fy').orderBy('seq').limit(limit).execute();
}
