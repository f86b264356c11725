import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { DoorSyncDeps } from '../door-sync.service.js';
import * as door from '../door.service.js';
import { E, Params, Scope, Pass } from './door-api.js';

const examples: OperationExamples = {
  requests: { default: { value: { label: 'Gate A', expiresAt: '2027-01-16T23:59:00+05:30' } } },
  responses: {
    '201': {
      success: true,
      data: {
        id: EX.passId,
        label: 'Gate A',
        createdAt: '2026-11-25T07:51:24.908Z',
        expiresAt: '2027-01-16T18:29:00.000Z',
        revokedAt: null,
        scope: null,
        url: 'https://tickets.example.in/door/NB_fBzlhnrxyNGajm4z3LT0J1RmH8ZjS',
      },
    },
  },
};

export const createDoorPass: Operation<DoorSyncDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/door-passes',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'createDoorPass',
        tags: ['check-in'],
        summary: 'Create a door pass: a link that opens this event’s door screen',
        description:
          'Answers the pass once with `url` (`{BASE_URL}/door/{token}`); the token (192 random bits) is never shown again — only its sha256 is kept. Anyone holding the link may look up, admit and undo at this one event’s door, and sees names, ticket types, tracks and check-in state, never email, phone, answers or money. `expiresAt` (optional) ends it; `DELETE` revokes it at once. The dashboard’s event page creates passes too.\n\n`scope` makes it a check-in list: `{ trackIndex }` admits that track’s tickets, `{ date }` the tickets of sessions on that day; whole-event tickets are admitted at every list. A ticket of another session is refused with `reason: wrong_session` and `session` (the session it is valid for). A booking is admitted once per list, so a two-day ticket is admitted on each day’s list. Without `scope` (or null) the pass admits for the whole event, whose admissions are the ones the API’s check-in, exports and analytics show. An unknown `trackIndex` is 404 `track_not_found`.',
        params: Params,
        body: Type.Object(
          {
            label: Type.String({
              minLength: 1,
              maxLength: 80,
              description: 'Who or where it is for (“Gate A”), shown as who admitted someone.',
            }),
            expiresAt: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
            scope: Type.Optional(Scope),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({ ...Pass.properties, url: Type.String() }),
            }),
            'The door pass; `url` holds its token and is shown in this answer only.',
          ),
          404: E,
        },
      },
    },
    async (req, reply) =>
      reply.code(201).send({
        success: true as const,
        data: await door.createPass(deps, keyPrincipal(req), req.params.id, req.body),
      }),
  );
