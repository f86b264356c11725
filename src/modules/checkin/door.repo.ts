// The door's own tables: passes, and the scans devices have synced.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

type Db = Kysely<Database>;

export function insertPass(
  db: Db,
  row: {
    id: string;
    event_id: string;
    label: string;
    token_hash: string;
    created_by: string;
    created_at: Date;
    expires_at: Date | null;
    scope_track_index: number | null;
    scope_date: string | null;
  },
) {
  return db.insertInto('door_passes').values(row).execute();
}

export function passByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('door_passes')
    .select(['id', 'event_id', 'label', 'expires_at', 'revoked_at', 'scope_track_index', 'scope_date'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function passesOf(db: Db, eventId: string) {
  return db
    .selectFrom('door_passes')
    .select(['id', 'label', 'created_at', 'expires_at', 'revoked_at', 'scope_track_index', 'scope_date'])
    .where('event_id', '=', eventId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function revokePass(db: Db, eventId: string, passId: string, at: Date): Promise<boolean> {
  const found = await db
    .selectFrom('door_passes')
    .select('id')
    .where('event_id', '=', eventId)
    .where('id', '=', passId)
    .executeTakeFirst();
  if (!found) return false;
  await db
    .updateTable('door_passes')
    .set({ revoked_at: at })
    .where('id', '=', passId)
    .where('revoked_at', 'is', null)
    .execute();
  return true;
}

/** The live passes `createdBy` made, with their events. */
export function livePassesBy(db: Db, createdBy: string) {
  return db
    .selectFrom('door_passes')
    .select(['id', 'event_id'])
    .where('created_by', '=', createdBy)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes these passes (those not revoked already). */
export async function revokePasses(db: Db, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('door_passes')
    .set({ revoked_at: at })
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .execute();
}

export function passLabels(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('door_passes').select(['id', 'label']).where('id', 'in', ids).execute();
}

export function syncedScans(
  db: Db,
  eventId: string,
  holder: string,
  deviceId: string,
  seqs: readonly number[],
) {
  if (seqs.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('door_sync_scans')
    .select(['seq', 'result'])
    .where('event_id', '=', eventId)
    .where('holder', '=', holder)
    .where('device_id', '=', deviceId)
    .where('seq', 'in', seqs)
    .execute();
}

/** Keeps the first answer given for (event, holder, device, seq); answers the one kept. */
export async function keepSyncedScan(
  db: Db,
  row: {
    event_id: string;
    holder: string;
    device_id: string;
    seq: number;
    result: Record<string, unknown>;
    created_at: Date;
  },
) {
  const inserted = await db
    .insertInto('door_sync_scans')
    .values({ ...row, result: JSON.stringify(row.result) })
    .onConflict((oc) => oc.columns(['event_id', 'holder', 'device_id', 'seq']).doNothing())
    .returning('seq')
    .executeTakeFirst();
  if (inserted) return row.result;
  const kept = await db
    .selectFrom('door_sync_scans')
    .select('result')
    .where('event_id', '=', row.event_id)
    .where('holder', '=', row.holder)
    .where('device_id', '=', row.device_id)
    .where('seq', '=', row.seq)
    .executeTakeFirstOrThrow();
  return kept.result;
}
