// The waitlist's rules, HTTP-free: joining (only when what is asked for is sold out),
// the organiser's view and removal of entries, and opening an offer's link.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { nowFor } from '../accounts/account-clock.js';
import * as events from '../events/events.service.js';
import { assertDeliverable } from '../mail/deliverable.js';
import { offerTokenEntry, offerTokenMatches } from './offer-token.js';
import { entryScopes, releaseHolds } from './offers.js';
import { seatedRoom } from './seated-room.js';
import * as repo from './waitlist.repo.js';
import type { EntryRow } from './waitlist.repo.js';

export { lapseAll, lapseDue, offerSeats, takeHold } from './offers.js';
export type { EntryRow };

export interface WaitlistDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  secretsKey: Buffer;
  checkEmail(email: string): Promise<{ ok: true; email: string } | { ok: false; message: string }>;
  kickJobs(): void;
}

export interface JoinInput {
  name: string;
  email: string;
  subEventId?: string | undefined;
  ticketType?: string | undefined;
}

/** What `join` answers: nothing personal, only where the person stands. */
export interface Joined {
  status: 'waiting' | 'offered';
  position: number;
}

function choiceOf(event: events.EventRow, input: Pick<JoinInput, 'subEventId' | 'ticketType'>) {
  let subEventId: number | null = null;
  if (input.subEventId !== undefined) {
    subEventId = events.parseTrackIndex(input.subEventId, 'subEventId');
    if (!event.tracks[subEventId]) throw notFound(`no track at index ${subEventId}`, 'track_not_found');
  } else if (!events.wholeEventBookable(event)) {
    // An offer for the whole event could not be booked: it is not on sale.
    throw badRequest(
      'track_required',
      'choose a session to wait for: this event sells its sessions (tracks) one by one; send subEventId, a track index',
      { field: 'subEventId' },
    );
  }
  const ticketType = input.ticketType ?? 'General';
  if (ticketType !== 'General' && !event.special_prices.some((t) => t.name === ticketType)) {
    throw badRequest('unknown_ticket_type', `ticketType "${ticketType}" is not one of this event's tiers`);
  }
  return { subEventId, ticketType };
}

export async function join(
  deps: WaitlistDeps,
  p: KeyPrincipal,
  eventId: string,
  input: JoinInput,
): Promise<Joined> {
  const event = await events.loadReadableEvent(deps.db, p, eventId);
  if (event.mode === 'live' && event.status !== 'published')
    throw conflict('event_not_published', 'this event is a draft and takes no waitlist');
  const { subEventId, ticketType } = choiceOf(event, input);
  if (!events.waitlistFor(event, subEventId).enabled)
    throw conflict('waitlist_closed', `this ${subEventId === null ? 'event' : 'track'} takes no waitlist`);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  const email = await assertDeliverable(deps.checkEmail, input.email);
  const entry = await deps.db.transaction().execute(async (trx) => {
    // Under the counters' lock, so a seat freed meanwhile is either offered to this entry or visible here.
    const counters = await events.lockSeatCounters(trx, event.id);
    const fits = events.scopesFor(ticketType, subEventId).every((s) => {
      const c = counters.get(s);
      return c !== undefined && (c.capacity === 0 || c.taken + 1 <= c.capacity);
    });
    const now = await nowFor({ db: trx, clock: deps.clock }, event.account_id, event.mode);
    if (fits && (await seatedRoom(trx, event, now).has(subEventId, ticketType)))
      throw conflict(
        'seats_available',
        'seats are available for this choice: register instead of joining the waitlist',
      );
    const row = {
      id: deps.ids.make('wl', 16),
      event_id: event.id,
      account_id: event.account_id,
      mode: event.mode,
      name,
      email,
      ticket_type: ticketType,
      sub_event_id: subEventId,
      status: 'waiting' as const,
      created_at: deps.clock.now(),
    };
    // The same email for the same choice keeps its place.
    return (
      (await repo.insertEntry(trx, row)) ??
      (await repo.findOpenEntry(trx, event.id, email, ticketType, subEventId))!
    );
  });
  return {
    status: entry.status === 'offered' ? 'offered' : 'waiting',
    position: entry.status === 'offered' ? 0 : await repo.positionOf(deps.db, entry),
  };
}

export function presentEntry(e: EntryRow) {
  return {
    id: e.id,
    name: e.name,
    email: e.email,
    ticketType: e.ticket_type,
    subEventId: e.sub_event_id === null ? null : String(e.sub_event_id),
    status: e.status,
    offeredAt: e.offered_at?.toISOString() ?? null,
    expiresAt: e.expires_at?.toISOString() ?? null,
    registrationId: e.registration_id,
    createdAt: e.created_at.toISOString(),
  };
}

/** The organiser's view: the queue in arrival order (`open`: only those waiting or holding an offer). */
export async function listEntries(
  db: Kysely<Database>,
  p: KeyPrincipal,
  eventId: string,
  q: { limit: number; startingAfter?: string | undefined; open: boolean },
) {
  const event = await events.loadOwnedEvent(db, p, eventId);
  let afterSeq: string | undefined;
  if (q.startingAfter !== undefined) {
    const after = await repo.findEntry(db, q.startingAfter);
    if (!after || after.event_id !== event.id)
      throw badRequest('invalid_cursor', 'startingAfter is not a cursor this list gave');
    afterSeq = after.seq;
  }
  const rows = await repo.listEntries(db, event.id, { limit: q.limit, afterSeq, open: q.open });
  const items = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  return {
    items: items.map(presentEntry),
    hasMore,
    nextCursor: hasMore ? items[items.length - 1]!.id : null,
    count: await repo.countEntries(db, event.id, q.open),
  };
}

/** Takes someone off the queue; an offer they held passes to the next in line. */
export async function removeEntry(
  deps: WaitlistDeps,
  p: KeyPrincipal,
  eventId: string,
  entryId: string,
): Promise<EntryRow> {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const entry = await repo.findEntry(deps.db, entryId);
  if (!entry || entry.event_id !== event.id)
    throw notFound('no such waitlist entry for this event', 'waitlist_entry_not_found');
  const removed = await deps.db.transaction().execute(async (trx) => {
    await events.lockSeatCounters(trx, event.id);
    const fresh = (await repo.findEntry(trx, entryId))!;
    if (fresh.status !== 'waiting' && fresh.status !== 'offered') return undefined;
    const [row] = await repo.endEntries(trx, [entryId], fresh.status, 'removed', deps.clock.now());
    if (fresh.status === 'offered') await releaseHolds(trx, deps, event.id, [row!]);
    return row;
  });
  if (!removed) throw conflict('waitlist_entry_ended', `this entry is already ${entry.status}`);
  deps.kickJobs();
  return removed;
}

export const anyEntryOnTracksFrom = (db: Kysely<Database>, eventId: string, index: number) =>
  repo.anyOnTracksFrom(db, eventId, index);
export const waitingCount = (db: Kysely<Database>, eventId: string, trackIndex: number | undefined) =>
  repo.countWaiting(db, eventId, trackIndex);

/** The entry an offer link names on this event, whatever became of it (the link opens its test event's page). */
export async function offerEntry(
  deps: Pick<WaitlistDeps, 'db' | 'secretsKey'>,
  eventId: string,
  token: string,
): Promise<EntryRow | undefined> {
  const id = offerTokenEntry(token);
  const entry = id === undefined ? undefined : await repo.findEntry(deps.db, id);
  return entry &&
    entry.event_id === eventId &&
    offerTokenMatches(deps.secretsKey, token, entry.id, entry.offered_at)
    ? entry
    : undefined;
}

/** An offer link's entry, while it still holds its seat; otherwise 409 `offer_not_valid`. */
export async function openOffer(
  deps: Pick<WaitlistDeps, 'db' | 'clock' | 'secretsKey'>,
  eventId: string,
  token: string,
): Promise<EntryRow & { scopes: string[] }> {
  const id = offerTokenEntry(token);
  const entry = id === undefined ? undefined : await repo.findEntry(deps.db, id);
  if (
    !entry ||
    entry.event_id !== eventId ||
    !offerTokenMatches(deps.secretsKey, token, entry.id, entry.offered_at)
  ) {
    throw conflict('offer_not_valid', 'this waitlist offer link is not valid for this event');
  }
  // A test event's offer runs on its account's clock.
  const now = await nowFor(deps, entry.account_id, entry.mode);
  if (
    entry.status !== 'offered' ||
    entry.expires_at === null ||
    entry.expires_at.getTime() <= now.getTime()
  ) {
    throw conflict(
      'offer_not_valid',
      entry.status === 'booked'
        ? 'this offer has been used: the seat is booked'
        : 'this offer has lapsed and the seat has passed to the next person waiting',
    );
  }
  return { ...entry, scopes: entryScopes(entry) };
}
