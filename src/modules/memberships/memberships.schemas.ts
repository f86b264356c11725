// A membership as the API shows it: the memberships routes answer with it, and so does the
// staff's manual add (admin/). Kept out of the routes file so other modules' routes can use it.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';

export const Membership = Type.Object({
  id: Type.String(),
  planId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String()),
  status: Type.String({
    description:
      'Stored state: created, authorised, active, halted, ended or pending_payment. A lapsed fixed term stays active.',
  }),
  displayStatus: Type.Union(
    [
      Type.Literal('pending_authorisation'),
      Type.Literal('active'),
      Type.Literal('past_due'),
      Type.Literal('cancelling'),
      Type.Literal('ended'),
      Type.Literal('expired'),
    ],
    { description: 'Computed when read, from the clock.' },
  ),
  goodStanding: Type.Boolean({ description: 'Computed when read.' }),
  validUntil: Nullable(Type.String({ format: 'date-time' })),
  source: Type.Union([Type.Literal('api'), Type.Literal('manual')]),
  subscriptionId: Nullable(Type.String()),
  cancelAtPeriodEnd: Type.Boolean(),
  endedAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
});
