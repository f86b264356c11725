import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { DOOR_SW } from '../door-page.js';
import type { DoorSyncDeps } from '../door-sync.service.js';

const examples: OperationExamples = {
  responses: { '200': "self.addEventListener('fetch', (event) => { … });" },
};

export const getDoorServiceWorker: Operation<DoorSyncDeps> = (app) =>
  app.get(
    '/door/sw.js',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'getDoorServiceWorker',
        tags: ['check-in'],
        summary: 'The door screen’s service worker (its offline shell)',
        description:
          'Registered by the door screen with scope `/door/`: keeps the door page, its script, style and QR decoder, and the last whole roster (under a hash of the pass), so the screen opens again with no network. Pages and the roster are asked for from the network first; a pass refused (401, 403, 404) is forgotten at once. `Cache-Control: no-cache`, so a new version is picked up on the next visit.',
        response: {
          200: { description: 'The script.', content: { 'text/javascript': { schema: { type: 'string' } } } },
          304: { description: 'Not modified.', type: 'null' },
        } as never,
      },
    },
    async (req, reply) => {
      reply
        .header('etag', DOOR_SW.etag)
        .header('cache-control', 'no-cache')
        .header('service-worker-allowed', '/door/')
        .header('content-security-policy', "default-src 'none'; connect-src 'self'")
        .header('x-content-type-options', 'nosniff');
      if (req.headers['if-none-match'] === DOOR_SW.etag) return reply.code(304).send();
      return reply.type('text/javascript; charset=utf-8').send(DOOR_SW.body);
    },
  );
