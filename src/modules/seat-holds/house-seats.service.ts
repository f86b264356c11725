// The organiser's own changes to an event's seats (docs/decisions/23-reserved-seating.md): house
// seats kept back from sale and given back, and a booking moved to other seats, each in the audit
// log. House seats are rows of `event_seats` with status `blocked`, taken like a hold (only a seat
// nobody has), all or none; the event's capacities follow (its seats less those kept back). A
// booking's seats are moved in place: each of its rows is re-keyed to the new seat in one
// transaction, so an end or a confirmation of the booking running at once follows the row.
import type { KeyPrincipal } from '../../http/auth.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { nowFor } from '../accounts/account-clock.js';
import * as audit from '../audit/audit.service.js';
import * as events from '../events/events.service.js';
import type { Seat } from '../seating/plan.js';
import { planVersion, sharePlanLock } from '../seating/seating-plans.js';
import { EVENT_SITTING, type EventPlan, planOfEvent, sittingOf } from './event-plan.js';
import { MAX_SEATS_PER_HOLD } from './hold-seats.service.js';
import type { SeatHoldsDeps } from './seat-holds.deps.js';
import * as houseRepo from './house-seats.repo.js';
import * as repo from './seat-holds.repo.js';
import { forgetStatuses } from './status-memory.js';

const toTake = (s: Seat): repo.SeatToTake => ({
  seatId: s.id,
  category: s.category,
  section: s.section,
  row: s.row,
  number: s.number,
  label: s.label,
});

/** The seats named, each once, each in the plan and not blocked in it. */
function namedSeats(plan: EventPlan, ids: readonly string[]): Seat[] {
  if (ids.length === 0 || ids.length > MAX_SEATS_PER_HOLD)
    throw badRequest('invalid_request', `name from 1 to ${MAX_SEATS_PER_HOLD} seats`);
  if (new Set(ids).size !== ids.length) throw badRequest('invalid_request', 'a seat is named twice');
  return ids.map((id) => {
    const seat = plan.byId.get(id);
    if (!seat) throw badRequest('invalid_request', `no seat "${id}" in this event's seating plan`);
    if (seat.blocked) throw conflict('seats_unavailable', `seat "${id}" is blocked in the plan`);
    return seat;
  });
}

/**
 * The event, the sitting (`subEventId`, or the booking `of`'s), its plan and the event's clock, for
 * a change under the plan's shared lock.
 */
async function seatedEvent(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  which: { subEventId?: string | undefined; of?: string },
) {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const track =
    which.of === undefined
      ? sittingOf(event, which.subEventId)
      : ((await repo.seatsOfBookings(deps.db, [which.of]))[0]?.track ?? EVENT_SITTING);
  const plan = await planOfEvent(deps.db, event, track);
  const now = await nowFor(deps, event.account_id, event.mode);
  return { event, sitting: { eventId: event.id, track }, plan, now };
}

/** The plan as chosen by is still the plan (else 409: read it again). */
async function samePlan(trx: Parameters<typeof sharePlanLock>[0], event: events.EventRow, plan: EventPlan) {
  await sharePlanLock(trx, plan.planId);
  const version = await planVersion(trx, event.account_id, plan.planId);
  if (version.updated_at.getTime() !== plan.updatedAt.getTime())
    throw conflict('busy', 'the seating plan changed meanwhile; try again');
}

/** Keeps seats back from sale (all or none: 409 `seats_unavailable` when one is held or sold). */
export async function blockHouseSeats(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  ids: string[],
  subEventId?: string,
) {
  const { event, sitting, plan, now } = await seatedEvent(deps, p, eventId, { subEventId });
  const seats = namedSeats(plan, ids);
  await deps.db.transaction().execute(async (trx) => {
    await samePlan(trx, event, plan);
    const target = { id: event.id, accountId: event.account_id, mode: event.mode, track: sitting.track };
    const taken = await houseRepo.blockSeats(trx, target, seats.map(toTake), now);
    if (taken.length < seats.length) {
      const busy = seats.filter((s) => !taken.includes(s.id)).map((s) => s.id);
      throw conflict('seats_unavailable', `held, sold or kept back already: ${busy.join(', ')}`);
    }
    // A tier with no seat left to sell would read as unlimited (capacity 0): one stays on sale.
    const kept = (await houseRepo.blockedByCategory(trx, event.id)).get(sitting.track) ?? new Map();
    for (const [category, n] of kept) {
      if (plan.seats.filter((s) => s.category === category && !s.blocked).length - n < 1)
        throw conflict('seats_unavailable', `keep at least one ${category} seat on sale`);
    }
    await record(trx, deps, p, event, 'event.seats_block', { seats: ids, ...trackOf(sitting) });
  });
  forgetStatuses(event.id);
  await events.refitToPlan(deps.eventDeps, event);
  return seats;
}

/** Gives house seats back to sale; 404 when none of them was kept back. */
export async function releaseHouseSeats(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  ids: string[],
  subEventId?: string,
) {
  const { event, sitting, plan } = await seatedEvent(deps, p, eventId, { subEventId });
  namedSeats(plan, ids);
  const released = await deps.db.transaction().execute(async (trx) => {
    const gone = await houseRepo.releaseBlocked(trx, sitting, ids);
    if (gone.length > 0)
      await record(trx, deps, p, event, 'event.seats_release', { seats: gone, ...trackOf(sitting) });
    return gone;
  });
  if (released.length === 0) throw notFound('none of these seats is kept back on this event');
  forgetStatuses(event.id);
  await events.refitToPlan(deps.eventDeps, event);
  return released;
}

/**
 * Moves a booking to other seats of its category, as many as it has, its people in seat order
 * (the n-th person to the n-th seat named). 404 when the booking has no seats on this event (it
 * ended, or is not seated); 409 `seats_unavailable` when a seat is held, sold or kept back.
 */
export async function moveBookingSeats(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  ids: string[],
) {
  const { event, sitting, plan, now } = await seatedEvent(deps, p, eventId, { of: registrationId });
  const seats = namedSeats(plan, ids);
  try {
    const moved = await deps.db.transaction().execute(async (trx) => {
      await samePlan(trx, event, plan);
      const rows = await houseRepo.lockBookingSeats(trx, event.id, registrationId);
      if (rows.length === 0) throw notFound('this booking holds no seats on this event');
      if (rows.length !== seats.length)
        throw badRequest('seat_hold_mismatch', `the booking has ${rows.length} seat(s): name as many`);
      const wrong = seats.find((s) => s.category !== rows[0]!.category);
      if (wrong) throw badRequest('seat_hold_mismatch', `seat "${wrong.id}" is not ${rows[0]!.category}`);
      const own = new Set(rows.map((r) => r.seat_id));
      await houseRepo.dropLapsedHolds(
        trx,
        sitting,
        ids.filter((id) => !own.has(id)),
        now,
      );
      for (const r of rows) await houseRepo.moveSeatRow(trx, sitting, r.seat_id, { parked: true }, now);
      for (const [i, r] of rows.entries())
        await houseRepo.moveSeatRow(trx, sitting, r.seat_id, toTake(seats[i]!), now);
      await record(
        trx,
        deps,
        p,
        event,
        'registration.seats_move',
        { seats: ids },
        {
          id: registrationId,
          before: { seats: rows.map((r) => r.seat_id) },
        },
      );
      return seats;
    });
    forgetStatuses(event.id);
    return moved;
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('seats_unavailable', 'a seat named is held, sold or kept back');
    throw err;
  }
}

/** The audit entry of a change to an event's seats (or, with `registration`, to a booking's). */
function record(
  trx: Parameters<typeof audit.recordChange>[0],
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  event: events.EventRow,
  action: string,
  after: Record<string, unknown>,
  registration?: { id: string; before: Record<string, unknown> },
) {
  return audit.recordChange(trx, deps, {
    accountId: event.account_id,
    mode: event.mode,
    actor: audit.actorOfKey(p),
    action,
    target: registration ? { type: 'registration', id: registration.id } : { type: 'event', id: event.id },
    before: registration?.before ?? null,
    after,
  });
}

/** The house seats an event keeps back, by sitting and category (its capacities leave them out). */
export function keptSeats(
  db: SeatHoldsDeps['db'],
  eventId: string,
): Promise<Map<number, Map<string, number>>> {
  return houseRepo.blockedByCategory(db, eventId);
}

/** The sittings of the event with a seat booked or held now (by the event's clock). */
export async function seatsInUse(
  deps: Pick<SeatHoldsDeps, 'db' | 'clock'>,
  eventId: string,
): Promise<Set<number>> {
  const event = await events.findEvent(deps.db, eventId);
  if (!event) return new Set();
  const now = await nowFor(deps, event.account_id, event.mode);
  return repo.sittingsInUse(deps.db, eventId, now);
}

/** Whether a seat of track `index` or a later one is booked, held or kept back now. */
export async function seatsOnTracksFrom(
  deps: Pick<SeatHoldsDeps, 'db' | 'clock'>,
  eventId: string,
  index: number,
): Promise<boolean> {
  const event = await events.findEvent(deps.db, eventId);
  if (!event) return false;
  const now = await nowFor(deps, event.account_id, event.mode);
  return repo.anySeatOnTracksFrom(deps.db, eventId, index, now);
}

/** The track an audit entry names, for a seated track's seats. */
const trackOf = (s: repo.Sitting) => (s.track === EVENT_SITTING ? {} : { subEventId: String(s.track) });
