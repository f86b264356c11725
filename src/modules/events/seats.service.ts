// Seats: the counters and the short sold-out memory in front of them. This is the
// only module that sets or clears a sold-out mark: a mark is set when a booking finds
// the event full, and cleared whenever seats are freed or capacities change.
import type { Kysely, Transaction } from 'kysely';
import type { Database, Mode, TierDoc, TrackDoc } from '../../db/database.js';
import type { SeatUsage } from './availability.js';
import * as seats from './seats.repo.js';
import { EVENT_SCOPE, tierScope, trackScope } from './seats.repo.js';
import { soldOutMarks } from './sold-out.js';

export { EVENT_SCOPE, PAID_SCOPE, tierScope, trackScope } from './seats.repo.js';

/** Seat scopes a booking holds: the event, its tier, its track. */
export function scopesFor(ticketType: string, subEventId: number | null): string[] {
  const scopes = [EVENT_SCOPE];
  if (ticketType !== 'General') scopes.push(tierScope(ticketType));
  if (subEventId !== null) scopes.push(trackScope(subEventId));
  return scopes;
}

/** Takes `n` seats in every scope or in none; each scope's new `taken`, or undefined when any is full. */
export const claimSeats = seats.claim;

/**
 * What follows seats coming free, in the same transaction while it holds the event's
 * counters: the waitlist's offers (the caller says how; this module knows no waitlist).
 * Every path that frees seats (a booking ended, a capacity changed, a held seat let go)
 * goes through `releaseSeats` or `syncSeatCounters`, and both require it.
 */
export type SeatsFreed = (trx: Transaction<Database>) => Promise<void>;

export async function releaseSeats(
  trx: Transaction<Database>,
  eventId: string,
  scopes: readonly string[],
  n: number,
  then: SeatsFreed,
): Promise<void> {
  soldOutMarks.forget(eventId);
  await seats.release(trx, eventId, scopes, n);
  await then(trx);
}

/** Makes the counters match the event's capacities (creation and every capacity change). */
export async function syncSeatCounters(
  trx: Transaction<Database>,
  eventId: string,
  event: { capacity: number; special_prices: readonly TierDoc[]; tracks: readonly TrackDoc[] },
  then: SeatsFreed,
): Promise<void> {
  soldOutMarks.forget(eventId);
  await seats.syncCounters(trx, eventId, event);
  await then(trx);
}

/**
 * Locks the event's counters (its own row first, as every claim and release does, so
 * no two transactions wait on each other in opposite orders) and reads them: the
 * waitlist decides its offers under these locks.
 */
export function lockSeatCounters(
  trx: Transaction<Database>,
  eventId: string,
): Promise<Map<string, { taken: number; capacity: number }>> {
  return seats.lockCounters(trx, eventId);
}

export function usageFor(db: Kysely<Database>, eventId: string): Promise<SeatUsage> {
  return seats.usage(db, eventId);
}

/** Usage of a page of events in one query. */
export function usageForMany(
  db: Kysely<Database>,
  eventIds: readonly string[],
): Promise<Map<string, SeatUsage>> {
  return seats.usageOfMany(db, eventIds);
}

/** A booking found this event full: later requests within `ms` (SOLD_OUT_MEMORY_MS) are refused without a read. */
export function markSoldOut(
  event: { id: string; account_id: string; mode: Mode },
  now: Date,
  ms: number,
): void {
  soldOutMarks.mark(event.id, event.account_id, event.mode, now.getTime(), ms);
}

export function isMarkedSoldOut(eventId: string, accountId: string, mode: Mode, now: Date): boolean {
  return soldOutMarks.isSoldOut(eventId, accountId, mode, now.getTime());
}

export const dropTrackCountersFrom = seats.dropTrackCountersFrom;
