import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as keys from '../keys.service.js';
import { Key, type KeysDeps, presentKey, SESSION } from './key.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        id: EX.keyId,
        name: 'Box office',
        mode: 'test',
        class: 'checkout',
        allowedOrigin: 'https://shop.example.in',
        prefix: 'pk_test_0YK_',
        createdAt: '2026-11-25T07:51:24.908Z',
        revokedAt: '2026-11-25T07:51:24.908Z',
      },
    },
  },
};

export const revokeApiKey: Operation<KeysDeps> = (app, deps) =>
  app.delete(
    '/dashboard/api/keys/:keyId',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'revokeApiKey',
        tags: ['dashboard'],
        summary: 'Revoke an API key; it answers 403 from then on',
        description:
          'Revokes one of the signed-in account’s keys at once: every later request with it answers 403 `key_revoked`. Revoking twice answers the revoked key.',
        params: Type.Object({ keyId: Type.String({ maxLength: 100 }) }),
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), data: Key }), 'The revoked key.'),
          404: Type.Ref('Error'),
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: presentKey(await keys.revokeKey(deps, sessionPrincipal(req), req.params.keyId)),
    }),
  );
