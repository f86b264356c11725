// An event's seating plan as the seat rules read it: the plan's seats by id and in runs of
// adjacent seats, made once per version of a plan and kept (a 50,000-seat plan is not regrouped
// on every request).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { appError, conflict } from '../../lib/errors.js';
import { parseTrackIndex } from '../events/events.input.js';
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

/** The event's own plan's sitting: its seat rows are keyed by this track. */
export const EVENT_SITTING = -1;

type SeatedEvent = Pick<EventRow, 'account_id' | 'seating_plan_id' | 'tracks'>;

/**
 * Which sitting of an event a seat request is for: the event's own plan (no `subEventId`), or the
 * plan of the track `subEventId` names. 404 `track_not_found` for no such track; 400
 * `track_required` for an event whose tracks are seated and a request naming none.
 */
export function sittingOf(event: SeatedEvent, subEventId: string | undefined): number {
  if (subEventId === undefined) {
    if (event.seating_plan_id === null && event.tracks.some((t) => t.seatingPlanId))
      throw appError(
        'track_required',
        'this event seats each session (track) apart: name one with subEventId',
        {
          field: 'subEventId',
        },
      );
    return EVENT_SITTING;
  }
  const track = parseTrackIndex(subEventId, 'subEventId');
  if (!event.tracks[track])
    throw appError('track_not_found', `no track at index ${track}`, { field: 'subEventId' });
  return track;
}

/** The plan a sitting is sold from, or null. */
export function planIdOf(event: SeatedEvent, track: number): string | null {
  return track === EVENT_SITTING ? event.seating_plan_id : (event.tracks[track]?.seatingPlanId ?? null);
}

/** The plan of a seated event's sitting; 409 `event_not_seated` when it has none. */
export async function planOfEvent(
  db: Kysely<Database>,
  event: SeatedEvent,
  track: number = EVENT_SITTING,
): Promise<EventPlan> {
  const planId = planIdOf(event, track);
  if (planId === null)
    throw conflict(
      'event_not_seated',
      track === EVENT_SITTING ? 'this event has no seating plan' : `track ${track} has no seating plan`,
    );
  // A 50,000-seat layout is megabytes of JSON: read it only when the copy kept is not current.
  const version = await planVersion(db, event.account_id, planId);
  const kept = made.get(keyOf(version));
  if (kept) return kept;
  const plan = await getPlan(db, event.account_id, planId);
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
