// The proof-of-work challenge a buyer's browser solves before joining the waiting room.
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { E, Slug } from './shared.js';
import * as room from '../waiting-room.service.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      parameters: {
        algorithm: 'SHA-256',
        nonce: '6f1d0a2b9c8e7f6a5b4c3d2e1f0a9b8c',
        salt: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
        cost: 1,
        keyLength: 32,
        keyPrefix: '9c1e5b7a3d2f4e6a8b0c1d2e3f4a5b6c',
        data: { event: EX.eventId, expires: 1796800200000 },
      },
      signature: 'b1946ac92492d2347c6235b4d2611184a1c9e2f3d4b5a6c7d8e9f0a1b2c3d4e5',
    },
  },
};

export const getQueueChallenge: Operation<room.WaitingRoomDeps> = (app, deps) =>
  app.get(
    '/e/:slug/queue/challenge',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'getQueueChallenge',
        tags: ['waiting room'],
        summary: 'A proof-of-work challenge for joining the waiting room',
        description: [
          'An ALTCHA challenge (altcha-lib, SHA-256, deterministic mode) signed by the service: find the counter whose key, SHA-256(salt ‖ nonce ‖ counter as 4 bytes big-endian), begins with `keyPrefix`. The counter was drawn below `WAITING_ROOM_POW_MAX_NUMBER`, so a browser needs about half that many hashes. Send the solution with `POST /e/{slug}/queue/join` as `altcha`: base64 of the JSON `{ challenge, solution: { counter, derivedKey } }` (what the ALTCHA widget sends). A challenge is for this event, holds 10 minutes and is spent by one join.',
          'No credentials. 404 `waiting_room_not_found` when the event’s waiting room is off.',
        ].join('\n\n'),
        params: Slug,
        response: {
          200: answer(
            Type.Object(
              {
                parameters: Type.Object(
                  {
                    algorithm: Type.String(),
                    nonce: Type.String(),
                    salt: Type.String(),
                    cost: Type.Integer(),
                    keyLength: Type.Integer(),
                    keyPrefix: Type.String(),
                    data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
                  },
                  { additionalProperties: true },
                ),
                signature: Type.String(),
              },
              { additionalProperties: true },
            ),
            'The challenge, as altcha-lib’s createChallenge makes it.',
          ),
          404: E,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return room.challenge(deps, req.params.slug);
    },
  );
