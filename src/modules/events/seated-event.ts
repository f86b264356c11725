// An event with a seating plan (docs/decisions/23-reserved-seating.md): each category of the plan
// is sold as the tier of the same name, and the event's and tiers' capacities are the plan's seats
// (blocked ones aside), so the seat counters that guard every booking count seats too.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { SeatingPlanLayout } from '../seating/plan.js';
import { categoriesOf, getPlan } from '../seating/seating-plans.js';
import type { EventFields } from './events.input.js';

/** Fits `fields` to its seating plan in place: 400 `invalid_seating_plan` when they cannot be. */
export async function fitToPlan(
  db: Kysely<Database>,
  accountId: string,
  fields: EventFields,
  kept: ReadonlyMap<string, number> = new Map(),
): Promise<void> {
  if (fields.seating_plan_id === null) return;
  const plan = await getPlan(db, accountId, fields.seating_plan_id).catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404)
      throw badRequest('invalid_seating_plan', 'seatingPlanId names no seating plan of this account');
    throw err;
  });
  fitToLayout(fields, plan.layout, kept);
}

/**
 * Fits `fields` to a plan's layout in place (its seats, less the event's house seats `kept` by
 * category, are the capacities); 400 `invalid_seating_plan` when they cannot be.
 */
export function fitToLayout(
  fields: Pick<EventFields, 'tracks' | 'special_prices' | 'capacity'>,
  layout: SeatingPlanLayout,
  kept: ReadonlyMap<string, number> = new Map(),
): void {
  if (fields.tracks.length > 0) {
    throw badRequest(
      'invalid_seating_plan',
      'an event with tracks cannot take a seating plan yet: seat an event without tracks',
    );
  }
  const categories = categoriesOf(layout).map((c) => ({
    name: c.name,
    seats: Math.max(1, c.seats - (kept.get(c.name) ?? 0)),
  }));
  // Capacity 0 means unlimited: a plan with every seat blocked must not become that.
  if (categories.length === 0)
    throw badRequest('invalid_seating_plan', 'the seating plan has no seat that is not blocked');

  const seats = new Map(categories.map((c) => [c.name, c.seats]));
  for (const c of categories) {
    if (!fields.special_prices.some((t) => t.name === c.name)) {
      throw badRequest(
        'invalid_seating_plan',
        `the plan's category "${c.name}" has no tier of that name in specialPrices: each category is sold as the tier named after it`,
      );
    }
  }
  const stray = fields.special_prices.find((t) => !seats.has(t.name));
  if (stray) {
    throw badRequest(
      'invalid_seating_plan',
      `the tier "${stray.name}" names no category of the seating plan, so it would have no seats to sell`,
    );
  }
  fields.capacity = categories.reduce((sum, c) => sum + c.seats, 0);
  fields.special_prices = fields.special_prices.map((t) => ({ ...t, capacity: seats.get(t.name)! }));
}
