import type { FastifyRequest } from 'fastify';
import type { Config } from '../../../config.js';
import type { RegisterDeps } from '../../registrations/register.service.js';
import type { MembershipDeps } from '../../memberships/memberships.service.js';
import type { PayoutDeps } from '../../payouts/payouts.service.js';
import type { RateLimiter } from '../../../http/rate-limit.js';
import type { Clock } from '../../../lib/clock.js';
import { appError } from '../../../lib/errors.js';
import { BAD_SIGNATURES } from '../../../http/rate-limit.js';
import type { GatewayPayment } from '../../payments/gateway.js';
import { verifyWebhookSignature } from '../../payments/razorpay-signature.js';
import { toPayment } from '../../payments/razorpay.js';
import { addressKey } from '../../../http/client-address.js';

/** What the razorpay-webhook operations need. */
export type RazorpayWebhookRouteDeps = RazorpayHookDeps;

export interface RazorpayPaymentEntity {
  id?: unknown;
  order_id?: unknown;
  amount?: unknown;
  currency?: unknown;
  status?: unknown;
  captured?: unknown;
  amount_refunded?: unknown;
}

/** Razorpay's payment entity as sent in webhooks (`captured` may be true, 1 or "1"). */
export function paymentFromWebhook(e: RazorpayPaymentEntity | undefined): GatewayPayment | undefined {
  if (!e || typeof e.id !== 'string' || typeof e.amount !== 'number' || typeof e.currency !== 'string')
    return undefined;
  if (!['created', 'authorized', 'captured', 'refunded', 'failed'].includes(String(e.status)))
    return undefined;
  return toPayment(e as Record<string, unknown>);
}

export type RazorpayHookDeps = {
  config: Config;
  registerDeps: RegisterDeps;
  membershipDeps: MembershipDeps;
  payoutDeps: PayoutDeps;
  rateLimiter: RateLimiter;
  clock: Clock;
};

/**
 * The signature covers the exact bytes, and it is checked before anything reads them:
 * a body whose signature does not hold is never parsed, and counts against its address.
 */
export const signatureChecker =
  (deps: RazorpayHookDeps) =>
  async (req: FastifyRequest, raw: Buffer): Promise<void> => {
    const secret = deps.config.razorpay.webhookSecret;
    const signature = req.headers['x-razorpay-signature'];
    if (secret && typeof signature === 'string' && verifyWebhookSignature(raw, signature, secret)) return;
    // Without a secret no request can be verified: each counts like a bad signature.
    const r = await deps.rateLimiter.hit(
      `webhook-bad-signature:${addressKey(req.ip)}`,
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
        `too many badly signed notifications from this address; retry after ${r.resetSeconds} s`,
        {},
        { ...headers, 'retry-after': String(r.resetSeconds) },
      );
    }
    if (!secret) {
      req.log.warn(
        'a Razorpay notification arrived, but RAZORPAY_WEBHOOK_SECRET is not set: it cannot be verified',
      );
      throw appError(
        'invalid_signature',
        'this service has no RAZORPAY_WEBHOOK_SECRET, so no notification can be verified',
        {},
        headers,
      );
    }
    throw appError('invalid_signature', 'X-Razorpay-Signature does not match the body', {}, headers);
  };
