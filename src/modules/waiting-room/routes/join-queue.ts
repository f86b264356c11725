// Joining an event's waiting room, step one: a solved challenge, then a one-time code to the contact.
import { Type } from 'typebox';
import { addressKey } from '../../../http/client-address.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { E, Slug } from './shared.js';
import * as room from '../contact-verification.js';
import type { WaitingRoomDeps } from '../waiting-room.service.js';

const examples: OperationExamples = {
  requests: {
    default: { value: { email: 'rohan@example.in', altcha: EX.queueAltcha } },
  },
  responses: {
    '202': {
      verificationId: EX.queueVerificationId,
      channel: 'email',
      sentTo: 'r***@example.in',
      expiresAt: '2027-01-10T04:40:00.000Z',
    },
  },
};

const JoinBody = Type.Object(
  {
    email: Type.String({
      minLength: 3,
      maxLength: 254,
      description: 'The buyer’s email: the contact the code goes to by mail, and the booking’s email.',
    }),
    phone: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'E.164 or a 10-digit Indian mobile number; needed for `channel: "whatsapp"`.',
      }),
    ),
    channel: Type.Optional(
      Type.Union([Type.Literal('email'), Type.Literal('whatsapp')], {
        description: 'Where the code goes (default `email`).',
      }),
    ),
    altcha: Type.Optional(
      Type.String({
        maxLength: 4_000,
        description:
          'The solved challenge of `GET /e/{slug}/queue/challenge`: base64 of `{ challenge, solution }`.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const joinQueue: Operation<WaitingRoomDeps> = (app, deps) =>
  app.post(
    '/e/:slug/queue/join',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'joinQueue',
        tags: ['waiting room'],
        summary: 'Join the waiting room',
        description: [
          'Step one of two: sends a one-time code (6 digits, valid 10 minutes by the service’s clock) to the contact, by mail, or by WhatsApp with `channel: "whatsapp"` and a `phone` when the service has WhatsApp codes configured (`WHATSAPP_CODE_TEMPLATE`). In test mode the code is kept in the Test inbox (`GET /api/v1/sandbox/emails`), whatever the channel. No place is made yet: give the code back to `POST /e/{slug}/queue/verify` with `verificationId`. `sentTo` is the contact, masked.',
          'The place is bound to the contact the code went to: one place per verified email and one per verified phone per event; joining and verifying again with the same contact (another device, a reload) answers the same place. Before the sale’s `opensAt` the place is in the pre-queue (shuffled at the opening: arriving early gives no better place than anyone else who came before it); after it at the end of the queue in the order codes are verified.',
          'No credentials; at most `WAITING_ROOM_JOINS_PER_ADDRESS_MINUTE` joins a minute from one client address (IPv6 by its /64): 429 `too_many_joins` with Retry-After; at most 5 codes an hour to one contact (the email, or the phone for WhatsApp) for the event, counted after a good proof of work: 429 `too_many_codes` with Retry-After. 403 `proof_of_work_required` without `altcha`, 403 `proof_of_work_invalid` for a wrong, expired, other event’s or already used solution; 400 `invalid_email`, `invalid_phone`, `phone_required` (WhatsApp without a phone), `channel_unavailable` (WhatsApp codes not configured); 404 `waiting_room_not_found` when the room is off; 503 `waiting_room_unavailable` while the queue’s Redis does not answer.',
        ].join('\n\n'),
        params: Slug,
        body: JoinBody,
        response: {
          202: answer(
            Type.Object({
              verificationId: Type.String({
                description: 'Give it back with the code to `POST /e/{slug}/queue/verify`.',
              }),
              channel: Type.Union([Type.Literal('email'), Type.Literal('whatsapp')]),
              sentTo: Type.String({ description: 'The contact the code went to, masked.' }),
              expiresAt: Type.String({ format: 'date-time', description: 'The code is refused from then.' }),
            }),
            'A code is on its way.',
          ),
          400: E,
          403: E,
          404: E,
          429: E,
          503: E,
        },
      },
    },
    async (req, reply) => {
      reply.code(202).header('cache-control', 'no-store');
      return room.join(deps, req.params.slug, req.body, addressKey(req.ip));
    },
  );
