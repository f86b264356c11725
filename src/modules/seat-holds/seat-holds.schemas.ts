// The seat as the seat operations answer it, and the counts of each status: shared by this
// module's operations and the hosted page's (src/modules/checkout/routes/hosted-*seat*.ts).
import { Type } from 'typebox';
import type { Seat } from '../seating/plan.js';

export const HeldSeat = Type.Object({
  id: Type.String({ description: 'The seat’s id in the plan: what `seats` names.' }),
  section: Type.String(),
  row: Type.String(),
  number: Type.Integer(),
  label: Type.String({ description: 'What a person reads, e.g. "Row C, seat 12".' }),
  category: Type.String({ description: 'The seat’s category: it is sold as the tier of that name.' }),
});

/** Which track's seats, for an event seated track by track (each track's `seatingPlanId`). */
export const SubEventId = Type.String({
  maxLength: 10,
  description:
    'For an event seated track by track: the track (its index, `0`, `1` …) whose seats these are; each track is a sitting of its own plan. Required there (400 `track_required`); absent for an event with a plan of its own. 404 `track_not_found` for no such track.',
});

const Count = Type.Integer({ minimum: 0 });

/** How many seats have each status. */
export const SeatCounts = Type.Object({ available: Count, held: Count, sold: Count, blocked: Count });

export const presentHeldSeat = (s: Seat) => ({
  id: s.id,
  section: s.section,
  row: s.row,
  number: s.number,
  label: s.label,
  category: s.category,
});
