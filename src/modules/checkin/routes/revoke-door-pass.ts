import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { DoorSyncDeps } from '../door-sync.service.js';
import * as door from '../door.service.js';
import { E, Pass } from './door-api.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        id: EX.passId,
        label: 'Gate A',
        createdAt: '2026-11-25T07:51:24.908Z',
        expiresAt: '2027-01-16T18:29:00.000Z',
        revokedAt: '2026-11-25T07:51:24.908Z',
        scope: null,
      },
    },
  },
};

export const revokeDoorPass: Operation<DoorSyncDeps> = (app, deps) =>
  app.delete(
    '/api/v1/events/:id/door-passes/:passId',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'revokeDoorPass',
        tags: ['check-in'],
        summary: 'Revoke a door pass at once',
        description:
          'The next request made with it — page, roster or sync — answers 403 `door_pass_revoked`. Revoking again changes nothing.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }), passId: Type.String({ maxLength: 100 }) }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Pass }),
            'The door pass, now revoked.',
          ),
          404: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await door.revokePass(deps, keyPrincipal(req), req.params.id, req.params.passId),
    }),
  );
