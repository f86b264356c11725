// Queries of bookings awaiting payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md).
import { type RawBuilder, sql } from 'kysely';
import { movedClocks, onMovedClock } from '../accounts/account-clock.js';
import type { Db } from './registrations.repo.js';

/** Offline bookings still unpaid whose payBy (`lapse`) or reminder (a day before) is due at `now`, on their account's clock. */
export async function offlineDue(db: Db, now: Date, limit: number): Promise<string[]> {
  const due = (at: RawBuilder<Date> | Date) =>
    sql<boolean>`(pay_by <= (${at})::timestamptz or (reminded_at is null and pay_by - interval '1 day' <= (${at})::timestamptz))`;
  const pending = (q: typeof base) =>
    q.where('status', '=', 'pending').where('pending_reason', '=', 'offline_payment');
  const base = db.selectFrom('registrations').select('id');
  const byServiceClock = pending(base).where(due(now));
  const byMovedClock = pending(base)
    .innerJoin(movedClocks(db), 'moved_clock.account_id', 'registrations.account_id')
    .where('mode', '=', 'test')
    .where(due(onMovedClock(now)));
  const rows = await byServiceClock.union(byMovedClock).limit(limit).execute();
  return rows.map((r) => r.id);
}

/** Claims an offline booking's reminder, once: true for the one caller that set `reminded_at`. */
export async function claimReminder(db: Db, id: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('registrations')
    .set({ reminded_at: at })
    .where('id', '=', id)
    .where('reminded_at', 'is', null)
    .where('status', '=', 'pending')
    .where('pending_reason', '=', 'offline_payment')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The account's bookings (of one mode) carrying any of `references`, whatever their state now. */
export async function byOfflineReferences(
  db: Db,
  accountId: string,
  mode: 'test' | 'live',
  references: readonly string[],
) {
  if (references.length === 0) return [];
  return db
    .selectFrom('registrations')
    .select([
      'id',
      'event_id',
      'offline_reference',
      'status',
      'pending_reason',
      'offline_paid',
      'amount_paise',
    ])
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .where('offline_reference', 'in', references)
    .execute();
}
