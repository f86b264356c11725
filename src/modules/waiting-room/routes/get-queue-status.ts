// Where a place in the waiting room stands, for the waiting page to ask every few seconds.
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { Nullable } from '../../../http/schemas.js';
import { answer, type Operation } from '../../../http/operation.js';
import { E, Slug } from './shared.js';
import { withSoldOut } from '../sold-out.js';
import * as room from '../waiting-room.service.js';

const examples: OperationExamples = {
  params: { token: EX.queueStatusToken },
  responses: {
    '200': {
      state: 'waiting',
      position: 412,
      ahead: 37,
      estimatedWaitSeconds: 19,
      opensAt: '2027-01-10T04:30:00.000Z',
    },
  },
};

export const getQueueStatus: Operation<room.WaitingRoomDeps> = (app, deps) =>
  app.get(
    '/e/:slug/queue/status',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'getQueueStatus',
        tags: ['waiting room'],
        summary: 'A place’s state in the waiting room',
        description: [
          '`waiting` with `position` (1 is the head), `ahead` (people still waiting before this place) and `estimatedWaitSeconds` (null, with `opensAt`, in the pre-queue before the opening, and for the moment the opening takes to put the pre-queue in order); `admitted` with `admissionToken`, which the hosted page’s registration needs (`POST /e/{slug}/register`, field `admissionToken`) until `admissionExpiresAt` (`sessionMinutes` from the first answer that said admitted); `closed` once that session has lapsed. The queue admits `admitPerMinute` places a minute from its head, by the service’s clock.',
          '`soldOut: true` (in any state) once the event has no tickets left: the waiting page then tells everyone and offers the waitlist. The service looks at most every 5 seconds per event and instance (and at once after a booking on this instance found the event full), so it may lag a sale by that much.',
          'Cheap to ask every few seconds: with Redis the answer reads Redis only, and the event’s room settings are remembered for up to 5 seconds. No credentials. 400 `invalid_queue_token` for a token that names no place of this event; 404 `waiting_room_not_found` when the room is off; 503 `waiting_room_unavailable` while the queue’s Redis does not answer (the place is kept: ask again).',
        ].join('\n\n'),
        params: Slug,
        querystring: Type.Object({
          token: Type.String({ maxLength: 200, description: 'The `statusToken` of the join.' }),
        }),
        response: {
          200: answer(
            Type.Object({
              state: Type.Union([Type.Literal('waiting'), Type.Literal('admitted'), Type.Literal('closed')]),
              position: Nullable(Type.Integer({ minimum: 1 })),
              ahead: Nullable(Type.Integer({ minimum: 0 })),
              estimatedWaitSeconds: Nullable(Type.Integer({ minimum: 0 })),
              opensAt: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
              admissionToken: Type.Optional(Type.String({ description: 'While `admitted`: book with it.' })),
              admissionExpiresAt: Type.Optional(Type.String({ format: 'date-time' })),
              soldOut: Type.Optional(
                Type.Literal(true, { description: 'The event has no tickets left: offer the waitlist.' }),
              ),
            }),
            'The place’s state.',
          ),
          400: E,
          404: E,
          503: E,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return withSoldOut(deps, req.params.slug, await room.status(deps, req.params.slug, req.query.token));
    },
  );
