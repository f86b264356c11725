// Events and tracks: the rules, HTTP-free. Money in paise inside; rupees only in
// `presentEvent` and the inputs' validation. What events need to know about bookings
// and organisers comes in through `EventDeps` (events.deps.ts), so this module depends on
// neither.
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { assertOwned, type KeyPrincipal, type SessionPrincipal } from '../../http/auth.js';
import { conflict, forbidden, notFound, badRequest } from '../../lib/errors.js';
import * as audit from '../audit/audit.service.js';
import { applyInput, refuseDateField, type EventFields, type EventInput } from './events.input.js';
import { presentEvent } from './events.present.js';
import * as repo from './events.repo.js';
import type { EventReads } from './event-reads.js';
import type { EventRow } from './events.repo.js';
import { syncSeatCounters, usageForMany } from './seats.service.js';
import { pageOf } from '../../http/paging.js';

export type { EventRow };
export type { CustomFieldInput, EventInput, TierInput, TrackInput } from './events.input.js';
export { parseTrackIndex } from './events.input.js';
import { slugify, slugSuffix } from './slug.js';

export { slugify };
export {
  claimSeats,
  EVENT_SCOPE,
  isMarkedSoldOut,
  lockSeatCounters,
  markSoldOut,
  PAID_SCOPE,
  releaseSeats,
  scopesFor,
  tierScope,
  trackScope,
  usageFor,
  type SeatsFreed,
} from './seats.service.js';
export {
  policyRefundPaise,
  selfServiceCutoff,
  selfServiceOpen,
  selfServicePolicy,
  waitlistFor,
} from './policies.js';
export { sessionCoversDay, sessionDates, sessionOf, type Session } from './sessions.js';
export { priceTable, unitPricePaise, wholeEventBookable, type PriceRow } from './prices.js';

import type { EventDeps } from './events.deps.js';
export type { BookingCounts, EventDeps } from './events.deps.js';

const jsonOrNull = (v: unknown) => (v === null ? null : JSON.stringify(v));
/** A new event has nobody waiting. */
const noWaitlistYet = async () => {};

export const countEventsByStatus = (db: Kysely<Database>, accountId: string, mode: Mode) =>
  repo.countByStatus(db, accountId, mode);

/** An account's events in each mode (the facts staff read beside a request for publishing access). */
export async function eventCountsByMode(
  db: Kysely<Database>,
  accountId: string,
): Promise<{ test: number; live: number }> {
  const [test, live] = await Promise.all([
    repo.countByStatus(db, accountId, 'test'),
    repo.countByStatus(db, accountId, 'live'),
  ]);
  return { test: test.total, live: live.total };
}

// ---------------------------------------------------------------- events

export async function loadOwnedEvent(db: Kysely<Database>, p: KeyPrincipal, id: string): Promise<EventRow> {
  const row = await repo.findEvent(db, id);
  assertOwned(p, row && { accountId: row.account_id, mode: row.mode });
  return row!;
}

/** For registration: the owned event and the seats taken on its own counter (read with others asked for at the same time). */
export async function loadOwnedEventWithTaken(
  reads: EventReads,
  p: KeyPrincipal,
  id: string,
): Promise<EventRow & { seats_taken: number }> {
  const row = await reads.read(id);
  assertOwned(p, row && { accountId: row.account_id, mode: row.mode });
  return { ...row!, seats_taken: Number(row!.seats_taken ?? 0) };
}

export async function createEvent(deps: EventDeps, p: KeyPrincipal, input: EventInput): Promise<EventRow> {
  refuseDateField(input);
  if (input.startDate === undefined || input.startDate === null)
    throw badRequest('invalid_request', 'body is missing required field "startDate"');
  if (input.title === undefined)
    throw badRequest('invalid_request', 'body is missing required field "title"');
  if (input.description === undefined)
    throw badRequest('invalid_request', 'body is missing required field "description"');
  const fields = applyInput(
    {
      title: '',
      description: '',
      start_date: null,
      start_at: null,
      end_date: null,
      location: null,
      capacity: 0,
      price_paise: 0,
      max_team_size: 1,
      requires_approval: false,
      custom_fields: [],
      special_prices: [],
      tracks: [],
      tax_category: 'standard',
      supplier_gstin: null,
      sac: null,
      venue_state: null,
      waitlist: null,
      self_service: null,
      // Omitted through the API: on, as events were before the setting (clients that book
      // without naming a track keep working); the dashboard creates events with it off.
      whole_event_option: true,
    },
    input,
  );
  const now = deps.clock.now();
  const base = slugify(fields.title);
  let slug = (await repo.slugTaken(deps.db, base)) ? `${base}-${slugSuffix(deps.ids)}` : base;
  for (let attempt = 0; ; attempt++) {
    const id = deps.ids.make('ev', 12);
    try {
      await deps.db.transaction().execute(async (trx) => {
        await repo.insertEvent(trx, {
          id,
          account_id: p.userId,
          mode: p.mode,
          slug,
          status: 'draft',
          ...fields,
          custom_fields: JSON.stringify(fields.custom_fields),
          special_prices: JSON.stringify(fields.special_prices),
          tracks: JSON.stringify(fields.tracks),
          waitlist: jsonOrNull(fields.waitlist),
          self_service: jsonOrNull(fields.self_service),
          currency: 'INR',
          created_at: now,
          updated_at: now,
        });
        await syncSeatCounters(trx, id, fields, noWaitlistYet);
        await audit.recordChange(trx, deps, {
          accountId: p.userId,
          mode: p.mode,
          actor: audit.actorOfKey(p),
          action: 'event.create',
          target: { type: 'event', id },
          after: eventFacts({ ...fields, slug, status: 'draft' }),
        });
      });
      return (await repo.findEvent(deps.db, id))!;
    } catch (err) {
      // Two events with the same title created at once: the loser takes a suffix.
      if (attempt < 3 && isUniqueViolation(err)) {
        slug = `${base}-${slugSuffix(deps.ids)}`;
        continue;
      }
      throw err;
    }
  }
}

/** Every event of the account in the key's mode (the dashboard's events screen). */
export const listEvents = (db: Kysely<Database>, p: KeyPrincipal) => repo.listAllEvents(db, p.userId, p.mode);

/**
 * A checkout key (a browser) reads only published events, and in test mode also the
 * account's draft test events; a live draft does not exist for it (404).
 */
function visibleTo(p: KeyPrincipal, row: Pick<EventRow, 'mode' | 'status'>): boolean {
  return p.keyClass !== 'checkout' || row.mode === 'test' || row.status === 'published';
}

/** An event the key may read: its own account and mode, and visible to its class. */
export async function loadReadableEvent(
  db: Kysely<Database>,
  p: KeyPrincipal,
  id: string,
): Promise<EventRow> {
  const row = await loadOwnedEvent(db, p, id);
  if (!visibleTo(p, row)) throw notFound('no such event', 'event_not_found');
  return row;
}

/** One page of the key's events with their seat usage, in a constant number of queries. */
export async function listEventsPage(
  db: Kysely<Database>,
  p: KeyPrincipal,
  page: { limit: number; startingAfter?: string | undefined },
) {
  if (page.startingAfter !== undefined && !(await repo.isEventOf(db, page.startingAfter, p.userId, p.mode))) {
    throw badRequest('invalid_cursor', 'startingAfter is not a cursor this list gave');
  }
  const rows = await repo.listEvents(db, p.userId, p.mode, {
    limit: page.limit,
    after: page.startingAfter,
    publishedOnly: p.keyClass === 'checkout' && p.mode === 'live',
  });
  const { items, hasMore, nextCursor } = pageOf(rows, page.limit, (r) => r.id);
  const usage = await usageForMany(
    db,
    items.map((r) => r.id),
  );
  return {
    items: items.map((r) => presentEvent(r, usage.get(r.id)!)),
    hasMore,
    nextCursor,
    count: await repo.countForList(db, p.userId, p.mode, p.keyClass === 'checkout' && p.mode === 'live'),
  };
}

export async function patchEvent(
  deps: EventDeps,
  p: KeyPrincipal,
  id: string,
  input: EventInput,
): Promise<EventRow> {
  refuseDateField(input);
  const row = await loadOwnedEvent(deps.db, p, id);
  const fields = applyInput(
    {
      title: row.title,
      description: row.description,
      start_date: row.start_date,
      start_at: row.start_at,
      end_date: row.end_date,
      location: row.location,
      capacity: row.capacity,
      price_paise: Number(row.price_paise),
      max_team_size: row.max_team_size,
      requires_approval: row.requires_approval,
      custom_fields: row.custom_fields,
      special_prices: row.special_prices,
      tracks: row.tracks,
      tax_category: row.tax_category,
      supplier_gstin: row.supplier_gstin,
      sac: row.sac,
      venue_state: row.venue_state,
      waitlist: row.waitlist,
      self_service: row.self_service,
      whole_event_option: row.whole_event_option,
    },
    input,
  );
  const publishing = input.status === 'published' && row.status !== 'published';
  // Test events are never public, so they publish without the grant (docs/decisions/17-the-organisers-office.md).
  if (publishing && row.mode === 'live' && !(await deps.canPublish(p.userId))) {
    throw forbidden(
      'organiser_access_required',
      'publishing a live event needs organiser access on this account (canPublish is false): ask for it with “Request publishing access” on the dashboard; test events publish without it',
    );
  }
  // A paid live event on sale must be payable: refused while the service takes no live payments,
  // whether it is being published or a published event is being made paid.
  const published = (input.status ?? row.status) === 'published';
  if (
    published &&
    row.mode === 'live' &&
    !deps.livePayments &&
    isPaid(fields) &&
    (publishing || !isPaid(rowPrices(row)))
  ) {
    throw conflict(
      'payments_not_configured',
      'a paid live event can be published only once this service takes live payments, which it does not yet; free and test events publish meanwhile',
    );
  }
  const updated = await deps.db.transaction().execute(async (trx) => {
    const u = await repo.updateEvent(trx, id, {
      ...fields,
      custom_fields: JSON.stringify(fields.custom_fields),
      special_prices: JSON.stringify(fields.special_prices),
      tracks: JSON.stringify(fields.tracks),
      waitlist: jsonOrNull(fields.waitlist),
      self_service: jsonOrNull(fields.self_service),
      status: input.status ?? row.status,
      updated_at: deps.clock.now(),
    });
    if (u) {
      await syncSeatCounters(trx, id, u, (t) => deps.waitlist.seatsFreed(t, id));
      const change = audit.changedFields(eventFacts(row), eventFacts(u));
      const action =
        u.status === 'published' && row.status !== 'published' ? 'event.publish' : 'event.update';
      await audit.recordChange(trx, deps, {
        accountId: row.account_id,
        mode: row.mode,
        actor: audit.actorOfKey(p),
        action,
        target: { type: 'event', id },
        ...change,
      });
    }
    return u;
  });
  if (!updated) throw notFound('no such event', 'event_not_found');
  return updated;
}

type Prices = Pick<EventFields, 'price_paise' | 'special_prices' | 'tracks'>;

/** Whether anything of the event costs money: its base price, a tier or a track. */
export function isPaid(e: Prices): boolean {
  return (
    Number(e.price_paise) > 0 ||
    e.special_prices.some((t) => t.pricePaise > 0) ||
    e.tracks.some((t) => t.pricePaise > 0)
  );
}

const rowPrices = (row: EventRow): Prices => ({
  price_paise: Number(row.price_paise),
  special_prices: row.special_prices,
  tracks: row.tracks,
});

/** What the audit log keeps of an event (its fields as set, without its seat counts). */
function eventFacts(
  e: Pick<
    EventRow,
    | 'title'
    | 'status'
    | 'slug'
    | 'start_date'
    | 'end_date'
    | 'location'
    | 'capacity'
    | 'price_paise'
    | 'requires_approval'
    | 'max_team_size'
    | 'tracks'
    | 'special_prices'
    | 'tax_category'
    | 'whole_event_option'
  > & { slug: string },
) {
  return {
    title: e.title,
    status: e.status,
    slug: e.slug,
    startDate: e.start_date,
    endDate: e.end_date,
    location: e.location,
    capacity: e.capacity,
    price: Number(e.price_paise) / 100,
    requiresApproval: e.requires_approval,
    maxTeamSize: e.max_team_size,
    tracks: e.tracks.length,
    tiers: e.special_prices.map((t) => t.name),
    taxCategory: e.tax_category,
    wholeEventOption: e.whole_event_option,
  };
}

/**
 * Deleting an event cascades to its bookings, so it waits until none holds money:
 * 409 `has_payments_in_flight` while a booking has a payment in
 * flight or captured and not refunded. Staff with `force` refund them first (each refund
 * through the gateway and into the ledger), then delete. Test events move no money and
 * skip the check.
 */
export async function deleteEvent(
  deps: EventDeps,
  s: SessionPrincipal,
  id: string,
  force: boolean,
): Promise<void> {
  const row = await repo.findEvent(deps.db, id);
  if (!row) throw notFound('no such event', 'event_not_found');
  if (row.account_id !== s.userId && !s.isStaff)
    throw forbidden('not_your_object', 'this event belongs to another account');
  const forced = force && s.isStaff;
  if (row.mode === 'live') {
    const holding = forced
      ? await deps.bookings.settlePayments(id)
      : await deps.bookings.paymentsInFlight(id);
    if (holding > 0) {
      throw conflict(
        'has_payments_in_flight',
        forced
          ? `${holding} booking(s) of this event took money meanwhile; try again`
          : `${holding} booking(s) of this event hold a payment in flight or captured and not refunded: refund or cancel them first (force=true, for platform staff only, refunds them and deletes)`,
        { bookings: holding },
      );
    }
  }
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteEvent(trx, id);
    const actor = audit.actorOfSession(s, row.account_id !== s.userId || forced);
    await audit.recordChange(trx, deps, {
      accountId: row.account_id,
      mode: row.mode,
      actor,
      action: forced ? 'event.force_delete' : 'event.delete',
      target: { type: 'event', id },
      before: eventFacts(row),
    });
  });
}

/** Staff: switch the service's own ticket email for one event (any account's). */
export async function setTicketEmails(
  deps: EventDeps,
  eventId: string,
  enabled: boolean,
): Promise<{ eventId: string; ticketEmailsEnabled: boolean }> {
  const r = await repo.setTicketEmails(deps.db, eventId, enabled, deps.clock.now());
  if (!r) throw notFound('no such event', 'event_not_found');
  return { eventId: r.id, ticketEmailsEnabled: r.ticket_emails_enabled };
}

export { analytics, availability } from './events.reading.js';

export const findEvent = repo.findEvent;
export const findEventsById = repo.findEventsById;
export const findEventBySlug = repo.findEventBySlug;
