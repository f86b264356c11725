// An event's seating plan as the seat rules read it: the plan's seats by id and in runs of
// adjacent seats, made once per version of a plan and kept (a 50,000-seat plan is not regrouped
// on every request).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { conflict } from '../../lib/errors.js';
import type { EventRow } from '../events/events.service.js';
import { type SeatRuns, seatRuns } from '../seating/best-available.js';
import type { Seat } from '../seating/plan.js';
import { getPlan, planVersion } from '../seating/seating-plans.js';

export interface EventPlan {
  planId: string;
  /** The version of the plan these seats are (its last change). */
  updatedAt: Date;
  stage: { x: number; y: number };
  seats: readonly Seat[];
  byId: ReadonlyMap<string, Seat>;
  runs: SeatRuns;
  /** Each seat's place in plan order. */
  indexOf: ReadonlyMap<string, number>;
  /** The plan's own statuses, one letter a seat in plan order (`a` available, `b` blocked): what a map starts from. */
  letters: Buffer;
  blockedCount: number;
}

const KEEP = 64;
const keyOf = (v: { id: string; updated_at: Date }) => `${v.id}@${v.updated_at.toISOString()}`;
const made = new Map<string, EventPlan>();

/** The plan of a seated event; 409 `event_not_seated` for an event without one. */
export async function planOfEvent(
  db: Kysely<Database>,
  event: Pick<EventRow, 'account_id' | 'seating_plan_id'>,
): Promise<EventPlan> {
  if (event.seating_plan_id === null) throw conflict('event_not_seated', 'this event has no seating plan');
  // A 50,000-seat layout is megabytes of JSON: read it only when the copy kept is not current.
  const version = await planVersion(db, event.account_id, event.seating_plan_id);
  const kept = made.get(keyOf(version));
  if (kept) return kept;
  const plan = await getPlan(db, event.account_id, event.seating_plan_id);
  const key = keyOf(plan);
  const seats = plan.layout.seats;
  const out: EventPlan = {
    planId: plan.id,
    updatedAt: plan.updated_at,
    stage: plan.layout.stage,
    seats,
    byId: new Map(seats.map((s) => [s.id, s])),
    runs: seatRuns(seats, plan.layout.stage),
    indexOf: new Map(seats.map((s, i) => [s.id, i])),
    letters: Buffer.from(seats.map((s) => (s.blocked ? 'b' : 'a')).join(''), 'latin1'),
    blockedCount: seats.filter((s) => s.blocked).length,
  };
  if (made.size >= KEEP) made.delete(made.keys().next().value!);
  made.set(key, out);
  return out;
}
