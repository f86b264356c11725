import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as keys from '../keys.service.js';
import { Key, type KeysDeps, presentKey, SESSION } from './key.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        name: 'Box office',
        mode: 'test',
        class: 'checkout',
        allowedOrigin: 'https://shop.example.in',
      },
    },
  },
  responses: {
    '201': {
      success: true,
      data: {
        id: EX.keyId,
        name: 'Box office',
        mode: 'test',
        class: 'checkout',
        allowedOrigin: 'https://shop.example.in',
        prefix: 'pk_test_0YK_',
        createdAt: '2026-11-25T07:51:24.908Z',
        revokedAt: null,
      },
      key: 'pk_test_0YK_d65ieRm2uTrpWdAAXzWPTGKsTGFa',
    },
  },
};

export const createApiKey: Operation<KeysDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/keys',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'createApiKey',
        tags: ['dashboard'],
        summary: 'Create an API key; the key is shown in this answer only',
        description: [
          '`class: full` keys (`sk_…`) may call everything but event deletion and stay on a server. `class: checkout` keys (`pk_…`) may read events, register and subscribe, and may be pinned to one browser origin with `allowedOrigin` (scheme and host, e.g. `https://shop.example.in`). A `live` key needs a verified email address (403 `email_unverified` until the verification mail is opened); test keys work at once.',
          `An account holds at most ${keys.MAX_LIVE_KEYS_PER_MODE} keys in use (not revoked) per mode: one more answers 409 \`key_limit\` until one is revoked. Each key has its own request limit (\`RATE_LIMIT_PER_MINUTE\`) and all the account's keys together one more (\`RATE_LIMIT_PER_ACCOUNT_MINUTE\`).`,
        ].join(' '),
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ maxLength: 100 })),
            mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
            class: Type.Union([Type.Literal('full'), Type.Literal('checkout')]),
            allowedOrigin: Type.Optional(Type.String({ maxLength: 300 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Key,
              key: Type.String({ description: 'The key. Shown once.' }),
            }),
            'The key; `key` is the secret, shown in this answer only.',
          ),
          403: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const { row, key } = await keys.createKey(deps, sessionPrincipal(req), {
        name: req.body.name,
        mode: req.body.mode,
        keyClass: req.body.class,
        allowedOrigin: req.body.allowedOrigin,
      });
      return reply.code(201).send({ success: true as const, data: presentKey(row), key });
    },
  );
