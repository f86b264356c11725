// A JSON body parser for routes whose bodies carry keys the caller chooses (answers keyed
// by an event's question names): `__proto__` and `constructor` are kept as ordinary own
// properties, which is what JSON.parse does, instead of refusing the body as Fastify's
// default parser does. Code reading such objects uses own-property checks or Maps.
import type { FastifyInstance } from 'fastify';
import { appError } from './errors.js';

export function parseJsonKeepingEveryKey(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(appError('invalid_json', 'body is empty but Content-Type is application/json'), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(appError('invalid_json', 'body is not valid JSON'), undefined);
    }
  });
}
