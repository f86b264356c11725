// What the seat operations share: their parameters, the seat as answered, and the examples.
import { Type } from 'typebox';
import { EX } from '../../../http/examples.js';
import { Nullable } from '../../../http/schemas.js';
import type { Seat } from '../../seating/plan.js';

export const E = Type.Ref('Error');
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Event id' }) });

export const HeldSeat = Type.Object({
  id: Type.String({ description: 'The seat’s id in the plan: what `seats` names.' }),
  section: Type.String(),
  row: Type.String(),
  number: Type.Integer(),
  label: Type.String({ description: 'What a person reads, e.g. "Row C, seat 12".' }),
  category: Type.String({ description: 'The seat’s category: it is sold as the tier of that name.' }),
});

export const SeatWithStatus = Type.Object({
  ...HeldSeat.properties,
  x: Type.Number(),
  y: Type.Number(),
  accessible: Type.Boolean(),
  status: Type.Union(
    [Type.Literal('available'), Type.Literal('held'), Type.Literal('sold'), Type.Literal('blocked')],
    { description: '`held`: under a hold that has not lapsed, or by a booking waiting for payment.' },
  ),
  registrationId: Nullable(
    Type.String({ description: 'The booking that holds or bought it; always null for a checkout key.' }),
  ),
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

export const HOLD_TOKEN_EXAMPLE = EX.holdToken;

export const HELD_SEATS_EXAMPLE = [
  { id: 'Stalls-A-3', section: 'Stalls', row: 'A', number: 3, label: 'Row A, seat 3', category: 'Gold' },
  { id: 'Stalls-A-4', section: 'Stalls', row: 'A', number: 4, label: 'Row A, seat 4', category: 'Gold' },
];

export const SEAT_EVENT = EX.eventId;
