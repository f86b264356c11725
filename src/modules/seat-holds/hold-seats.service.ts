// Holding seats (docs/decisions/23-reserved-seating.md): the seats a buyer chose on the map, or the
// best available for "n seats in category C", held under one unguessable token for
// SEAT_HOLD_MINUTES on the account's clock. All the seats are held or none: the hold is one
// conditional insert keyed by (event, seat) in a transaction, so two instances racing for a seat
// cannot both have it; best available that loses a race looks again, a few times. The hold takes
// the plan's lock shared and checks the plan is the version it chose by, so a seat the plan is
// blocking or removing at that moment is never held (plan-guard.ts). A hold may replace the
// buyer's earlier one in the same transaction (the hosted page's seat map, as the choice changes):
// the old seats are let go only if the new ones are all held, and nobody else can take an old seat
// in between.
import type { Mode } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { appError, badRequest, conflict } from '../../lib/errors.js';
import { nowFor } from '../accounts/account-clock.js';
import * as events from '../events/events.service.js';
import { bestAvailable } from '../seating/best-available.js';
import type { Seat } from '../seating/plan.js';
import { planVersion, sharePlanLock } from '../seating/seating-plans.js';
import { type EventPlan, planOfEvent, sittingOf } from './event-plan.js';
import type { SeatHoldsDeps } from './seat-holds.deps.js';
import * as repo from './seat-holds.repo.js';
import { forgetStatuses } from './status-memory.js';

/** At most this many seats in one hold (a booking's people, with room for a group). */
export const MAX_SEATS_PER_HOLD = 50;
const BEST_AVAILABLE_TRIES = 5;

export type HoldRequest = { seats: string[] } | { category: string; quantity: number; accessible?: boolean };

export interface Hold {
  holdToken: string;
  seats: Seat[];
  expiresAt: Date;
}

/**
 * Holds seats for a buyer. `clientAddress`: where a browser's request came from (a checkout key's
 * or the hosted page's); such an address holds at most HELD_SEATS_PER_ADDRESS seats of an event at
 * once (checked before the hold: holds racing from one address may pass it by as many as run at once).
 * `replaces`: a hold token of the same event, let go in the same transaction (its seats do not
 * count towards the address's limit), so a refusal leaves it as it was. `subEventId`: the track
 * whose seats to hold, for an event seated track by track.
 */
export async function holdSeats(
  deps: SeatHoldsDeps,
  p: KeyPrincipal,
  eventId: string,
  request: HoldRequest,
  context: {
    clientAddress?: string | null;
    replaces?: string | undefined;
    subEventId?: string | undefined;
  } = {},
): Promise<Hold> {
  const event = await events.loadReadableEvent(deps.db, p, eventId);
  const track = sittingOf(event, context.subEventId);
  const sitting: repo.Sitting = { eventId: event.id, track };
  const now = await nowFor(deps, event.account_id, event.mode);
  const clientAddress = p.keyClass === 'checkout' ? (context.clientAddress ?? null) : null;
  const { replaces } = context;
  if (clientAddress !== null)
    await assertWithinAddressLimit(deps, event.id, clientAddress, request, now, replaces);
  const hold = {
    token: deps.ids.make('hold', 24),
    until: new Date(now.getTime() + deps.config.seatHoldMinutes * 60_000),
    now,
    clientAddress,
    replaces,
  };
  const target = { id: event.id, accountId: event.account_id, mode: event.mode, track };
  const lost = new Set<string>();
  for (let attempt = 1, replaced = 0; ; ) {
    const plan = await planOfEvent(deps.db, event, track);
    const best = !('seats' in request);
    const seats = best
      ? await bestFor(deps, plan, sitting, now, request, lost, replaces)
      : chosenSeats(plan, request.seats);
    // Best available here looks past the seats this request is taking (see `inFlight`).
    const claimed = best ? claim(sitting, seats) : () => {};
    const outcome = await takeOnce(deps, plan, target, seats, hold).finally(claimed);
    if (Array.isArray(outcome)) {
      forgetStatuses(event.id);
      return { holdToken: hold.token, seats: outcome, expiresAt: hold.until };
    }
    // The plan changed between choosing and taking: choose again by the new one (a few times).
    if (outcome instanceof PlanReplaced && ++replaced <= BEST_AVAILABLE_TRIES) continue;
    if (!best || ++attempt > BEST_AVAILABLE_TRIES)
      throw conflict('seats_unavailable', 'a seat asked for was taken or held meanwhile: choose again');
    for (const seat of seats) lost.add(seat.id);
  }
}

/** One try at taking `seats`, all or none, under the plan's shared lock: the seats, or why not. */
async function takeOnce(
  deps: SeatHoldsDeps,
  plan: EventPlan,
  target: { id: string; accountId: string; mode: Mode; track: number },
  seats: Seat[],
  hold: { token: string; until: Date; now: Date; clientAddress: string | null; replaces: string | undefined },
): Promise<Seat[] | HoldLost | PlanReplaced> {
  return deps.db
    .transaction()
    .execute(async (trx) => {
      // The plan's lock, shared: the seats are taken by the plan as it is, not as it was.
      await sharePlanLock(trx, plan.planId);
      const version = await planVersion(trx, target.accountId, plan.planId);
      if (version.updated_at.getTime() !== plan.updatedAt.getTime()) throw new PlanReplaced();
      if (hold.replaces !== undefined) await repo.releaseHold(trx, target.id, hold.replaces);
      const taken = await repo.takeSeats(trx, target, seats.map(seatToTake), hold);
      // All or none: a seat someone else has rolls the whole hold back.
      if (taken.length < seats.length) throw new HoldLost();
      return seats;
    })
    .catch((err: unknown) => {
      if (err instanceof HoldLost || err instanceof PlanReplaced) return err;
      throw err;
    });
}

/**
 * The seats this process's best-available requests are taking right now, by sitting. Buyers who
 * arrive together read the same taken seats and would all choose the same best ones, and all but
 * one lose; here, each looks past what the others in this process are taking. (Across processes
 * they still may collide: the key decides, and the loser looks again.)
 */
const inFlight = new Map<string, Set<string>>();

const readTaken = async (deps: SeatHoldsDeps, sitting: repo.Sitting, now: Date) =>
  new Set(await repo.takenSeatIds(deps.db, sitting, now));
const keyOf = (s: repo.Sitting) => `${s.eventId}/${s.track}`;

/** Reads of a sitting's taken seats under way: buyers arriving together share one (and its set). */
const reading = new Map<string, Promise<ReadonlySet<string>>>();

function sharedRead(deps: SeatHoldsDeps, sitting: repo.Sitting, now: Date): Promise<ReadonlySet<string>> {
  const key = keyOf(sitting);
  let r = reading.get(key);
  if (!r) {
    r = readTaken(deps, sitting, now).finally(() => reading.delete(key));
    reading.set(key, r);
  }
  return r;
}

/** Marks `seats` as being taken in `sitting`; answers the function that unmarks them. */
function claim(sitting: repo.Sitting, seats: readonly Seat[]): () => void {
  const key = keyOf(sitting);
  let taking = inFlight.get(key);
  if (!taking) inFlight.set(key, (taking = new Set()));
  for (const s of seats) taking.add(s.id);
  return () => {
    for (const s of seats) taking.delete(s.id);
    if (taking.size === 0 && inFlight.get(key) === taking) inFlight.delete(key);
  };
}

const seatToTake = (s: Seat): repo.SeatToTake => ({
  seatId: s.id,
  category: s.category,
  section: s.section,
  row: s.row,
  number: s.number,
  label: s.label,
});

/** A hold that found the plan changed since it chose its seats: thrown to roll the transaction back. */
class PlanReplaced extends Error {}

/** A hold that found one of its seats taken: thrown to roll the transaction back. */
class HoldLost extends Error {}

/** The seats a buyer chose, each once, each in the plan and not blocked in it. */
function chosenSeats(plan: EventPlan, ids: readonly string[]): Seat[] {
  if (ids.length === 0 || ids.length > MAX_SEATS_PER_HOLD)
    throw badRequest('invalid_request', `choose from 1 to ${MAX_SEATS_PER_HOLD} seats`);
  if (new Set(ids).size !== ids.length) throw badRequest('invalid_request', 'a seat is named twice');
  return ids.map((id) => {
    const seat = plan.byId.get(id);
    if (!seat) throw badRequest('invalid_request', `no seat "${id}" in this event's seating plan`);
    if (seat.blocked) throw conflict('seats_unavailable', `seat "${id}" is not for sale`);
    return seat;
  });
}

/** 429 `too_many_holds` when the address would hold more than HELD_SEATS_PER_ADDRESS seats of the event. */
async function assertWithinAddressLimit(
  deps: SeatHoldsDeps,
  eventId: string,
  clientAddress: string,
  request: HoldRequest,
  now: Date,
  replaces: string | undefined,
): Promise<void> {
  const limit = deps.config.heldSeatsPerAddress;
  if (limit <= 0) return;
  const asked = 'seats' in request ? request.seats.length : request.quantity;
  if ((await repo.heldByAddress(deps.db, eventId, clientAddress, now, replaces)) + asked > limit) {
    throw appError(
      'too_many_holds',
      `one address may hold at most ${limit} seats of this event at once: book or let go of the seats held first`,
    );
  }
}

/**
 * Best available for the request, against the seats taken now (the seats of the hold it replaces
 * count as free: they are the buyer's to choose again); 409 when no group fits together.
 */
async function bestFor(
  deps: SeatHoldsDeps,
  plan: EventPlan,
  sitting: repo.Sitting,
  now: Date,
  request: { category: string; quantity: number; accessible?: boolean },
  lost: ReadonlySet<string>,
  replaces: string | undefined,
): Promise<Seat[]> {
  if (!Number.isInteger(request.quantity) || request.quantity < 1 || request.quantity > MAX_SEATS_PER_HOLD)
    throw badRequest('invalid_request', `quantity must be from 1 to ${MAX_SEATS_PER_HOLD}`);
  if (!plan.runs.byCategory.has(request.category))
    throw badRequest('invalid_request', `no category "${request.category}" in this event's seating plan`);
  // A first look shares a read already under way for the event; a second looks afresh.
  const read = lost.size === 0 ? await sharedRead(deps, sitting, now) : await readTaken(deps, sitting, now);
  const mine = new Set(replaces === undefined ? [] : await repo.seatIdsOfHold(deps.db, sitting, replaces));
  const taking = inFlight.get(keyOf(sitting));
  // The seats taken now, less the replaced hold's, plus those this process is taking and those lost:
  // a view over the sets, not a copy of thousands of ids a request.
  const taken = {
    has: (id: string) => (read.has(id) && !mine.has(id)) || taking?.has(id) === true || lost.has(id),
  };
  const ids = bestAvailable(plan.runs, taken, request);
  if (!ids) {
    throw conflict(
      'seats_unavailable',
      `no ${request.quantity} seats side by side are free in ${request.category}${request.accessible ? ' (accessible)' : ''}: choose seats on the map`,
    );
  }
  return ids.map((id) => plan.byId.get(id)!);
}
