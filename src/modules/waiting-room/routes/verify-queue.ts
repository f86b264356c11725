// Joining an event's waiting room, step two: the one-time code back, the verified contact's place.
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as room from '../contact-verification.js';
import type { WaitingRoomDeps } from '../waiting-room.service.js';
import { E, Slug } from './shared.js';

const examples: OperationExamples = {
  requests: { default: { value: { verificationId: EX.queueVerificationId, code: EX.queueCode } } },
  responses: {
    '200': { placeId: 'wp_8fJ2kQ1xLm0aZ9pYvN3bTw', statusToken: EX.queueStatusToken },
  },
};

export const verifyQueue: Operation<WaitingRoomDeps> = (app, deps) =>
  app.post(
    '/e/:slug/queue/verify',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'verifyQueue',
        tags: ['waiting room'],
        summary: 'Give back the one-time code and take the place',
        description: [
          'Step two of joining: the code `POST /e/{slug}/queue/join` sent. The right code, within 10 minutes, answers the place of the verified contact (made now, or the one it has: the same place on every device and after a reload) and its `statusToken` for `GET /e/{slug}/queue/status`. A code is accepted once; after the opening, places are queued in the order their codes were verified.',
          'No credentials. 400 `invalid_code` for a wrong code (`attemptsLeft` says how many tries remain); the fifth wrong code spends the verification: 429 `too_many_attempts` then and after (join again for a new code). 400 `code_expired` past its 10 minutes; 400 `invalid_verification` for an id this event never gave, or whose code was accepted already; 404 `waiting_room_not_found` when the room is off; 503 `waiting_room_unavailable` while the queue’s Redis does not answer.',
        ].join('\n\n'),
        params: Slug,
        body: Type.Object(
          {
            verificationId: Type.String({ maxLength: 80, description: 'The `verificationId` of the join.' }),
            code: Type.String({ minLength: 1, maxLength: 20, description: 'The six digits sent.' }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              placeId: Type.String(),
              statusToken: Type.String({ description: 'Names this place to `GET /e/{slug}/queue/status`.' }),
            }),
            'The verified contact’s place.',
          ),
          400: E,
          404: E,
          429: E,
          503: E,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return room.verify(deps, req.params.slug, req.body);
    },
  );
