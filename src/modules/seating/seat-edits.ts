// Editing a plan's seats by name, as a person types them on the dashboard: "A1, A2, C5-C12", or
// with the section first when rows repeat across sections ("Balcony:A1-A4"), or a seat's id.
// Pure: the dashboard's plan screen reads a selection and an action and sends the seats back.
import { PlanError, type Seat, type SeatingPlanLayout } from './plan.js';

export type SeatAction = 'block' | 'release' | 'accessible' | 'not-accessible';

const MAX_TOKENS = 2_000;
const TOKEN = /^(?:(.+):)?([A-Za-z]{1,3})(\d{1,4})(?:-([A-Za-z]{1,3})?(\d{1,4}))?$/;

/** The seats `text` names, each once, in plan order; PlanError names the first token that fits no seat. */
export function namedSeats(seats: readonly Seat[], text: string): Seat[] {
  const tokens = text.split(/[\s,;]+/).filter((t) => t !== '');
  if (tokens.length === 0) throw new PlanError('name at least one seat, for example A1 or A1-A8');
  if (tokens.length > MAX_TOKENS) throw new PlanError(`name at most ${MAX_TOKENS} seats or ranges at once`);
  const byId = new Map(seats.map((s) => [s.id, s]));
  const chosen = new Set<string>();
  for (const token of tokens) {
    const exact = byId.get(token);
    if (exact) {
      chosen.add(exact.id);
      continue;
    }
    for (const s of seatsOf(seats, token)) chosen.add(s.id);
  }
  return seats.filter((s) => chosen.has(s.id));
}

function seatsOf(seats: readonly Seat[], token: string): Seat[] {
  const m = TOKEN.exec(token);
  if (!m) throw new PlanError(`"${token}" is not a seat: write a row and a number, such as A1 or A1-A8`);
  const [, section, row, from, toRow, to] = m;
  if (toRow !== undefined && toRow.toUpperCase() !== row!.toUpperCase())
    throw new PlanError(`"${token}": a range stays in one row`);
  const lo = Number(from);
  const hi = to === undefined ? lo : Number(to);
  const found = seats.filter(
    (s) =>
      s.row.toUpperCase() === row!.toUpperCase() &&
      s.number >= Math.min(lo, hi) &&
      s.number <= Math.max(lo, hi) &&
      (section === undefined || s.section.toLowerCase() === section.toLowerCase()),
  );
  if (found.length === 0) throw new PlanError(`"${token}" names no seat of this plan`);
  if (section === undefined && new Set(found.map((s) => s.section)).size > 1) {
    throw new PlanError(
      `"${token}" is in more than one section: put the section first, such as ${found[0]!.section}:${token}`,
    );
  }
  return found;
}

/** The layout with `action` applied to the seats whose ids are in `ids`. */
export function editSeats(
  layout: SeatingPlanLayout,
  ids: ReadonlySet<string>,
  action: SeatAction,
): SeatingPlanLayout {
  const change = (s: Seat): Seat => {
    switch (action) {
      case 'block':
        return { ...s, blocked: true };
      case 'release':
        return { ...s, blocked: false };
      case 'accessible':
        return { ...s, accessible: true };
      case 'not-accessible':
        return { ...s, accessible: false };
    }
  };
  return { ...layout, seats: layout.seats.map((s) => (ids.has(s.id) ? change(s) : s)) };
}
