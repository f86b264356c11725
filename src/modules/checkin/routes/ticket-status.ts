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

export const Status = Type.Object({
  registrationId: Type.String(),
  name: Type.String({ description: 'The scanned person (the member for a member’s own QR).' }),
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
      checkedIn: Type.Boolean(),
      checkedInAt: Nullable(Type.String({ format: 'date-time' })),
    }),
    { description: 'Everyone on the booking, the primary first.' },
  ),
  refusalReason: Type.Optional(Reason),
});

export const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const E = Type.Ref('Error');
