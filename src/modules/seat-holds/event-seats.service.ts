// Reading an event's seats (docs/decisions/23-reserved-seating.md): every seat of its plan with its
// status now (`available`, `held`, `sold`, `blocked`), and letting go of a hold. A checkout key
// (a browser) reads statuses only; a full key also reads which booking has a seat.
import type { KeyPrincipal } from '../../http/auth.js';
import { notFound } from '../../lib/errors.js';
import { clockOffset, nowFor } from '../accounts/account-clock.js';
import * as events from '../events/events.service.js';
import type { Seat } from '../seating/plan.js';
import type { EventRow } from '../events/events.service.js';
import { EVENT_SITTING, type EventPlan, planOfEvent, sittingOf } from './event-plan.js';
import type { SeatHoldsDeps } from './seat-holds.deps.js';
import * as repo from './seat-holds.repo.js';
import { forgetStatuses } from './status-memory.js';

export { sittingOf } from './event-plan.js';

export type SeatStatus = 'available' | 'held' | 'sold' | 'blocked';

export interface EventSeats {
  planId: string;
  stage: { x: number; y: number };
  counts: Record<SeatStatus, number>;
  seats: (Seat & { status: SeatStatus; registrationId: string | null })[];
}

/** Each seat of the sitting's plan with its status now, and the counts of each status. */
async function seatsWithStatus(deps: SeatHoldsDeps, p: KeyPrincipal, eventId: string, subEventId?: string) {
  const event = await events.loadReadableEvent(deps.db, p, eventId);
  const track = sittingOf(event, subEventId);
  const plan = await planOfEvent(deps.db, event, track);
  const now = await nowFor(deps, event.account_id, event.mode);
  const taken = await repo.takenSeats(deps.db, { eventId: event.id, track }, now);
  const rows = new Map(taken.map((r) => [r.seat_id, r]));
  const counts: Record<SeatStatus, number> = { available: 0, held: 0, sold: 0, blocked: 0 };
  const seats = plan.seats.map((seat) => {
    const row = rows.get(seat.id);
    const status: SeatStatus = seat.blocked ? 'blocked' : (row?.status ?? 'available');
    counts[status]++;
    return { seat, status, row };
  });
  return { plan, counts, seats };
}

/**
 * Every seat with its status; with `unavailableOnly`, the seats not available (a map refreshing
 * its statuses); `subEventId`: the track's, for an event seated track by track.
 */
export async function eventSeats(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  options: { unavailableOnly?: boolean; subEventId?: string | undefined } = {},
): Promise<EventSeats> {
  const { unavailableOnly = false, subEventId } = options;
  const { plan, counts, seats: all } = await seatsWithStatus(deps, p, eventId, subEventId);
  const full = p.keyClass === 'full';
  const seats = all.map(({ seat, status, row }) => ({
    ...seat,
    status,
    registrationId: full ? (row?.registration_id ?? null) : null,
  }));
  return {
    planId: plan.planId,
    stage: plan.stage,
    counts,
    seats: unavailableOnly ? seats.filter((s) => s.status !== 'available') : seats,
  };
}

const LETTER: Record<SeatStatus, number> = { available: 0x61, held: 0x68, sold: 0x73, blocked: 0x62 };

/**
 * Every seat's status as one letter in plan order (`a` available, `h` held, `s` sold, `b`
 * blocked): some 50 KB for 50,000 seats, for a map that has the plan of `planUpdatedAt`. Made
 * from the plan's own letters (kept with the plan) and the seats taken now, without an object a
 * seat: a map refreshing every few seconds, and a crowd of them, cost little. The letters come
 * from this instance's memory of the event (status-memory.ts: up to SEAT_STATUS_MEMORY_MS old, one
 * read shared by the requests that arrive together); who may read the event is checked every time.
 */
export async function seatStatusLetters(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  subEventId?: string,
) {
  const event = await events.loadReadableEvent(deps.db, p, eventId);
  const track = sittingOf(event, subEventId);
  // Remembered by all the letters depend on: the sitting, the mode, the plan's version, the sandbox clock's offset.
  const plan = await planOfEvent(deps.db, event, track);
  const offset = await clockOffset(deps, event.account_id, event.mode);
  const key = `${track}|${event.mode}|${plan.planId}@${plan.updatedAt.toISOString()}|${offset}`;
  return deps.seatStatuses.recall(event.id, key, async () => {
    const { plan, counts, statuses } = await lettersOf(deps, event, track);
    return { planId: plan.planId, planUpdatedAt: plan.updatedAt.toISOString(), counts, statuses };
  });
}

/**
 * A seated event's plan and its seats' statuses as letters in plan order, for drawing its seat
 * map: the caller has already shown the event (the hosted page, to whoever may open it).
 */
export async function seatMapOf(
  deps: SeatHoldsDeps,
  event: Pick<EventRow, 'id' | 'account_id' | 'mode' | 'seating_plan_id' | 'tracks'>,
  track: number = EVENT_SITTING,
): Promise<{ plan: EventPlan; statuses: string }> {
  const { plan, statuses } = await lettersOf(deps, event, track);
  return { plan, statuses };
}

async function lettersOf(
  deps: SeatHoldsDeps,
  event: Pick<EventRow, 'id' | 'account_id' | 'mode' | 'seating_plan_id' | 'tracks'>,
  track: number,
) {
  const plan = await planOfEvent(deps.db, event, track);
  const now = await nowFor(deps, event.account_id, event.mode);
  const letters = Buffer.from(plan.letters);
  const counts: Record<SeatStatus, number> = {
    available: plan.seats.length - plan.blockedCount,
    held: 0,
    sold: 0,
    blocked: plan.blockedCount,
  };
  for (const row of await repo.takenSeatStatuses(deps.db, { eventId: event.id, track }, now)) {
    const i = plan.indexOf.get(row.seat_id);
    // A seat the plan blocks stays blocked; a row of a seat the plan no longer has is no seat.
    if (i === undefined || letters[i] === LETTER.blocked) continue;
    letters[i] = LETTER[row.status];
    counts.available--;
    counts[row.status]++;
  }
  return { plan, counts, statuses: letters.toString('latin1') };
}

/** Lets go of a hold that no booking has taken; 404 when there is none (lapsed and taken over, or booked). */
export async function releaseHold(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  holdToken: string,
): Promise<void> {
  const event = await events.loadReadableEvent(deps.db, p, eventId);
  if ((await repo.releaseHold(deps.db, event.id, holdToken)) === 0)
    throw notFound('no such hold on this event (it lapsed, was let go, or a booking has its seats)');
  forgetStatuses(event.id);
}

/**
 * How many seats of each category a sitting has that no booking has (not sold, not held for a
 * booking, not kept back, not blocked in its plan): the room per session and category that the
 * seat counters do not keep, counted as they count (a buyer's hold alone takes no room).
 */
export async function freeSeatsByCategory(
  db: SeatHoldsDeps['db'],
  event: Pick<EventRow, 'id' | 'account_id' | 'seating_plan_id' | 'tracks'>,
  track: number,
  now: Date,
): Promise<Map<string, number>> {
  const plan = await planOfEvent(db, event, track);
  const free = new Map<string, number>();
  for (const s of plan.seats) if (!s.blocked) free.set(s.category, (free.get(s.category) ?? 0) + 1);
  for (const row of await repo.takenSeats(db, { eventId: event.id, track }, now)) {
    if (row.status === 'held' && row.registration_id === null) continue;
    const seat = plan.byId.get(row.seat_id);
    if (seat && !seat.blocked) free.set(seat.category, free.get(seat.category)! - 1);
  }
  return free;
}
