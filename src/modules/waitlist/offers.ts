// Offers: a seat that comes free goes to the first in line who can use it, held for them
// on the event's seat counters (a held seat counts as taken, so nobody else can buy it)
// until they book or the offer lapses, when it passes on.
//
// Every decision is made while the transaction holds the event's counters (the event's
// own row first, as every claim and release takes it), so offers of one event happen one
// transaction at a time across all processes: a seat freed is offered to exactly one
// person, in the order people joined (`seq`).
//
// A test event's offers run on its account's clock (account-clock.ts): offered and expiring
// by it, and lapsing when it is moved on past their expiry.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { enqueue, enqueueRows, jobRow } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import { nowFor } from '../accounts/account-clock.js';
import * as events from '../events/events.service.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import * as repo from './waitlist.repo.js';
import type { EntryRow } from './waitlist.repo.js';
import { lapseJob, offerMailJob } from './waitlist.jobs.js';
import { type SeatedRoom, seatedRoom } from './seated-room.js';

export type OfferDeps = { clock: Clock; ids: Ids };

/** How many waiting entries one pass looks at (a freed seat rarely needs more than the first few). */
const PASS = 500;

export const entryScopes = (e: Pick<EntryRow, 'ticket_type' | 'sub_event_id'>) =>
  events.scopesFor(e.ticket_type, e.sub_event_id);

/**
 * Offers whatever seats are free to whoever waits, first come first offered. Runs in the
 * transaction that freed them (a booking ended, a capacity raised, an offer lapsed or
 * removed). Cheap when nobody waits: one indexed read, no lock.
 */
export async function offerSeats(
  trx: Transaction<Database>,
  deps: OfferDeps,
  eventId: string,
): Promise<EntryRow[]> {
  if ((await repo.firstWaiting(trx, eventId, 1)).length === 0) return [];
  const event = (await events.findEvent(trx, eventId))!;
  const now = await nowFor({ db: trx, clock: deps.clock }, event.account_id, event.mode);
  const chosen = await chooseEntries(trx, eventId, seatedRoom(trx, event, now));
  if (chosen.length === 0) return [];
  for (const entry of chosen) {
    if (!(await events.claimSeats(trx, eventId, entryScopes(entry), 1)))
      throw new Error(`waitlist: counted room for ${entry.id} but the claim failed`);
  }
  const offered: EntryRow[] = [];
  const byMinutes = new Map<number, EntryRow[]>();
  for (const entry of chosen) {
    const minutes = events.waitlistFor(event, entry.sub_event_id).offerMinutes;
    byMinutes.set(minutes, [...(byMinutes.get(minutes) ?? []), entry]);
  }
  for (const [minutes, entries] of byMinutes) {
    const expiresAt = new Date(now.getTime() + minutes * 60_000);
    const rows = await repo.markOffered(
      trx,
      entries.map((e) => e.id),
      now,
      expiresAt,
    );
    if (rows.length !== entries.length)
      throw new Error('waitlist: an entry chosen under the lock was not waiting');
    offered.push(...rows);
    // The lapse, durable: a worker lets the seat go at expiresAt, by the service clock (the
    // sweep is the safety net, and lapses a test offer whose account's clock was moved on).
    await enqueue(
      trx,
      deps,
      lapseJob,
      { eventId },
      { runAt: new Date(deps.clock.now().getTime() + minutes * 60_000) },
    );
  }
  await enqueueRows(
    trx,
    deps,
    offered.map((e) => jobRow(deps, offerMailJob, { entryId: e.id })),
  );
  await announceOffers(trx, deps, event, offered);
  return offered;
}

/**
 * The waiting entries that fit, in order, under the seat counters' lock: each takes a seat of
 * the event and of its track or day (and, seated track by track, a seat of its category in its
 * session: `seats`), and an entry that does not fit lets the next ones try.
 */
async function chooseEntries(
  trx: Transaction<Database>,
  eventId: string,
  seats: SeatedRoom,
): Promise<EntryRow[]> {
  const counters = await events.lockSeatCounters(trx, eventId);
  const waiting = await repo.firstWaiting(trx, eventId, PASS);
  const room = (scope: string) => {
    const c = counters.get(scope);
    return c !== undefined && (c.capacity === 0 || c.taken + 1 <= c.capacity);
  };
  const chosen: EntryRow[] = [];
  for (const entry of waiting) {
    if (!room(events.EVENT_SCOPE)) break;
    const scopes = entryScopes(entry);
    if (!scopes.every(room) || !(await seats.has(entry.sub_event_id, entry.ticket_type))) continue;
    for (const s of scopes) counters.get(s)!.taken++;
    seats.take(entry.sub_event_id, entry.ticket_type);
    chosen.push(entry);
  }
  return chosen;
}

/** A `waitlist.offered` webhook for each entry offered a seat. */
async function announceOffers(
  trx: Transaction<Database>,
  deps: OfferDeps,
  event: NonNullable<Awaited<ReturnType<typeof events.findEvent>>>,
  offered: readonly EntryRow[],
): Promise<void> {
  for (const e of offered) {
    await webhooks.emit(trx, deps, {
      accountId: event.account_id,
      mode: event.mode,
      type: 'waitlist.offered',
      data: {
        entryId: e.id,
        eventId: event.id,
        eventTitle: event.title,
        name: e.name,
        email: e.email,
        ticketType: e.ticket_type,
        subEventId: e.sub_event_id === null ? null : String(e.sub_event_id),
        offeredAt: e.offered_at!.toISOString(),
        expiresAt: e.expires_at!.toISOString(),
      },
    });
  }
}

/**
 * A booking made from an offer is confirmed: it takes the offer's held seat. Answers the
 * scopes the seat was held on, or undefined when the offer no longer holds one (lapsed
 * and passed on, or used): the booking then claims seats like any other.
 */
export async function takeHold(
  trx: Transaction<Database>,
  entryId: string,
  registrationId: string,
  now: Date,
): Promise<string[] | undefined> {
  const row = await repo.markBooked(trx, entryId, registrationId, now);
  return row ? entryScopes(row) : undefined;
}

/** Lets held seats go (lapsed or removed offers) and offers them on, under the event's counters. */
export async function releaseHolds(
  trx: Transaction<Database>,
  deps: OfferDeps,
  eventId: string,
  ended: readonly EntryRow[],
): Promise<void> {
  const offerOn = (t: Transaction<Database>) => offerSeats(t, deps, eventId).then(() => undefined);
  for (const [i, e] of ended.entries()) {
    // The last release offers every seat let go at once, in line order.
    await events.releaseSeats(
      trx,
      eventId,
      entryScopes(e),
      1,
      i === ended.length - 1 ? offerOn : async () => {},
    );
  }
}

/** Offers of one event whose time is up (on its account's clock) lapse; their seats pass to the next in line. */
export async function lapseDue(
  deps: OfferDeps & { db: import('kysely').Kysely<Database> },
  eventId: string,
): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    await events.lockSeatCounters(trx, eventId);
    const event = await events.findEvent(trx, eventId);
    if (!event) return 0;
    const now = await nowFor({ db: trx, clock: deps.clock }, event.account_id, event.mode);
    const due = await repo.expiredOffers(trx, eventId, now);
    if (due.length === 0) return 0;
    const ended = await repo.endEntries(
      trx,
      due.map((e) => e.id),
      'offered',
      'lapsed',
      now,
    );
    await releaseHolds(trx, deps, eventId, ended);
    return ended.length;
  });
}

/** The sweep: every event with a lapsed offer, test events by their account's clock (a safety net under the per-offer jobs). */
export async function lapseAll(deps: OfferDeps & { db: import('kysely').Kysely<Database> }): Promise<number> {
  let n = 0;
  for (const eventId of await repo.eventsWithExpiredOffers(deps.db, deps.clock.now(), 100))
    n += await lapseDue(deps, eventId);
  return n;
}
