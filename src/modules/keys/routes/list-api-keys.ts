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
      data: [
        {
          id: EX.keyId,
          name: 'test full key',
          mode: 'test',
          class: 'full',
          allowedOrigin: null,
          prefix: 'sk_test_VCMn',
          createdAt: '2026-11-25T07:51:24.908Z',
          revokedAt: null,
        },
      ],
    },
  },
};

export const listApiKeys: Operation<KeysDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/keys',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'listApiKeys',
        tags: ['dashboard'],
        summary: "List this account's API keys (never the secret)",
        description:
          'The signed-in account’s API keys, both modes, with their display prefix, class, pinned origins and revocation; the secret is never shown again.',
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(Key) }),
            'The account’s keys, never their secrets.',
          ),
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: (await keys.listKeys(deps.db, sessionPrincipal(req).userId)).map(presentKey),
    }),
  );
