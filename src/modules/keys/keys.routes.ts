import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { KeyCache } from './keys.service.js';
import { sessionPrincipal } from '../../http/auth.js';
import * as keys from './keys.service.js';

const Key = Type.Object({
  id: Type.String(),
  name: Type.String(),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  class: Type.Union([Type.Literal('full'), Type.Literal('checkout')]),
  allowedOrigin: Type.Union([Type.String(), Type.Null()]),
  prefix: Type.String({ description: 'The first characters of the key, for recognising it; the key itself is never stored.' }),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

function present(row: keys.KeyRow) {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    class: row.class,
    allowedOrigin: row.allowed_origin,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

export const keysRoutes =
  (deps: { db: Kysely<Database>; clock: Clock; ids: Ids; keyCache: KeyCache }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const session = { auth: { kind: 'session' } } as const;

    app.get(
      '/dashboard/api/keys',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: "List this account's API keys (never the secret)",
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Key) }) },
        },
      },
      async (req) => ({ success: true as const, data: (await keys.listKeys(deps.db, sessionPrincipal(req).userId)).map(present) }),
    );

    app.post(
      '/dashboard/api/keys',
      {
        config: session,
        schema: {
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
            201: Type.Object({ success: Type.Literal(true), data: Key, key: Type.String({ description: 'The key. Shown once.' }) }),
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
        return reply.code(201).send({ success: true as const, data: present(row), key });
      },
    );

    app.delete(
      '/dashboard/api/keys/:keyId',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: 'Revoke an API key; it answers 403 from then on',
          params: Type.Object({ keyId: Type.String({ maxLength: 100 }) }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Key }), 404: Type.Ref('Error') },
        },
      },
      async (req) => ({ success: true as const, data: present(await keys.revokeKey(deps, sessionPrincipal(req), req.params.keyId)) }),
    );
  };
