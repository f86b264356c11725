// What the static-file operations share: an asset served with its ETag, cached for a year when
// its URL names its version and revalidated after five minutes when it does not.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import type { Asset, loadCheckoutAssets } from '../assets.js';

/** The static files the operations serve, loaded once at start. */
export type CheckoutFiles = ReturnType<typeof loadCheckoutAssets>;

function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset) {
  // A versioned URL never changes; the bare one is revalidated after five minutes.
  const pinned = (req.query as { v?: string }).v === asset.version;
  reply
    .header('etag', asset.etag)
    .header('cache-control', pinned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff');
  if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.code(200).type(asset.type).send(asset.body);
}

/** One static file's operation: its URL, which file, its operationId, texts and example. */
export function assetOperation(spec: {
  url: string;
  file: keyof CheckoutFiles;
  operationId: string;
  summary: string;
  description: string;
  example: string;
}): Operation<CheckoutFiles> {
  const examples: OperationExamples = { responses: { '200': spec.example } };
  return (app, files) => {
    const asset = files[spec.file];
    return app.get(
      spec.url,
      {
        config: { auth: { kind: 'public' }, examples },
        schema: {
          operationId: spec.operationId,
          tags: ['checkout'],
          summary: spec.summary,
          description: spec.description,
          querystring: Type.Object({
            v: Type.Optional(
              Type.String({
                maxLength: 40,
                description: 'Content version; a matching one is cached for a year.',
              }),
            ),
          }),
          response: {
            200: {
              description: 'The file.',
              content: { [asset.type.split(';')[0]!]: { schema: { type: 'string' } } },
            },
            304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' },
          } as never,
        },
      },
      async (req, reply) => sendAsset(req, reply, asset),
    );
  };
}
