// What a change of a seating plan must respect while events are sold from it
// (docs/decisions/23-reserved-seating.md): no seat booked or held on one of them may go, be
// blocked or change category, and each of them must still be sellable from the plan (a tier per
// category); afterwards each is refitted (its capacities are the plan's seats). The check runs in
// the transaction that changes the plan, under the plan's lock, which a hold takes shared: no
// hold can take a seat by the old plan while the new one is being checked and written.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, conflict } from '../../lib/errors.js';
import { nowFor } from '../accounts/account-clock.js';
import * as events from '../events/events.service.js';
import type { SeatingPlanLayout } from '../seating/plan.js';
import type { PlanGuard } from '../seating/seating-plans.js';
import * as houseRepo from './house-seats.repo.js';
import { EVENT_SITTING, planIdOf } from './event-plan.js';
import * as repo from './seat-holds.repo.js';

const inUse = (message: string) => conflict('seating_plan_in_use', message);

/** The guard the seating module is given (the composition root builds it). */
export function planGuard(eventDeps: events.EventDeps): PlanGuard {
  return {
    check: (trx, accountId, planId, layout) =>
      checkPlanChange(trx, eventDeps.clock, accountId, planId, layout),
    refit: async (accountId, planId) => {
      for (const event of await events.eventsOnPlan(eventDeps.db, accountId, planId))
        await events.refitToPlan(eventDeps, event);
    },
  };
}

async function checkPlanChange(
  trx: Transaction<Database>,
  clock: Clock,
  accountId: string,
  planId: string,
  layout: SeatingPlanLayout,
): Promise<void> {
  const seated = await events.eventsOnPlan(trx, accountId, planId);
  if (seated.length === 0) return;
  const byId = new Map(layout.seats.map((s) => [s.id, s]));
  for (const event of seated) {
    const now = await nowFor({ db: trx, clock }, accountId, event.mode);
    const sittings = [EVENT_SITTING, ...event.tracks.keys()].filter((t) => planIdOf(event, t) === planId);
    const rows = [];
    for (const track of sittings)
      rows.push(...(await repo.takenSeats(trx, { eventId: event.id, track }, now)));
    for (const row of rows) {
      if (row.status === 'blocked') continue; // the event's own house seat, not the plan's
      const seat = byId.get(row.seat_id);
      const change = !seat
        ? 'removes'
        : seat.blocked
          ? 'blocks'
          : seat.category !== row.category
            ? `moves to ${seat.category}`
            : undefined;
      if (change) {
        throw inUse(
          `this change ${change} seat ${row.seat_id}, which is ${row.registration_id === null ? 'held' : 'booked'} on “${event.title}” (${event.id}): a seat sold or held stays as it is until its booking or hold ends`,
        );
      }
    }
    try {
      await events.fitToPlan(
        trx,
        accountId,
        events.fieldsOf(event),
        await houseRepo.blockedByCategory(trx, event.id),
        {
          id: planId,
          layout,
        },
      );
    } catch (err) {
      if (err instanceof AppError && err.status === 400)
        throw inUse(
          `“${event.title}” (${event.id}) is sold from this plan and could not be after it: ${err.message}`,
        );
      throw err;
    }
  }
}
