// What the whatsapp-webhook operations share: the deps type, schemas and helpers of routes/.
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { BAD_SIGNATURES, type RateLimiter } from '../../../http/rate-limit.js';
import { appError } from '../../../lib/errors.js';
import { verifyHubSignature } from '../hub-signature.js';
import { addressKey } from '../../../http/client-address.js';

/** What the whatsapp-webhook operations need. */
export type WhatsappWebhookRouteDeps = HookDeps;

export interface HookDeps {
  config: Config;
  db: Kysely<Database>;
  rateLimiter: RateLimiter;
  clock: Clock;
}

export const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Checks a webhook's X-Hub-Signature-256 over its raw bytes; counts and limits the bad ones per address. */
export const signatureChecker =
  (deps: HookDeps) =>
  async (req: FastifyRequest, raw: Buffer): Promise<void> => {
    const secret = deps.config.whatsapp.appSecret;
    const header = req.headers['x-hub-signature-256'];
    if (secret && verifyHubSignature(raw, typeof header === 'string' ? header : undefined, secret)) return;
    const r = await deps.rateLimiter.hit(
      `whatsapp-bad-signature:${addressKey(req.ip)}`,
      deps.clock.now(),
      BAD_SIGNATURES,
    );
    const headers = {
      'ratelimit-limit': String(r.limit),
      'ratelimit-remaining': String(Math.max(0, r.limit - r.count)),
      'ratelimit-reset': String(r.resetSeconds),
    };
    if (r.count > r.limit) {
      throw appError(
        'rate_limited',
        `too many badly signed webhooks from this address; retry after ${r.resetSeconds} s`,
        {},
        { ...headers, 'retry-after': String(r.resetSeconds) },
      );
    }
    if (!secret) {
      req.log.warn('a WhatsApp webhook arrived, but WHATSAPP_APP_SECRET is not set: it cannot be verified');
      throw appError(
        'signature_not_verified',
        'this service has no WHATSAPP_APP_SECRET, so no WhatsApp webhook can be verified',
        {},
        headers,
      );
    }
    throw appError('signature_not_verified', 'X-Hub-Signature-256 does not match the body', {}, headers);
  };
