// Events and tracks: the rules, HTTP-free. Money in paise inside; rupees only in
// `presentEvent` and the inputs' validation. What events need to know about bookings
// and organisers comes in through `EventDeps` (events.deps.ts), so this module depends on
// neither.
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { type KeyPrincipal } from '../../http/auth.js';
import { notFound, badRequest } from '../../lib/errors.js';
import * as audit from '../audit/audit.service.js';
import { applyInput, refuseDateField, type EventInput } from './events.input.js';
import { presentEvent } from './events.present.js';
import { eventFacts, jsonOrNull } from './event-facts.js';
import * as repo from './events.repo.js';
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
import { fitToPlan } from './seated-event.js';
export type { BookingCounts, EventDeps } from './events.deps.js';

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
      offline_payment: null,
      on_sale: null,
      // Omitted through the API: on, as events were before the setting (clients that book
      // without naming a track keep working); the dashboard creates events with it off.
      whole_event_option: true,
      seating_plan_id: null,
    },
    input,
  );
  await fitToPlan(deps.db, p.userId, fields);
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
          offline_payment: jsonOrNull(fields.offline_payment),
          on_sale: jsonOrNull(fields.on_sale),
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

/**
 * One numbered page of the dashboard's events list (1-based), seats read for the page in one
 * query; `ids` limits it to a member's listed events. A page past the last (page 1 is always
 * there) or not a whole number from 1 answers 400.
 */
export async function listEventsNumbered(
  db: Kysely<Database>,
  p: KeyPrincipal,
  q: { page: number; size: number; ids: readonly string[] | null },
) {
  const last = (total: number) => Math.max(1, Math.ceil(total / q.size));
  const refuse = (pages: number | undefined) =>
    badRequest(
      'invalid_field',
      `no such page: page is a whole number from 1${pages === undefined ? '' : ` to ${pages}`}`,
    );
  if (!Number.isSafeInteger(q.page) || q.page < 1) throw refuse(undefined);
  const { rows, total } = await repo.listEventsNumbered(db, p.userId, p.mode, {
    limit: q.size,
    offset: (q.page - 1) * q.size,
    ids: q.ids,
  });
  if (q.page > last(total)) throw refuse(last(total));
  const usage = await usageForMany(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => presentEvent(r, usage.get(r.id)!)),
    total,
    page: q.page,
    pages: last(total),
  };
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
export { loadOwnedEvent, loadOwnedEventWithTaken, loadReadableEvent } from './event-access.js';
export { isPaid } from './event-facts.js';
export { fieldsOf, patchEvent, refitToPlan } from './patch-event.service.js';
export { fitToPlan, isSeated, SEATED_SQL } from './seated-event.js';
export { deleteEvent } from './delete-event.service.js';

export const findEvent = repo.findEvent;
export const findEventsById = repo.findEventsById;
export const findEventBySlug = repo.findEventBySlug;
export const eventsOnPlan = repo.eventsOnPlan;
