import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { DoorSyncDeps } from '../door-sync.service.js';
import * as door from '../door.service.js';
import { E, Params, Pass } from './door-api.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: EX.passId,
          label: 'Gate A',
          createdAt: '2026-11-25T07:51:24.908Z',
          expiresAt: '2027-01-16T18:29:00.000Z',
          revokedAt: null,
          scope: null,
        },
      ],
    },
  },
};

export const listDoorPasses: Operation<DoorSyncDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/door-passes',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listDoorPasses',
        tags: ['check-in'],
        summary: 'List the event’s door passes (never their tokens)',
        description:
          'The event’s door passes, newest first: label, expiry and revocation. The token is shown once, when the pass is made.',
        params: Params,
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(Pass) }),
            'The event’s door passes, never their tokens.',
          ),
          404: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await door.listPasses(deps.db, keyPrincipal(req), req.params.id),
    }),
  );
