// What the seat operations share: their parameters, the seat with its status, and the examples
// (the held seat and the counts are in ../seat-holds.schemas.ts).
import { Type } from 'typebox';
import { EX } from '../../../http/examples.js';
import { Nullable } from '../../../http/schemas.js';
import { HeldSeat } from '../seat-holds.schemas.js';

export { SubEventId } from '../seat-holds.schemas.js';

export const E = Type.Ref('Error');
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Event id' }) });

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

export const HOLD_TOKEN_EXAMPLE = EX.holdToken;

export const HELD_SEATS_EXAMPLE = [
  { id: 'Stalls-A-3', section: 'Stalls', row: 'A', number: 3, label: 'Row A, seat 3', category: 'Gold' },
  { id: 'Stalls-A-4', section: 'Stalls', row: 'A', number: 4, label: 'Row A, seat 4', category: 'Gold' },
];

export const SEAT_EVENT = EX.eventId;
