// JSON body parsers. Both refuse text that is not Unicode: JSON can spell an unpaired UTF-16
// surrogate ("\ud800"), which PostgreSQL refuses inside json (a 500) and stores as U+FFFD
// inside text (a silent change). Bytes on the wire cannot carry one (the UTF-8 decoder
// replaces them), so only such an escape can, and the check runs only when the text has one.
import type { FastifyInstance } from 'fastify';
import { appError, type AppError } from './errors.js';

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether any string in a parsed JSON value, object keys included, has an unpaired surrogate. */
export function hasUnpairedSurrogate(value: unknown): boolean {
  // A loop, not recursion: a megabyte body can nest half a million levels deep.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return true;
    } else if (Array.isArray(v)) {
      for (const inner of v) pending.push(inner);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        if (LONE_SURROGATE.test(k)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

function unpairedSurrogate(text: string, value: unknown): AppError | null {
  if (!SURROGATE_ESCAPE.test(text) || !hasUnpairedSurrogate(value)) return null;
  return appError('invalid_json', 'body has a string with an unpaired UTF-16 surrogate (a \\ud800–\\udfff escape without its pair), which is not Unicode text');
}

/** Fastify's own JSON parser (it refuses `__proto__` and `constructor.prototype` keys), with the check above. */
export function parseJson(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parse(req, body as string, (err, value) => {
      if (err) done(err, undefined);
      else {
        const refused = unpairedSurrogate(body as string, value);
        done(refused, refused ? undefined : value);
      }
    });
  });
}

// For routes whose bodies carry keys the caller chooses (answers keyed by an event's question
// names): `__proto__` and `constructor` are kept as ordinary own properties, which is what
// JSON.parse does, instead of refusing the body as Fastify's default parser does. Code reading
// such objects uses own-property checks or Maps.
export function parseJsonKeepingEveryKey(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(appError('invalid_json', 'body is empty but Content-Type is application/json'), undefined);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      done(appError('invalid_json', 'body is not valid JSON'), undefined);
      return;
    }
    const refused = unpairedSurrogate(text, value);
    done(refused, refused ? undefined : value);
  });
}
