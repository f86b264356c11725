// An event's seating plan as the seat rules read it: the plan's seats by id and in runs of
// adjacent seats, made once per version of a plan and kept (a 50,000-seat plan is not regrouped
// on every request).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { conflict } from '../../lib/errors.js';
import type { EventRow } from '../events/events.service.js';
import { type SeatRuns, seatRuns } from '../seating/best-available.js';
import type { Seat } from '../seating/plan.js';
import { getPlan } from '../seating/seating-plans.js';

export interface EventPlan {
  planId: string;
  stage: { x: number; y: number };
  seats: readonly Seat[];
  byId: ReadonlyMap<string, Seat>;
  runs: SeatRuns;
}

const KEEP = 64;
const made = new Map<string, EventPlan>();

/** The plan of a seated event; 409 `event_not_seated` for an event without one. */
export async function planOfEvent(
  db: Kysely<Database>,
  event: Pick<EventRow, 'account_id' | 'seating_plan_id'>,
): Promise<EventPlan> {
  if (event.seating_plan_id === null) throw conflict('event_not_seated', 'this event has no seating plan');
  const plan = await getPlan(db, event.account_id, event.seating_plan_id);
  const key = `${plan.id}@${plan.updated_at.toISOString()}`;
  const kept = made.get(key);
  if (kept) return kept;
  const seats = plan.layout.seats;
  const out: EventPlan = {
    planId: plan.id,
    stage: plan.layout.stage,
    seats,
    byId: new Map(seats.map((s) => [s.id, s])),
    runs: seatRuns(seats, plan.layout.stage),
  };
  if (made.size >= KEEP) made.delete(made.keys().next().value!);
  made.set(key, out);
  return out;
}
