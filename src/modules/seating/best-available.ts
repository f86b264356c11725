// Best available: which seats to hold for "n seats in category C"
// (docs/decisions/23-reserved-seating.md). Pure: it reads
// a plan's seats and which are unavailable (sold, held or blocked) and answers seat ids.
//
// - Only adjacent seats in one row: a row splits into runs at its aisles (a gap wider than one
//   and a half times the row's usual spacing), and a group never spans two runs or two rows.
// - Nearest the stage first: by the distance from the group's middle to the stage.
// - No single empty seat left between taken ones when another choice avoids it.
// - Accessible seats only when asked (`accessible: true` asks for accessible seats only).
// When no run holds the group together the answer is undefined: the caller says so (409) and
// the buyer picks seats on the map, rather than being split up without being asked.
import type { Seat } from './plan.js';

export interface BestAvailableRequest {
  category: string;
  quantity: number;
  accessible?: boolean;
}

/** A plan's seats grouped into runs of adjacent seats (rows cut at their aisles), made once per plan. */
export interface SeatRuns {
  runs: Seat[][];
  stage: { x: number; y: number };
  /**
   * The runs' indexes, nearest the stage first by `bounds` (the distance from the stage to the
   * box around a run: no group of its seats, whose middle lies in the box, is nearer).
   */
  nearestFirst: number[];
  bounds: number[];
  /** For each category, the runs with a seat of it, nearest first: a search looks at no other run. */
  byCategory: Map<string, number[]>;
}

/** Groups a plan's seats into runs: each row sorted across, cut where the gap is an aisle. */
export function seatRuns(seats: readonly Seat[], stage: { x: number; y: number }): SeatRuns {
  const rows = new Map<string, Seat[]>();
  for (const s of seats) {
    const key = `${s.section}\u0000${s.row}`;
    const row = rows.get(key);
    if (row) row.push(s);
    else rows.set(key, [s]);
  }
  const runs: Seat[][] = [];
  for (const row of rows.values()) {
    row.sort((a, b) => a.x - b.x || a.number - b.number);
    const gaps = row.slice(1).map((s, i) => Math.hypot(s.x - row[i]!.x, s.y - row[i]!.y));
    const usual = gaps.length ? Math.min(...gaps) : 1;
    let run: Seat[] = [row[0]!];
    for (let i = 1; i < row.length; i++) {
      if (gaps[i - 1]! > usual * 1.5) {
        runs.push(run);
        run = [];
      }
      run.push(row[i]!);
    }
    runs.push(run);
  }
  const bounds = runs.map((r) => boxDistance(r, stage));
  const nearestFirst = runs.map((_, i) => i).sort((a, b) => bounds[a]! - bounds[b]! || a - b);
  const byCategory = new Map<string, number[]>();
  for (const r of nearestFirst) {
    for (const category of new Set(runs[r]!.map((s) => s.category))) {
      const list = byCategory.get(category);
      if (list) list.push(r);
      else byCategory.set(category, [r]);
    }
  }
  return { runs, stage, nearestFirst, bounds, byCategory };
}

/** The distance from `p` to the smallest box around `seats`. */
function boxDistance(seats: readonly Seat[], p: { x: number; y: number }): number {
  const xs = seats.map((s) => s.x);
  const ys = seats.map((s) => s.y);
  const dx = Math.max(Math.min(...xs) - p.x, 0, p.x - Math.max(...xs));
  const dy = Math.max(Math.min(...ys) - p.y, 0, p.y - Math.max(...ys));
  return Math.hypot(dx, dy);
}

interface Choice {
  seats: Seat[];
  /** Where it starts in plan order (run, then seat): the first of two equally near choices wins. */
  order: [number, number];
  distance: number;
  leavesSingle: boolean;
}

/** Which seats are sold or held: a set, or a view over several (the caller's, without copying them). */
export interface Unavailable {
  has(seatId: string): boolean;
}

/**
 * The seats to hold for `request`, or undefined when no run has that many adjacent seats free.
 * `unavailable` says which seats are sold and held; blocked seats are never chosen. Only the runs
 * with a seat of the category are looked at.
 */
export function bestAvailable(
  plan: SeatRuns,
  unavailable: Unavailable,
  request: BestAvailableRequest,
): string[] | undefined {
  const { quantity, category } = request;
  const wantAccessible = request.accessible === true;
  if (!Number.isInteger(quantity) || quantity < 1) return undefined;
  const free = (s: Seat) => !s.blocked && !unavailable.has(s.id);
  const fits = (s: Seat) => free(s) && s.category === category && s.accessible === wantAccessible;
  let best: Choice | undefined;
  for (const r of plan.byCategory.get(category) ?? []) {
    // Runs come nearest first: once a choice strands no seat, a run whose every group is farther
    // cannot beat it.
    if (best && !best.leavesSingle && plan.bounds[r]! > best.distance + 1e-9) break;
    const run = plan.runs[r]!;
    // `fitting` counts the seats that fit ending at i: a window fits when it reaches quantity.
    // (One pass a run, no copy a position: a 50,000-seat plan is looked through in about a millisecond.)
    let fitting = 0;
    for (let i = 0; i < run.length; i++) {
      fitting = fits(run[i]!) ? fitting + 1 : 0;
      if (fitting < quantity) continue;
      const start = i + 1 - quantity;
      const group = run.slice(start, i + 1);
      const choice: Choice = {
        seats: group,
        order: [r, start],
        distance: distanceToStage(group, plan.stage),
        leavesSingle: leavesSingle(run, start, quantity, free),
      };
      if (!best || better(choice, best)) best = choice;
    }
  }
  return best?.seats.map((s) => s.id);
}

/** Whether taking run[start, start + quantity) leaves one free seat with no free neighbour, between taken ones. */
export function leavesSingle(
  run: readonly Seat[],
  start: number,
  quantity: number,
  free: (s: Seat) => boolean,
): boolean {
  const end = start + quantity;
  const open = (i: number) => i >= 0 && i < run.length && (i < start || i >= end) && free(run[i]!);
  const taken = (i: number) => i >= 0 && i < run.length && !open(i);
  // The only seats whose neighbours change are the ones just outside the group.
  return (open(start - 1) && taken(start - 2)) || (open(end) && taken(end + 1));
}

function distanceToStage(group: readonly Seat[], stage: { x: number; y: number }): number {
  const x = group.reduce((sum, s) => sum + s.x, 0) / group.length;
  const y = group.reduce((sum, s) => sum + s.y, 0) / group.length;
  return Math.hypot(x - stage.x, y - stage.y);
}

/** A choice that leaves no single seat wins; then the nearer one; then the first in plan order. */
function better(a: Choice, b: Choice): boolean {
  if (a.leavesSingle !== b.leavesSingle) return !a.leavesSingle;
  if (Math.abs(a.distance - b.distance) > 1e-9) return a.distance < b.distance;
  return a.order[0] < b.order[0] || (a.order[0] === b.order[0] && a.order[1] < b.order[1]);
}
