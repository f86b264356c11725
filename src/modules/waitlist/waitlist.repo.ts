// Waitlist entries: one row per person waiting for a choice (the event, a track, a tier).
// Their order is `seq` (an identity column: arrival order across every process). An
// `offered` row holds one seat on the event's counters until it is booked or lapses.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { WaitlistEntriesTable } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';
import { movedClocks, onMovedClock } from '../accounts/account-clock.js';

export type EntryRow = Selectable<WaitlistEntriesTable>;

/** Joins the queue; undefined when this email already waits (or holds an offer) for the same choice. */
export async function insertEntry(
  db: Db,
  row: Insertable<WaitlistEntriesTable>,
): Promise<EntryRow | undefined> {
  return db
    .insertInto('waitlist_entries')
    .values(row)
    .onConflict((oc) => oc.doNothing()) // waitlist_entries_once: one open entry per email and choice
    .returningAll()
    .executeTakeFirst();
}

export function findOpenEntry(
  db: Db,
  eventId: string,
  email: string,
  ticketType: string,
  subEventId: number | null,
) {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('ticket_type', '=', ticketType)
    .where(sql`coalesce(sub_event_id, -1)`, '=', subEventId ?? -1)
    .where('status', 'in', ['waiting', 'offered'])
    .executeTakeFirst();
}

export function findEntry(db: Db, id: string): Promise<EntryRow | undefined> {
  return db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Places ahead of an entry in its queue (waiting for the same choice), plus one. */
export async function positionOf(db: Db, entry: EntryRow): Promise<number> {
  const r = await db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('event_id', '=', entry.event_id)
    .where('status', '=', 'waiting')
    .where('seq', '<', entry.seq)
    .where('ticket_type', '=', entry.ticket_type)
    .where(sql`coalesce(sub_event_id, -1)`, '=', entry.sub_event_id ?? -1)
    .executeTakeFirstOrThrow();
  return Number(r.n) + 1;
}

/** The first `limit` waiting entries of an event, in arrival order. */
export function firstWaiting(db: Db, eventId: string, limit: number): Promise<EntryRow[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('status', '=', 'waiting')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

export async function countWaiting(db: Db, eventId: string, trackIndex: number | undefined): Promise<number> {
  let q = db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('event_id', '=', eventId)
    .where('status', '=', 'waiting');
  if (trackIndex !== undefined) q = q.where('sub_event_id', '=', trackIndex);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function markOffered(
  db: Db,
  ids: readonly string[],
  offeredAt: Date,
  expiresAt: Date,
): Promise<EntryRow[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable('waitlist_entries')
    .set({ status: 'offered', offered_at: offeredAt, expires_at: expiresAt })
    .where('id', 'in', ids)
    .where('status', '=', 'waiting')
    .returningAll()
    .execute();
}

/** A booking made from the offer takes its seat: only while the offer still holds it. */
export function markBooked(
  db: Db,
  id: string,
  registrationId: string,
  at: Date,
): Promise<EntryRow | undefined> {
  return db
    .updateTable('waitlist_entries')
    .set({ status: 'booked', registration_id: registrationId, ended_at: at })
    .where('id', '=', id)
    .where('status', '=', 'offered')
    .returningAll()
    .executeTakeFirst();
}

/** Offers of an event whose time is up, locked (the caller holds the event's counters). */
export function expiredOffers(db: Db, eventId: string, now: Date): Promise<EntryRow[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('status', '=', 'offered')
    .where('expires_at', '<=', now)
    .orderBy('seq')
    .forUpdate()
    .execute();
}

/** Events with an offer whose time is up (the sweep): by the service clock, or a test event's by its account's moved clock. */
export async function eventsWithExpiredOffers(db: Db, now: Date, limit: number): Promise<string[]> {
  const byServiceClock = db
    .selectFrom('waitlist_entries')
    .select('event_id')
    .where('status', '=', 'offered')
    .where('expires_at', '<=', now);
  const byMovedClock = db
    .selectFrom('waitlist_entries')
    .innerJoin(movedClocks(db), 'moved_clock.account_id', 'waitlist_entries.account_id')
    .select('event_id')
    .where('mode', '=', 'test')
    .where('status', '=', 'offered')
    .where('expires_at', '<=', onMovedClock(now));
  const rows = await byServiceClock.union(byMovedClock).limit(limit).execute();
  return rows.map((r) => r.event_id);
}

export function endEntries(
  db: Db,
  ids: readonly string[],
  from: 'offered' | 'waiting',
  to: 'lapsed' | 'removed',
  at: Date,
): Promise<EntryRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('waitlist_entries')
    .set({ status: to, ended_at: at })
    .where('id', 'in', ids)
    .where('status', '=', from)
    .returningAll()
    .execute();
}

/** An event's entries for the organiser, in arrival order, `limit + 1` for paging. */
export function listEntries(
  db: Db,
  eventId: string,
  q: { limit: number; afterSeq?: string | undefined; open?: boolean },
): Promise<EntryRow[]> {
  let query = db.selectFrom('waitlist_entries').selectAll().where('event_id', '=', eventId);
  if (q.open) query = query.where('status', 'in', ['waiting', 'offered']);
  if (q.afterSeq !== undefined) query = query.where('seq', '>', q.afterSeq);
  return query
    .orderBy('seq')
    .limit(q.limit + 1)
    .execute();
}

export async function countEntries(db: Db, eventId: string, open: boolean): Promise<number> {
  let q = db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('event_id', '=', eventId);
  if (open) q = q.where('status', 'in', ['waiting', 'offered']);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Whether any entry (of any status) names track `index` or a later one. */
export async function anyOnTracksFrom(db: Db, eventId: string, index: number): Promise<boolean> {
  const row = await db
    .selectFrom('waitlist_entries')
    .select('id')
    .where('event_id', '=', eventId)
    .where('sub_event_id', '>=', index)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The event's open offers (each holds a seat on the counters), by track and ticket type. */
export async function offeredBy(db: Db, eventId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('waitlist_entries')
    .select(['sub_event_id', 'ticket_type', (eb) => eb.fn.countAll<string>().as('n')])
    .where('event_id', '=', eventId)
    .where('status', '=', 'offered')
    .groupBy(['sub_event_id', 'ticket_type'])
    .execute();
  return new Map(rows.map((r) => [`${r.sub_event_id}|${r.ticket_type}`, Number(r.n)]));
}
