// The API's shapes for requests for publishing access (organiser and staff routes share them).
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { MESSAGE_MAX, REASON_MAX } from './publishing.js';

export const PublishingRequest = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('granted'), Type.Literal('declined')]),
  message: Type.String({ description: 'What the organiser wrote: who they are and what they will sell.' }),
  reason: Nullable(
    Type.String({ description: 'Why staff declined (null otherwise); the organiser is mailed it.' }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  decidedAt: Nullable(Type.String({ format: 'date-time' })),
});

export const RequestMessage = Type.String({
  minLength: 1,
  maxLength: MESSAGE_MAX,
  description: `A short note for the staff who review it: who you are and what you will sell (at most ${MESSAGE_MAX} characters).`,
});
export const DeclineReason = Type.String({
  minLength: 1,
  maxLength: REASON_MAX,
  description: `Why, in words the organiser can act on; mailed to them (at most ${REASON_MAX} characters).`,
});

export const ReviewedRequest = Type.Object({
  ...PublishingRequest.properties,
  account: Type.Object(
    {
      userId: Type.String(),
      email: Type.String(),
      name: Type.String(),
      phone: Nullable(Type.String()),
      emailVerified: Type.Boolean(),
      canPublish: Type.Boolean(),
      createdAt: Type.String({ format: 'date-time', description: 'When the account signed up.' }),
      events: Type.Object(
        { test: Type.Integer(), live: Type.Integer() },
        { description: 'Events of the account in each mode.' },
      ),
    },
    { description: 'The facts of the account staff decide on.' },
  ),
});
