import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { OPEN, type OpsDeps } from './ops.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      openapi: '3.1.0',
      info: { title: 'Event Ticketing and Memberships API', version: '1.0.0' },
      paths: { '/api/v1/events': { get: { operationId: 'listEvents' } } },
    },
  },
};

export const getOpenApiDocument: Operation<OpsDeps> = (app) => {
  // The document does not change while the service runs: made into bytes once, at the first call.
  let document: { bytes: Buffer; etag: string } | undefined;
  return app.get(
    '/api/v1/openapi.json',
    {
      config: { auth: OPEN, examples },
      schema: {
        operationId: 'getOpenApiDocument',
        tags: ['operations'],
        summary: 'This API described in OpenAPI 3.1',
        description:
          'The same bytes on every call while the service runs, with an `ETag`: `If-None-Match` with it answers 304 without a body.',
        response: {
          200: answer(Type.Object({}, { additionalProperties: true }), 'The OpenAPI 3.1 document.'),
          304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' } as never,
        },
      },
    },
    async (req, reply) => {
      const doc = (document ??= openapiBytes(app.swagger()));
      reply.header('etag', doc.etag).header('cache-control', 'no-cache');
      if (matchesEtag(req.headers['if-none-match'], doc.etag)) return reply.code(304).send();
      return reply.type('application/json').send(doc.bytes);
    },
  );
};

function openapiBytes(doc: unknown): { bytes: Buffer; etag: string } {
  const bytes = Buffer.from(JSON.stringify(doc));
  return { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or a list of tags compared weakly (W/ ignored). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
