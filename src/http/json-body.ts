// JSON body parsers. Both refuse a body nested deeper than MAX_JSON_DEPTH before parsing it
// (a linear scan; a megabyte of `[` would otherwise be parsed, then walked, on the event loop).
// Both refuse text that is not Unicode: JSON can spell an unpaired UTF-16
// surrogate ("\ud800"), which PostgreSQL refuses inside json (a 500) and stores as U+FFFD
// inside text (a silent change). Bytes on the wire cannot carry one (the UTF-8 decoder
// replaces them), so only such an escape can, and the check runs only when the text has one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appError, type AppError } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** A signed webhook's body as received (parseSignedJson). */
    rawBody?: string;
  }
}

/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `text` opens more than `max` arrays or objects inside one another, found in one
 * pass that skips strings (brackets inside them, and escaped quotes, do not count). It stops
 * at the first bracket too deep, or at a closing bracket with nothing open (JSON.parse then
 * refuses the text at that very place, before anything after it).
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote; a backslash escapes the character after it.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth < 0) return false;
    }
  }
  return false;
}

/** The refusal of a body nested too deep, or null. Runs before any JSON.parse. */
export function tooDeep(text: string): AppError | null {
  return jsonTooDeep(text)
    ? appError('invalid_json', `body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep`)
    : null;
}

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
  return appError(
    'invalid_json',
    'body has a string with an unpaired UTF-16 surrogate (a \\ud800–\\udfff escape without its pair), which is not Unicode text',
  );
}

/** Fastify's own JSON parser (it refuses `__proto__` and `constructor.prototype` keys), with the check above. */
export function parseJson(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const deep = tooDeep(body as string);
    if (deep) {
      done(deep, undefined);
      return;
    }
    void parse(req, body as string, (err, value) => {
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
    const deep = tooDeep(text);
    if (deep) {
      done(deep, undefined);
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

/**
 * For signed webhooks (the gateway's, WhatsApp's): `check` sees the exact bytes before
 * anything reads them (it throws to refuse: a body whose signature does not hold is never
 * parsed); then the raw text is kept on `req.rawBody` and parsed with the checks above.
 */
export function parseSignedJson(
  app: FastifyInstance,
  check: (req: FastifyRequest, raw: Buffer) => Promise<void>,
): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    async (req: FastifyRequest, body: Buffer) => {
      await check(req, body);
      const text = body.toString('utf8');
      req.rawBody = text;
      const deep = tooDeep(text);
      if (deep) throw deep;
      let value: unknown;
      try {
        value = JSON.parse(text) as unknown;
      } catch {
        throw appError('invalid_json', 'body is not valid JSON');
      }
      const refused = unpairedSurrogate(text, value);
      if (refused) throw refused;
      return value;
    },
  );
}
