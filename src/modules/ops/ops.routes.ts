import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ping } from '../../db/connect.js';
import type { Deps } from '../../deps.js';
import { unavailable } from '../../shared/errors.js';
import { errorResponses } from '../../shared/schemas.js';

export const opsRoutes =
  (deps: Pick<Deps, 'db' | 'storage'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    const noLimit = { auth: { kind: 'public', rateLimit: false } } as const;

    app.get(
      '/healthz',
      {
        config: noLimit,
        schema: {
          tags: ['operations'],
          summary: 'Liveness: the process answers',
          response: { 200: Type.Object({ status: Type.Literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: noLimit,
        schema: {
          tags: ['operations'],
          summary: 'Readiness: the database answers',
          response: { 200: Type.Object({ status: Type.Literal('ready'), storage: Type.String() }), ...errorResponses([503]) },
        },
      },
      async () => {
        try {
          await ping(deps.db);
        } catch {
          throw unavailable('database_unavailable', 'the database does not answer');
        }
        return { status: 'ready' as const, storage: deps.storage };
      },
    );

    app.get(
      '/api/v1/openapi.json',
      {
        config: noLimit,
        schema: {
          tags: ['operations'],
          summary: 'This API described in OpenAPI 3.1',
          response: { 200: Type.Object({}, { additionalProperties: true }) },
        },
      },
      async (_req, reply) => reply.type('application/json').serializer(JSON.stringify).send(app.swagger()),
    );
  };
