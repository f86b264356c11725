// An event with seating plans (docs/decisions/23-reserved-seating.md): the event's own plan, or a
// plan on each of its tracks (a sitting each: the same plan on two tracks is two sittings). Each
// category is sold as the tier of the same name, and the capacities are the seats (blocked ones
// and house seats aside): a track's its plan's, a tier's its category's over every sitting, the
// event's all of them; so the seat counters that guard every booking count seats too.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { SeatingPlanLayout } from '../seating/plan.js';
import { categoriesOf, getPlan } from '../seating/seating-plans.js';
import type { EventFields } from './events.input.js';

/** The house seats an event keeps back, by sitting (-1 the event's own plan, else a track's index) and category. */
export type KeptSeats = ReadonlyMap<number, ReadonlyMap<string, number>>;

type Fitted = Pick<
  EventFields,
  'tracks' | 'special_prices' | 'capacity' | 'seating_plan_id' | 'whole_event_option'
>;

const invalid = (message: string) => badRequest('invalid_seating_plan', message);

/** Whether an event sells reserved seats: from its own plan, or its tracks'. */
export function isSeated(event: Pick<EventFields, 'tracks' | 'seating_plan_id'>): boolean {
  return event.seating_plan_id !== null || event.tracks.some((t) => t.seatingPlanId);
}

/** The same as `isSeated`, in SQL over an `events` row named `e` (the door's statements compose it). */
export const SEATED_SQL = `(e.seating_plan_id is not null or e.tracks @? '$[*].seatingPlanId')`;

/** The plans an event's fields name, the event's own first; none for an unseated event. */
export function plansNamed(fields: Pick<EventFields, 'tracks' | 'seating_plan_id'>): string[] {
  const ids = [fields.seating_plan_id, ...fields.tracks.map((t) => t.seatingPlanId ?? null)];
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

/**
 * Fits `fields` to their seating plans in place (`replaced`: a plan's layout as it is about to
 * become); 400 `invalid_seating_plan` when they cannot be.
 */
export async function fitToPlan(
  db: Kysely<Database>,
  accountId: string,
  fields: Fitted,
  kept: KeptSeats = new Map(),
  replaced?: { id: string; layout: SeatingPlanLayout },
): Promise<void> {
  const layouts = new Map<string, SeatingPlanLayout>();
  for (const id of plansNamed(fields)) {
    if (replaced?.id === id) {
      layouts.set(id, replaced.layout);
      continue;
    }
    const plan = await getPlan(db, accountId, id).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404)
        throw invalid(`seatingPlanId "${id}" names no seating plan of this account`);
      throw err;
    });
    layouts.set(id, plan.layout);
  }
  if (layouts.size > 0) fitToLayouts(fields, layouts, kept);
}

/** Fits `fields` to the layouts of the plans they name, in place; 400 `invalid_seating_plan` when they cannot be. */
export function fitToLayouts(
  fields: Fitted,
  layouts: ReadonlyMap<string, SeatingPlanLayout>,
  kept: KeptSeats = new Map(),
): void {
  const sittings = sittingsOf(fields).map(({ track, planId }) => ({
    track,
    seats: seatsByCategory(layouts.get(planId)!, kept.get(track)),
  }));
  const byTier = new Map<string, number>();
  for (const s of sittings) for (const [name, n] of s.seats) byTier.set(name, (byTier.get(name) ?? 0) + n);
  for (const name of byTier.keys()) {
    if (!fields.special_prices.some((t) => t.name === name))
      throw invalid(
        `the plan's category "${name}" has no tier of that name in specialPrices: each category is sold as the tier named after it`,
      );
  }
  const stray = fields.special_prices.find((t) => !byTier.has(t.name));
  if (stray)
    throw invalid(
      `the tier "${stray.name}" names no category of the seating plan, so it would have no seats to sell`,
    );
  const total = (seats: ReadonlyMap<string, number>) => [...seats.values()].reduce((a, n) => a + n, 0);
  fields.capacity = sittings.reduce((sum, s) => sum + total(s.seats), 0);
  fields.special_prices = fields.special_prices.map((t) => ({ ...t, capacity: byTier.get(t.name)! }));
  if (fields.seating_plan_id !== null) return;
  // Seated tracks: each is sold from its plan, and the whole event has no seats of its own.
  fields.whole_event_option = false;
  fields.tracks = fields.tracks.map((t, i) => ({ ...t, capacity: total(sittings[i]!.seats) }));
}

/** The sittings of a seated event: its own plan, or one per track (every track has a plan, or none does). */
function sittingsOf(fields: Fitted): { track: number; planId: string }[] {
  if (fields.seating_plan_id !== null) {
    if (fields.tracks.length > 0)
      throw invalid(
        'an event with tracks is seated track by track: give each track a seatingPlanId instead of the event',
      );
    return [{ track: -1, planId: fields.seating_plan_id }];
  }
  const plans = fields.tracks.map((t) => t.seatingPlanId ?? null);
  if (plans.some((id) => id === null))
    throw invalid('every track of a seated event takes a seatingPlanId (two may share one), or none does');
  return plans.map((planId, track) => ({ track, planId: planId! }));
}

/** A plan's seats for sale by category, less the house seats kept back; at least one each. */
function seatsByCategory(layout: SeatingPlanLayout, kept: ReadonlyMap<string, number> | undefined) {
  const categories = categoriesOf(layout);
  // Capacity 0 means unlimited: a plan with every seat blocked must not become that.
  if (categories.length === 0) throw invalid('the seating plan has no seat that is not blocked');
  return new Map(categories.map((c) => [c.name, Math.max(1, c.seats - (kept?.get(c.name) ?? 0))]));
}
