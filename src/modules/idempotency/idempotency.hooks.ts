// Idempotency keys (docs/decisions/19-developers-and-operators.md, Stripe's rules): a POST under /api/v1 that
// carries `Idempotency-Key` acts once. The same key with the same request replays the
// stored answer with `Idempotent-Replayed: true`; with another request it is 422
// `idempotency_key_reused`; while the first is still running, 409
// `idempotency_key_in_flight`. Answers are kept 24 hours per account and mode, in
// PostgreSQL, so any instance replays them. Only answers that did something (2xx, 3xx) are
// kept: a refusal (4xx) or a failure (5xx) changed nothing, so its retry runs again — and a
// refused request leaves no row behind. A request whose process died frees its key after a minute.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { appError, badRequest } from '../../lib/errors.js';
import * as repo from './idempotency.repo.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEEP_MS = 24 * 3_600_000;
/** Longer than any request may run (requestTimeout): a holder past it has died. */
const LOCK_MS = 60_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: repo.Claim | undefined;
  }
}

/** Keys sorted at every level, so the same JSON in another order is the same request. */
function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v as object).sort()) out[k] = stable((v as Record<string, unknown>)[k]);
  return out;
}

/**
 * The request as the key binds it: method, path and query, body, and the class of key that
 * sent it — a checkout key (published in web pages) never replays a full key's answer.
 */
export function fingerprint(req: Pick<FastifyRequest, 'method' | 'url' | 'body'>, keyClass: string): string {
  return createHash('sha256')
    .update(`${keyClass} ${req.method} ${req.url}\n${JSON.stringify(stable(req.body ?? null))}`)
    .digest('hex');
}

/** Whether an answer of this status is kept for replay: only one that did something. */
export const keepsAnswer = (status: number) => status < 400;

/** Whether a route takes `Idempotency-Key`: a POST under /api/v1 that a key may call. */
export function takesIdempotencyKey(route: {
  method: string | string[];
  url: string;
  config?: unknown;
}): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const auth = (route.config as { auth?: { kind?: string; keys?: boolean } } | undefined)?.auth;
  return (
    methods.includes('POST') &&
    route.url.startsWith('/api/v1/') &&
    (auth?.kind === 'key' || (auth?.kind === 'door' && auth.keys === true))
  );
}

type Hook = (...args: never[]) => unknown;
const withHook = (existing: Hook | Hook[] | undefined, hook: Hook): Hook[] => [
  ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
  hook,
];

/**
 * Installs the hooks on the routes that take the header only (no other route runs them),
 * so it is called before the routes are registered.
 */
export function installIdempotency(app: FastifyInstance, deps: { db: Kysely<Database>; clock: Clock }): void {
  app.addHook('onRoute', (route) => {
    if (!takesIdempotencyKey(route)) return;
    route.preHandler = withHook(
      route.preHandler as Hook | Hook[] | undefined,
      preHandler as Hook,
    ) as typeof route.preHandler;
    route.onSend = withHook(route.onSend as Hook | Hook[] | undefined, onSend as Hook) as typeof route.onSend;
  });

  async function preHandler(req: FastifyRequest, reply: FastifyReply) {
    if (req.method !== 'POST') return;
    const header = req.headers[IDEMPOTENCY_HEADER];
    const p = req.principal;
    if (header === undefined || p?.kind !== 'key') return;
    if (typeof header !== 'string' || !KEY_SHAPE.test(header))
      throw badRequest(
        'invalid_idempotency_key',
        'Idempotency-Key is 1 to 255 visible ASCII characters, sent once',
      );
    const claim: repo.Claim = {
      accountId: p.userId,
      mode: p.mode,
      key: header,
      requestHash: fingerprint(req, p.keyClass),
    };
    const now = deps.clock.now();
    for (let attempt = 0; attempt < 2; attempt++) {
      if (
        await repo.claim(
          deps.db,
          claim,
          now,
          new Date(now.getTime() + LOCK_MS),
          new Date(now.getTime() - KEEP_MS),
        )
      ) {
        req.idempotency = claim;
        return;
      }
      const row = await repo.find(deps.db, claim.accountId, claim.mode, claim.key);
      // Released between the two statements (the first request failed): claim again.
      if (!row) continue;
      if (row.request_hash !== claim.requestHash)
        throw appError(
          'idempotency_key_reused',
          'this Idempotency-Key was used with another request (method, path or body); use a new key',
        );
      if (row.status === 'in_flight' || row.response_status === null)
        throw appError('idempotency_key_in_flight', undefined, {}, { 'retry-after': '1' });
      reply.code(row.response_status).header('idempotent-replayed', 'true');
      if (row.response_type) reply.header('content-type', row.response_type);
      return reply.send(row.response_body ?? '');
    }
    throw appError('idempotency_key_in_flight', undefined, {}, { 'retry-after': '1' });
  }

  async function onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    if (keepsAnswer(reply.statusCode) && body !== undefined) {
      const type = reply.getHeader('content-type');
      await repo.store(deps.db, claim, {
        status: reply.statusCode,
        type: type === undefined ? null : String(type),
        body,
      });
    } else {
      await repo.release(deps.db, claim);
    }
    return payload;
  }
}

/** Forgets answers older than 24 hours (a maintenance task). */
export const pruneIdempotencyKeys = (db: Kysely<Database>, now: Date) =>
  repo.prune(db, new Date(now.getTime() - KEEP_MS));
