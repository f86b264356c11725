// An account's seating plans: made from a grid or imported as a seat list, read, listed and
// replaced (docs/decisions/23-reserved-seating.md). A plan is layout, not money: the account's test and live keys see the
// same plans, so a plan drawn while trying the service out is the one its live events use.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { decodeCursor, pageOf } from '../../lib/keyset-cursor.js';
import {
  checkLayout,
  generatePlan,
  type GridSection,
  PlanError,
  type Seat,
  type SeatingPlanLayout,
  stageInFront,
} from './plan.js';
import * as repo from './seating.repo.js';
import { editSeats, namedSeats, type SeatAction } from './seat-edits.js';

export type { SeatingPlanRow } from './seating.repo.js';

export interface SeatingDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  /** What a change of a plan that events use must respect (the seat-holds module's, given by the composition root). */
  planGuard: PlanGuard;
}

/** The events sold from a plan, as a change of the plan sees them. */
export interface PlanGuard {
  /**
   * Inside the transaction that changes the plan, under its lock: refuses (409
   * `seating_plan_in_use`) a layout that would take a seat from a booking or a live hold, or that
   * an event using the plan could no longer be sold from.
   */
  check(
    trx: Transaction<Database>,
    accountId: string,
    planId: string,
    layout: SeatingPlanLayout,
  ): Promise<void>;
  /** After the change: each event using the plan made to fit it again (its capacities). */
  refit(accountId: string, planId: string): Promise<void>;
}

/** A seat as an import gives it: the id and label may be left out (made from section, row and number). */
export interface ImportedSeat {
  id?: string;
  section: string;
  row: string;
  number: number;
  label?: string;
  x: number;
  y: number;
  category: string;
  accessible?: boolean;
  blocked?: boolean;
}

/** What a plan is made from: a grid, or a seat list (an import, or the plan as read and edited). */
export type PlanSource =
  | { grid: { sections: GridSection[]; stage?: { x: number; y: number } } }
  | { layout: { seats: ImportedSeat[]; stage?: { x: number; y: number } } };

/** The layout a source makes; 400 `invalid_seating_plan` says what is wrong with it. */
export function layoutFrom(source: PlanSource): SeatingPlanLayout {
  try {
    if ('grid' in source) return generatePlan(source.grid.sections, source.grid.stage);
    const seats: Seat[] = source.layout.seats.map((s) => ({
      id: s.id ?? `${s.section}-${s.row}-${s.number}`,
      section: s.section,
      row: s.row,
      number: s.number,
      label: s.label ?? `Row ${s.row}, seat ${s.number}`,
      x: s.x,
      y: s.y,
      category: s.category,
      accessible: s.accessible ?? false,
      blocked: s.blocked ?? false,
    }));
    return checkLayout({ seats, stage: source.layout.stage ?? stageInFront(seats) });
  } catch (err) {
    if (err instanceof PlanError) throw badRequest('invalid_seating_plan', err.message);
    throw err;
  }
}

export async function createPlan(
  deps: SeatingDeps,
  accountId: string,
  input: { name: string } & PlanSource,
): Promise<repo.SeatingPlanRow> {
  const layout = layoutFrom(input);
  return repo.insertPlan(deps.db, {
    id: deps.ids.make('seatplan', 16),
    accountId,
    name: input.name,
    layout,
    at: deps.clock.now(),
  });
}

export async function getPlan(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  id: string,
): Promise<repo.SeatingPlanRow> {
  const plan = await repo.findPlan(db, accountId, id);
  if (!plan) throw notFound('no such seating plan');
  return plan;
}

/** When a plan last changed (its seats are not read); 404 as getPlan. */
export async function planVersion(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  id: string,
): Promise<{ id: string; updated_at: Date }> {
  const v = await repo.planVersion(db, accountId, id);
  if (!v) throw notFound('no such seating plan');
  return v;
}

export async function listPlans(
  db: Kysely<Database>,
  accountId: string,
  page: { limit: number; startingAfter?: string },
) {
  const rows = await repo.listPlans(db, accountId, page.limit, decodeCursor(page.startingAfter));
  return pageOf(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }));
}

/**
 * Replaces a plan's name, its seats, or both, under the plan's lock. A plan that events are sold
 * from keeps every seat booked or held on one (409 `seating_plan_in_use` otherwise), and those
 * events are refitted to it afterwards (their capacities are its seats).
 */
export async function replacePlan(
  deps: SeatingDeps,
  accountId: string,
  id: string,
  input: { name?: string } & Partial<PlanSource>,
): Promise<repo.SeatingPlanRow> {
  const layout = 'grid' in input || 'layout' in input ? layoutFrom(input as PlanSource) : undefined;
  return changePlan(deps, accountId, id, (current) => ({
    name: input.name ?? current.name,
    layout: layout ?? current.layout,
  }));
}

/** Changes a plan as `change` says of the plan as it is under its lock; see replacePlan. */
async function changePlan(
  deps: SeatingDeps,
  accountId: string,
  id: string,
  change: (current: repo.SeatingPlanRow) => { name: string; layout: SeatingPlanLayout },
): Promise<repo.SeatingPlanRow> {
  let seatsChanged = false;
  const updated = await deps.db.transaction().execute(async (trx) => {
    await repo.lockPlan(trx, id, false);
    const current = await getPlan(trx, accountId, id);
    const next = change(current);
    seatsChanged = next.layout !== current.layout;
    if (seatsChanged) await deps.planGuard.check(trx, accountId, id, next.layout);
    return repo.updatePlan(trx, accountId, id, { ...next, at: deps.clock.now() });
  });
  if (!updated) throw notFound('no such seating plan');
  if (seatsChanged) await deps.planGuard.refit(accountId, id);
  return updated;
}

/** Takes a plan's lock shared for the transaction: a hold choosing seats by the plan (see seating.repo.ts). */
export async function sharePlanLock(trx: Transaction<Database>, id: string): Promise<void> {
  await repo.lockPlan(trx, id, true);
}

/** The categories of a layout and how many seats each has (blocked ones aside). */
export function categoriesOf(layout: SeatingPlanLayout): { name: string; seats: number }[] {
  const counts = new Map<string, number>();
  for (const s of layout.seats) if (!s.blocked) counts.set(s.category, (counts.get(s.category) ?? 0) + 1);
  return [...counts].map(([name, seats]) => ({ name, seats }));
}

/**
 * Blocks or releases seats, or marks them accessible or not, by the names a person types
 * ("A1, C5-C12", "Balcony:A1"): the dashboard's plan screen. Answers the plan and how many seats
 * were named; 400 `invalid_seating_plan` says which name fits no seat.
 */
export async function editPlanSeats(
  deps: SeatingDeps,
  accountId: string,
  id: string,
  selection: string,
  action: SeatAction,
): Promise<{ plan: repo.SeatingPlanRow; named: number }> {
  let named = 0;
  const plan = await changePlan(deps, accountId, id, (current) => {
    let seats: Seat[];
    try {
      seats = namedSeats(current.layout.seats, selection);
    } catch (err) {
      if (err instanceof PlanError) throw badRequest('invalid_seating_plan', err.message);
      throw err;
    }
    named = seats.length;
    return { name: current.name, layout: editSeats(current.layout, new Set(seats.map((s) => s.id)), action) };
  });
  return { plan, named };
}
