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
  return { runs, stage };
}

interface Choice {
  seats: Seat[];
  distance: number;
  leavesSingle: boolean;
}

/**
 * The seats to hold for `request`, or undefined when no run has that many adjacent seats free.
 * `unavailable` holds the ids of sold and held seats; blocked seats are never chosen.
 */
export function bestAvailable(
  plan: SeatRuns,
  unavailable: ReadonlySet<string>,
  request: BestAvailableRequest,
): string[] | undefined {
  const { quantity, category } = request;
  const wantAccessible = request.accessible === true;
  if (!Number.isInteger(quantity) || quantity < 1) return undefined;
  const free = (s: Seat) => !s.blocked && !unavailable.has(s.id);
  const fits = (s: Seat) => free(s) && s.category === category && s.accessible === wantAccessible;
  let best: Choice | undefined;
  for (const run of plan.runs) {
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
  return a.distance < b.distance - 1e-9;
}
