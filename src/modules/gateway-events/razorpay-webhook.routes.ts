// POST /webhooks/razorpay: the gateway's notifications. Razorpay delivers at least
// once, in any order, and retries for a day on any non-2xx, so every verified
// notification answers 2xx whether it changed something or was safely ignored;
// only a bad signature is a 400.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { appError } from '../../shared/errors.js';
import type { GatewayPayment } from '../payments/gateway.js';
import { verifyWebhookSignature } from '../payments/razorpay-signature.js';
import { toPayment } from '../payments/razorpay.js';
import { isSubscriptionEvent } from '../memberships/subscription-state.js';
import { applyPayoutNotification } from '../payouts/payouts.service.js';
import { orderPaid, subscriptionChanged } from './gateway-events.service.js';

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

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

export const razorpayWebhookRoutes =
  (deps: Pick<Deps, 'config' | 'registerDeps' | 'membershipDeps' | 'payoutDeps'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    // The signature covers the exact bytes: keep them.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      req.rawBody = body as string;
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(appError('invalid_json', 'body is not valid JSON'), undefined);
      }
    });

    app.post(
      '/webhooks/razorpay',
      {
        config: { auth: { kind: 'public', rateLimit: false } },
        schema: {
          tags: ['gateway'],
          summary: 'Razorpay notifications (order.paid, payment.captured, subscription.*)',
          description:
            'Verified with `X-Razorpay-Signature`: HMAC-SHA256 of the raw body with RAZORPAY_WEBHOOK_SECRET, compared in constant time. `order.paid` and `payment.captured` confirm the pending registration (or fixed-term membership) of their order exactly once, whatever the order or number of deliveries. `subscription.authenticated`, `activated`, `charged`, `halted`, `cancelled` and `completed` move the membership of that subscription, idempotently and tolerating any order. RazorpayX `payout.*` notifications (`processed`, `reversed`, `failed`, `updated`, …) move the payout of that id once each, in any order (`reversed` may follow `processed` and credits the amount back; the UTR is kept). Every verified notification answers 200, handled or ignored; a bad signature 400; 503 when no webhook secret is configured.',
          headers: Type.Object({ 'x-razorpay-signature': Type.Optional(Type.String()) }),
          body: Type.Object({ event: Type.String(), payload: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: true }),
          response: {
            200: Type.Object({ received: Type.Literal(true), result: Type.String({ description: 'confirmed, ignored or sold_out' }) }),
            503: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        const secret = deps.config.razorpay.webhookSecret;
        if (!secret) throw appError('webhooks_not_configured', 'RAZORPAY_WEBHOOK_SECRET is not set on this service');
        const signature = req.headers['x-razorpay-signature'];
        if (typeof signature !== 'string' || req.rawBody === undefined || !verifyWebhookSignature(req.rawBody, signature, secret)) {
          throw appError('invalid_signature', 'X-Razorpay-Signature does not match the body');
        }
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
