// Seat counters: one row per event ('event'), per tier ('tier:<name>'), per track
// ('track:<index>'), and 'paid' (paid tickets sold, for the fee tiers). Claiming is a
// single conditional UPDATE: each row's condition is re-checked under its row lock,
// so no interleaving of transactions, in any number of processes, takes more seats
// than a capacity allows. Rows are visited in index order, so two claims never
// lock the same rows in opposite orders.
import { type Kysely, sql } from 'kysely';
import type { Database, TierDoc, TrackDoc } from '../../db/database.js';
import type { SeatUsage } from './availability.js';

export const EVENT_SCOPE = 'event';
export const PAID_SCOPE = 'paid';
export const tierScope = (name: string) => `tier:${name}`;
export const trackScope = (index: number) => `track:${index}`;

export async function syncCounters(
  db: Kysely<Database>,
  eventId: string,
  event: { capacity: number; special_prices: readonly TierDoc[]; tracks: readonly TrackDoc[] },
): Promise<void> {
  const rows = [
    { event_id: eventId, scope: EVENT_SCOPE, capacity: event.capacity },
    { event_id: eventId, scope: PAID_SCOPE, capacity: 0 },
    ...event.special_prices.map((t) => ({
      event_id: eventId,
      scope: tierScope(t.name),
      capacity: t.capacity,
    })),
    ...event.tracks.map((t, i) => ({ event_id: eventId, scope: trackScope(i), capacity: t.capacity })),
  ];
  await db
    .insertInto('seat_counters')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['event_id', 'scope']).doUpdateSet({ capacity: (eb) => eb.ref('excluded.capacity') }),
    )
    .execute();
}

/** Takes `seats` in every scope or in none; returns each scope's new `taken`, or undefined when any is full. */
export async function claim(
  db: Kysely<Database>,
  eventId: string,
  scopes: readonly string[],
  seats: number,
): Promise<Map<string, number> | undefined> {
  const rows = await db
    .updateTable('seat_counters')
    .set({ taken: sql`taken + ${seats}` })
    .where('event_id', '=', eventId)
    .where('scope', 'in', scopes)
    .where((eb) => eb.or([eb('capacity', '=', 0), eb(sql`taken + ${seats}`, '<=', eb.ref('capacity'))]))
    .returning(['scope', 'taken'])
    .execute();
  if (rows.length !== new Set(scopes).size) return undefined;
  return new Map(rows.map((r) => [r.scope, r.taken]));
}

export async function release(
  db: Kysely<Database>,
  eventId: string,
  scopes: readonly string[],
  seats: number,
): Promise<void> {
  await db
    .updateTable('seat_counters')
    .set({ taken: sql`greatest(taken - ${seats}, 0)` })
    .where('event_id', '=', eventId)
    .where('scope', 'in', scopes)
    .execute();
}

export async function lockCounters(
  db: Kysely<Database>,
  eventId: string,
): Promise<Map<string, { taken: number; capacity: number }>> {
  await db
    .selectFrom('seat_counters')
    .select('scope')
    .where('event_id', '=', eventId)
    .where('scope', '=', EVENT_SCOPE)
    .forUpdate()
    .execute();
  const rows = await db
    .selectFrom('seat_counters')
    .select(['scope', 'taken', 'capacity'])
    .where('event_id', '=', eventId)
    .orderBy('scope')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.scope, { taken: r.taken, capacity: r.capacity }]));
}

export async function usage(db: Kysely<Database>, eventId: string): Promise<SeatUsage> {
  return (await usageOfMany(db, [eventId])).get(eventId)!;
}

/** Seat usage of several events in one query (an events page). */
export async function usageOfMany(
  db: Kysely<Database>,
  eventIds: readonly string[],
): Promise<Map<string, SeatUsage>> {
  const out = new Map<string, { total: number; byTier: Map<string, number>; byTrack: Map<number, number> }>();
  for (const id of eventIds) out.set(id, { total: 0, byTier: new Map(), byTrack: new Map() });
  if (eventIds.length === 0) return out;
  const rows = await db
    .selectFrom('seat_counters')
    .select(['event_id', 'scope', 'taken'])
    .where('event_id', 'in', eventIds)
    .execute();
  for (const r of rows) {
    const u = out.get(r.event_id)!;
    if (r.scope === EVENT_SCOPE) u.total = r.taken;
    else if (r.scope.startsWith('tier:')) u.byTier.set(r.scope.slice(5), r.taken);
    else if (r.scope.startsWith('track:')) u.byTrack.set(Number(r.scope.slice(6)), r.taken);
  }
  return out;
}

/** Drops the counters of tracks at `from` and after that nobody holds (after a track was removed). */
export async function dropTrackCountersFrom(
  db: Kysely<Database>,
  eventId: string,
  from: number,
): Promise<void> {
  await db
    .deleteFrom('seat_counters')
    .where('event_id', '=', eventId)
    .where(
      sql<boolean>`(case when scope ~ '^track:[0-9]+$' then substr(scope, 7)::int else -1 end) >= ${from}`,
    )
    .where('taken', '=', 0)
    .execute();
}
