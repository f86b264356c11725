// GET and POST /webhooks/whatsapp: Meta's subscribe handshake and the Cloud API's status
// webhooks. A POST's X-Hub-Signature-256 is checked over the raw bytes before anything
// parses them; Meta retries a non-2xx for 7 days, so every verified POST answers 200,
// applied or ignored.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { BAD_SIGNATURES, type RateLimiter } from '../../http/rate-limit.js';
import { appError, forbidden } from '../../lib/errors.js';
import { parseSignedJson } from '../../http/json-body.js';
import { verifyHubSignature } from './hub-signature.js';
import { applyStatuses } from './whatsapp.service.js';
import { addressKey } from '../../http/client-address.js';

interface HookDeps {
  config: Config;
  db: Kysely<Database>;
  rateLimiter: RateLimiter;
  clock: Clock;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const whatsappWebhookRoutes =
  (deps: HookDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const checkSignature = async (req: FastifyRequest, raw: Buffer): Promise<void> => {
      const secret = deps.config.whatsapp.appSecret;
      const header = req.headers['x-hub-signature-256'];
      if (secret && verifyHubSignature(raw, typeof header === 'string' ? header : undefined, secret)) return;
      const r = await deps.rateLimiter.hit(`whatsapp-bad-signature:${addressKey(req.ip)}`, deps.clock.now(), BAD_SIGNATURES);
      const headers = { 'ratelimit-limit': String(r.limit), 'ratelimit-remaining': String(Math.max(0, r.limit - r.count)), 'ratelimit-reset': String(r.resetSeconds) };
      if (r.count > r.limit) {
        throw appError('rate_limited', `too many badly signed webhooks from this address; retry after ${r.resetSeconds} s`, {}, { ...headers, 'retry-after': String(r.resetSeconds) });
      }
      if (!secret) {
        req.log.warn('a WhatsApp webhook arrived, but WHATSAPP_APP_SECRET is not set: it cannot be verified');
        throw appError('signature_not_verified', 'this service has no WHATSAPP_APP_SECRET, so no WhatsApp webhook can be verified', {}, headers);
      }
      throw appError('signature_not_verified', 'X-Hub-Signature-256 does not match the body', {}, headers);
    };

    parseSignedJson(app, checkSignature);

    app.get(
      '/webhooks/whatsapp',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['gateway'],
          summary: 'Meta’s webhook subscribe handshake (WhatsApp)',
          description:
            'Meta calls it when the webhook is set up in the app dashboard: with `hub.mode=subscribe` and `hub.verify_token` equal to `WHATSAPP_VERIFY_TOKEN` (compared in constant time) it answers 200 with `hub.challenge` as plain text; otherwise 403 `verify_token_mismatch` (also when `WHATSAPP_VERIFY_TOKEN` is not set). All three parameters are required (400 without them).',
          querystring: Type.Object({
            'hub.mode': Type.String({ maxLength: 50 }),
            'hub.verify_token': Type.String({ maxLength: 500 }),
            'hub.challenge': Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$', description: 'Echoed as the body.' }),
          }),
          response: { 200: { description: 'The challenge, as sent.', content: { 'text/plain': { schema: { type: 'string' } } } }, 403: Type.Ref('Error') },
        },
      },
      async (req, reply) => {
        const expected = deps.config.whatsapp.verifyToken;
        const q = req.query;
        if (!expected || q['hub.mode'] !== 'subscribe' || !sameText(q['hub.verify_token'], expected)) {
          throw forbidden('verify_token_mismatch', expected ? undefined : 'this service has no WHATSAPP_VERIFY_TOKEN, so no subscription can be confirmed');
        }
        return reply.type('text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').serializer((x: unknown) => String(x)).send(q['hub.challenge']);
      },
    );

    app.post(
      '/webhooks/whatsapp',
      {
        config: { auth: { kind: 'public', rateLimit: false } },
        schema: {
          tags: ['gateway'],
          summary: 'WhatsApp Cloud API status webhooks (sent, delivered, read, failed)',
          description:
            'Verified with `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the raw body with `WHATSAPP_APP_SECRET`, compared in constant time, before the body is parsed; a body whose signature does not hold is never read and answers 403 `signature_not_verified` (so does every request when `WHATSAPP_APP_SECRET` is not set, with a sentence saying so, and a warning is logged); more than 20 such requests from one address in a minute answer 429 (correctly signed ones are never counted or limited). Each status (`entry[].changes[].value.statuses[]`: `id` the message id, `status`, `timestamp` in Unix seconds as a string, `errors[].code` when failed) moves the ticket’s WhatsApp message to that status if it is further along (accepted → sent → delivered → read; failed last), so duplicates, late or out-of-order deliveries and a skipped `delivered` change nothing wrongly; the registration shows it in `channels`. A message is found by its id, or by `biz_opaque_callback_data` (the service’s own id for the message, never the ticket id) when the send’s answer was lost. Anything else in the body is ignored. Every verified request answers 200. The body is at most 64 KiB (413) and nests at most 64 levels (400 `invalid_json`).',
          headers: Type.Object({ 'x-hub-signature-256': Type.Optional(Type.String()) }),
          body: Type.Object({ object: Type.Optional(Type.String()), entry: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000 })) }, { additionalProperties: true }),
          response: {
            200: Type.Object({ received: Type.Literal(true), applied: Type.Integer({ description: 'Statuses that moved a message.' }) }),
            403: Type.Ref('Error'),
            429: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        // The parser verified the signature of every body it read; a request without one is checked here.
        if (req.rawBody === undefined) await checkSignature(req, Buffer.alloc(0));
        const applied = await applyStatuses(deps.db, req.body, deps.clock.now());
        req.log.info({ applied }, 'whatsapp webhook');
        return { received: true as const, applied };
      },
    );
  };
