// What the API's check-in operations share: the ticket's state as they answer it, and their
// path parameter.
import { Type } from 'typebox';
import { Nullable } from '../../../http/schemas.js';

const Reason = Type.Union(
  [
    Type.Literal('cancelled'),
    Type.Literal('refunded'),
    Type.Literal('not_confirmed'),
    Type.Literal('transferred'),
    Type.Literal('wrong_session'),
  ],
  {
    description:
      '`wrong_session` only at a door pass’s track or day list (the API’s check-in admits for the whole event).',
  },
);

const Seat = (whose: string) =>
  Nullable(
    Type.String({
      description: `${whose} seat at a seated event, as the ticket shows it (“Stalls · Row C, seat 12”). Always present: null at an event without a seating plan, and for a booking whose seats were freed (cancelled, refunded).`,
    }),
  );

export const Status = Type.Object({
  registrationId: Type.String(),
  name: Type.String({ description: 'The scanned person (the member for a member’s own QR).' }),
  seat: Seat('The scanned person’s (for a booking QR, the primary’s)'),
  email: Type.String(),
  ticketType: Type.String(),
  admissible: Type.Boolean(),
  checkedIn: Type.Boolean({
    description: 'Whether the scanned person (or, for a booking QR, everyone on it) is in.',
  }),
  arrived: Type.Integer({ description: 'People on the booking already in.' }),
  expected: Type.Integer({ description: 'People on the booking.' }),
  memberIndex: Nullable(
    Type.Integer({ description: 'The one person this scan is about, when it is about one.' }),
  ),
  members: Type.Array(
    Type.Object({
      index: Type.Integer(),
      id: Type.String({ description: 'Their QR value.' }),
      name: Type.String(),
      seat: Seat('Their'),
      checkedIn: Type.Boolean(),
      checkedInAt: Nullable(Type.String({ format: 'date-time' })),
    }),
    { description: 'Everyone on the booking, the primary first.' },
  ),
  refusalReason: Type.Optional(Reason),
});

export const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const E = Type.Ref('Error');
