import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { notFound } from '../../../lib/errors.js';
import { DOOR_ASSETS } from '../door-page.js';
import type { DoorSyncDeps } from '../door-sync.service.js';
import { E } from './door-api.js';

const examples: OperationExamples = {
  params: { name: EX.doorAsset },
  responses: { '200': '(function webpackUniversalModuleDefinition(root, factory) { … })' },
};

export const getDoorAsset: Operation<DoorSyncDeps> = (app) =>
  app.get(
    '/door/assets/:name',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'getDoorAsset',
        tags: ['check-in'],
        summary: 'The door screen’s script, style and QR decoder',
        description:
          'Versioned names (a hash of the content), cached for good; `If-None-Match` with the ETag answers 304.',
        params: Type.Object({ name: Type.String({ maxLength: 100 }) }),
        response: {
          200: {
            description: 'The file.',
            content: {
              'text/javascript': { schema: { type: 'string' } },
              'text/css': { schema: { type: 'string' } },
            },
          },
          304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' },
          404: E,
        } as never,
      },
    },
    async (req, reply) => {
      const asset = DOOR_ASSETS.find((a) => a.name === req.params.name);
      if (!asset) throw notFound('no such file');
      reply
        .header('etag', asset.etag)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff');
      if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.type(asset.type).send(asset.body);
    },
  );
