// POST /webhooks/razorpay: the gateway's notifications. Razorpay delivers at least
// once, in any order, and retries for a day on any non-2xx, so every verified
// notification answers 2xx whether it changed something or was safely ignored;
// only a bad signature is a 400.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { RegisterDeps } from '../registrations/register.service.js';
import type { MembershipDeps } from '../memberships/memberships.service.js';
import type { PayoutDeps } from '../payouts/payouts.service.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { Clock } from '../../lib/clock.js';
import { appError } from '../../lib/errors.js';
import { parseSignedJson } from '../../http/json-body.js';
import { BAD_SIGNATURES } from '../../http/rate-limit.js';
import type { GatewayPayment } from '../payments/gateway.js';
import { verifyWebhookSignature } from '../payments/razorpay-signature.js';
import { toPayment } from '../payments/razorpay.js';
import { isSubscriptionEvent } from '../memberships/subscription-state.js';
import { applyPayoutNotification } from '../payouts/payouts.service.js';
import { orderPaid, subscriptionChanged } from './gateway-events.service.js';
import { addressKey } from '../../http/client-address.js';

interface RazorpayPaymentEntity {
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
  if (!e || typeof e.id !== 'string' || typeof e.amount !== 'number' || typeof e.currency !== 'string') return undefined;
  if (!['created', 'authorized', 'captured', 'refunded', 'failed'].includes(String(e.status))) return undefined;
  return toPayment(e as Record<string, unknown>);
}


export const razorpayWebhookRoutes =
  (deps: { config: Config; registerDeps: RegisterDeps; membershipDeps: MembershipDeps; payoutDeps: PayoutDeps; rateLimiter: RateLimiter; clock: Clock }): FastifyPluginAsyncTypebox =>
  async (app) => {
    /**
     * The signature covers the exact bytes, and it is checked before anything reads them:
     * a body whose signature does not hold is never parsed, and counts against its address.
     */
    const checkSignature = async (req: FastifyRequest, raw: Buffer): Promise<void> => {
      const secret = deps.config.razorpay.webhookSecret;
      const signature = req.headers['x-razorpay-signature'];
      if (secret && typeof signature === 'string' && verifyWebhookSignature(raw, signature, secret)) return;
      // Without a secret no request can be verified: each counts like a bad signature.
      const r = await deps.rateLimiter.hit(`webhook-bad-signature:${addressKey(req.ip)}`, deps.clock.now(), BAD_SIGNATURES);
      const headers = { 'ratelimit-limit': String(r.limit), 'ratelimit-remaining': String(Math.max(0, r.limit - r.count)), 'ratelimit-reset': String(r.resetSeconds) };
      if (r.count > r.limit) {
        throw appError('rate_limited', `too many badly signed notifications from this address; retry after ${r.resetSeconds} s`, {}, { ...headers, 'retry-after': String(r.resetSeconds) });
      }
      if (!secret) {
        req.log.warn('a Razorpay notification arrived, but RAZORPAY_WEBHOOK_SECRET is not set: it cannot be verified');
        throw appError('invalid_signature', 'this service has no RAZORPAY_WEBHOOK_SECRET, so no notification can be verified', {}, headers);
      }
      throw appError('invalid_signature', 'X-Razorpay-Signature does not match the body', {}, headers);
    };

    parseSignedJson(app, checkSignature);

    app.post(
      '/webhooks/razorpay',
      {
        config: { auth: { kind: 'public', rateLimit: false } },
        schema: {
          tags: ['gateway'],
          summary: 'Razorpay notifications (order.paid, payment.captured, subscription.*)',
          description:
            'Verified with `X-Razorpay-Signature`: HMAC-SHA256 of the raw body with RAZORPAY_WEBHOOK_SECRET, compared in constant time. `order.paid` and `payment.captured` confirm the pending registration (or fixed-term membership) of their order exactly once, whatever the order or number of deliveries; an order is paid at most once, so a captured payment that nothing keeps (a second payment of an order already paid, a payment for a booking or membership that ended before it was paid) is refunded in full at once by a durable job (`result: refunding`). `subscription.authenticated`, `activated`, `charged`, `halted`, `cancelled` and `completed` move the membership of that subscription, idempotently and tolerating any order; a charge is kept once with the period it pays for, and a charge for a membership that ended first (or that a cancel is ending now) is refunded in full by a durable job (`result: refunding`). RazorpayX `payout.*` notifications (`processed`, `reversed`, `failed`, `updated`, …) move the payout of that id once each, in any order (`reversed` may follow `processed` and credits the amount back; the UTR is kept). The signature is checked over the raw bytes before the body is parsed: a body whose signature does not hold is never read as JSON and answers 400 `invalid_signature`; more than 20 such requests from one address in a minute answer 429, and these answers carry the `RateLimit-*` headers (correctly signed ones are never counted or limited). The body is at most 64 KiB (413) and nests at most 64 levels (400 `invalid_json`). Every verified notification answers 200, handled or ignored. Without RAZORPAY_WEBHOOK_SECRET nothing can be verified: every request answers 400 `invalid_signature` (and is counted) with a sentence saying so, and the service logs a warning.',
          headers: Type.Object({ 'x-razorpay-signature': Type.Optional(Type.String()) }),
          body: Type.Object({ event: Type.String(), payload: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: true }),
          response: {
            200: Type.Object({ received: Type.Literal(true), result: Type.String({ description: 'confirmed, ignored, sold_out or refunding' }) }),
            429: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        // The parser verified the signature of every body it read; a request without one is checked here.
        if (req.rawBody === undefined) await checkSignature(req, Buffer.alloc(0));
        const body = req.body as {
          event: string;
          payload?: {
            payment?: { entity?: RazorpayPaymentEntity };
            order?: { entity?: { id?: unknown } };
            subscription?: { entity?: { id?: unknown; current_end?: unknown } };
          };
        };
        let result = 'ignored';
        if (body.event === 'order.paid' || body.event === 'payment.captured') {
          const payment = paymentFromWebhook(body.payload?.payment?.entity);
          const orderId = typeof body.payload?.order?.entity?.id === 'string' ? body.payload.order.entity.id : payment?.orderId;
          if (payment && orderId) result = await orderPaid(deps, 'live', orderId, payment);
        } else if (body.event.startsWith('payout.')) {
          // RazorpayX payout notifications: the payouts module applies each once, in any order.
          result = await applyPayoutNotification(deps.payoutDeps, body);
        } else if (body.event.startsWith('subscription.')) {
          const sub = body.payload?.subscription?.entity;
          const event = body.event.slice('subscription.'.length);
          if (typeof sub?.id === 'string' && isSubscriptionEvent(event)) {
            const currentEnd = typeof sub.current_end === 'number' ? new Date(sub.current_end * 1000) : null;
            result = await subscriptionChanged(deps, 'live', sub.id, event, currentEnd, paymentFromWebhook(body.payload?.payment?.entity));
          }
        }
        req.log.info({ event: body.event, result }, 'razorpay notification');
        return { received: true as const, result };
      },
    );
  };
