// Seating plans as data: seats with a place (x, y), a category and two marks (accessible,
// blocked), and where the stage is. Plans are made by the grid generator below or imported as
// JSON; both come out as the same seat list. Pure: no database, no clock
// (docs/decisions/23-reserved-seating.md).

/** One seat of a plan. `id` is stable across edits (section, row and number). */
export interface Seat {
  id: string;
  section: string;
  row: string;
  number: number;
  /** What a person reads: "Row C, seat 12". */
  label: string;
  x: number;
  y: number;
  category: string;
  accessible: boolean;
  blocked: boolean;
}

/** A plan's seats and where its stage is (default: in front of the first row, at the smallest y). */
export interface SeatingPlanLayout {
  stage: { x: number; y: number };
  seats: Seat[];
}

/** A block of the grid generator: `rows` rows of `seatsPerRow` seats. */
export interface GridSection {
  name: string;
  rows: number;
  seatsPerRow: number;
  /** One category for the block, or one per row from the front (the last repeats). */
  category: string | string[];
  /** The first row's letter (default A); I and O are skipped, as on most tickets. */
  firstRow?: string;
  /** Seat numbers after which an aisle runs (a gap of one seat). */
  aisleAfter?: number[];
  /** Seat 1 at the left (default) or at the right, seen from the stage. */
  numbering?: 'left-to-right' | 'right-to-left';
  /** 0 for straight rows; more bends the ends of each row towards the stage. */
  curve?: number;
  /** Where the block's first seat sits; blocks side by side need their own origins. */
  origin?: { x: number; y: number };
  /** Seat numbers (1-based) per row marked accessible, e.g. the aisle ends of row A. */
  accessible?: { row: string; seats: number[] }[];
}

export const MAX_SEATS = 60_000;
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Row labels from `first`: A, B … Z (no I, no O), then AA, AB … */
export function rowLabels(first: string, count: number): string[] {
  const start = LETTERS.indexOf(first.toUpperCase());
  if (first.length !== 1 || start < 0) throw new PlanError(`firstRow must be one letter from ${LETTERS}`);
  const out: string[] = [];
  for (let i = start; out.length < count; i++) {
    let n = i;
    let label = '';
    do {
      label = LETTERS[n % LETTERS.length] + label;
      n = Math.floor(n / LETTERS.length) - 1;
    } while (n >= 0);
    out.push(label);
  }
  return out;
}

/** A plan the caller asked for that cannot exist (the routes answer 400 `invalid_seating_plan`). */
export class PlanError extends Error {}

/** Builds the seats of a grid: each section's rows front to back, seats across with aisles. */
export function generatePlan(
  sections: readonly GridSection[],
  stage?: { x: number; y: number },
): SeatingPlanLayout {
  // Counted before any seat is made: a grid of thousands of rows is refused, not built.
  const total = sections.reduce((n, s) => n + Math.max(0, s.rows) * Math.max(0, s.seatsPerRow), 0);
  if (total > MAX_SEATS)
    throw new PlanError(`a plan holds at most ${MAX_SEATS} seats; this grid makes ${total}`);
  const seats: Seat[] = [];
  for (const s of sections) {
    if (s.rows < 1 || s.seatsPerRow < 1)
      throw new PlanError(`section ${s.name}: rows and seatsPerRow must be at least 1`);
    const labels = rowLabels(s.firstRow ?? 'A', s.rows);
    const origin = s.origin ?? { x: 0, y: 0 };
    const aisles = new Set(s.aisleAfter ?? []);
    const mid = (s.seatsPerRow - 1) / 2;
    for (const [r, row] of labels.entries()) {
      const category =
        typeof s.category === 'string'
          ? s.category
          : (s.category[Math.min(r, s.category.length - 1)] ?? 'General');
      const accessible = new Set(s.accessible?.find((a) => a.row === row)?.seats ?? []);
      let column = 0;
      for (let i = 0; i < s.seatsPerRow; i++) {
        const number = s.numbering === 'right-to-left' ? s.seatsPerRow - i : i + 1;
        const bend = s.curve ? s.curve * ((i - mid) / Math.max(1, mid)) ** 2 : 0;
        seats.push({
          id: `${s.name}-${row}-${number}`,
          section: s.name,
          row,
          number,
          label: `Row ${row}, seat ${number}`,
          x: origin.x + column,
          y: origin.y + r - bend,
          category,
          accessible: accessible.has(number),
          blocked: false,
        });
        column += aisles.has(s.numbering === 'right-to-left' ? number - 1 : number) ? 2 : 1;
      }
    }
  }
  return checkLayout({ stage: stage ?? stageInFront(seats), seats });
}

/** The default stage: centred in front of the first row (at the smallest y, one row ahead). */
export function stageInFront(seats: readonly Seat[]): { x: number; y: number } {
  if (seats.length === 0) return { x: 0, y: -1 };
  let [minX, maxX, minY] = [Infinity, -Infinity, Infinity];
  for (const s of seats) {
    minX = Math.min(minX, s.x);
    maxX = Math.max(maxX, s.x);
    minY = Math.min(minY, s.y);
  }
  return { x: (minX + maxX) / 2, y: minY - 1 };
}

/** Checks an imported or edited layout: ids unique, numbers finite, a seat count within MAX_SEATS. */
export function checkLayout(layout: SeatingPlanLayout): SeatingPlanLayout {
  if (layout.seats.length === 0) throw new PlanError('a plan needs at least one seat');
  if (layout.seats.length > MAX_SEATS) throw new PlanError(`a plan holds at most ${MAX_SEATS} seats`);
  const ids = new Set<string>();
  for (const s of layout.seats) {
    if (ids.has(s.id)) throw new PlanError(`seat ${s.id} appears twice`);
    ids.add(s.id);
    if (!Number.isFinite(s.x) || !Number.isFinite(s.y))
      throw new PlanError(`seat ${s.id}: x and y must be numbers`);
  }
  return layout;
}
