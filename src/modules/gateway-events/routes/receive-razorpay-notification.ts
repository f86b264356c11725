import { Type } from 'typebox';
import { isSubscriptionEvent } from '../../memberships/subscription-state.js';
import { applyPayoutNotification } from '../../payouts/payout-gateway.service.js';
import { orderPaid, subscriptionChanged } from '../gateway-events.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import {
  RazorpayWebhookRouteDeps,
  RazorpayPaymentEntity,
  paymentFromWebhook,
  signatureChecker,
} from './razorpay-webhook-shared.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        entity: 'event',
        event: 'order.paid',
        payload: {
          order: {
            entity: {
              id: EX.orderId,
              amount: 49900,
              currency: 'INR',
              status: 'paid',
              receipt: EX.registrationId,
            },
          },
          payment: {
            entity: {
              id: EX.paymentId,
              order_id: EX.orderId,
              amount: 49900,
              currency: 'INR',
              status: 'captured',
            },
          },
        },
        created_at: 1800000000,
      },
    },
  },
  responses: { '200': { received: true, result: 'ignored' } },
};

export const receiveRazorpayNotification: Operation<RazorpayWebhookRouteDeps> = (app, deps) =>
  app.post(
    '/webhooks/razorpay',
    {
      config: { auth: { kind: 'public', rateLimit: false }, examples },
      schema: {
        operationId: 'receiveRazorpayNotification',
        tags: ['gateway'],
        summary: 'Razorpay notifications (order.paid, payment.captured, subscription.*)',
        description:
          'Verified with `X-Razorpay-Signature`: HMAC-SHA256 of the raw body with RAZORPAY_WEBHOOK_SECRET, compared in constant time. `order.paid` and `payment.captured` confirm the pending registration (or fixed-term membership) of their order exactly once, whatever the order or number of deliveries; an order is paid at most once, so a captured payment that nothing keeps (a second payment of an order already paid, a payment for a booking or membership that ended before it was paid) is refunded in full at once by a durable job (`result: refunding`). `subscription.authenticated`, `activated`, `charged`, `halted`, `cancelled` and `completed` move the membership of that subscription, idempotently and tolerating any order; a charge is kept once with the period it pays for, and a charge for a membership that ended first (or that a cancel is ending now) is refunded in full by a durable job (`result: refunding`). RazorpayX `payout.*` notifications (`processed`, `reversed`, `failed`, `updated`, …) move the payout of that id once each, in any order (`reversed` may follow `processed` and credits the amount back; the UTR is kept). The signature is checked over the raw bytes before the body is parsed: a body whose signature does not hold is never read as JSON and answers 400 `invalid_signature`; more than 20 such requests from one address in a minute answer 429, and these answers carry the `RateLimit-*` headers (correctly signed ones are never counted or limited). The body is at most 64 KiB (413) and nests at most 64 levels (400 `invalid_json`). Every verified notification answers 200, handled or ignored. Without RAZORPAY_WEBHOOK_SECRET nothing can be verified: every request answers 400 `invalid_signature` (and is counted) with a sentence saying so, and the service logs a warning.',
        headers: Type.Object({ 'x-razorpay-signature': Type.Optional(Type.String()) }),
        body: Type.Object(
          { event: Type.String(), payload: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
          { additionalProperties: true },
        ),
        response: {
          200: answer(
            Type.Object({
              received: Type.Literal(true),
              result: Type.String({ description: 'confirmed, ignored, sold_out or refunding' }),
            }),
            'The notification was received; `result` says what it did.',
          ),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      // The parser verified the signature of every body it read; a request without one is checked here.
      if (req.rawBody === undefined) await signatureChecker(deps)(req, Buffer.alloc(0));
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
        const orderId =
          typeof body.payload?.order?.entity?.id === 'string'
            ? body.payload.order.entity.id
            : payment?.orderId;
        if (payment && orderId) result = await orderPaid(deps, 'live', orderId, payment);
      } else if (body.event.startsWith('payout.')) {
        // RazorpayX payout notifications: the payouts module applies each once, in any order.
        result = await applyPayoutNotification(deps.payoutDeps, body);
      } else if (body.event.startsWith('subscription.')) {
        const sub = body.payload?.subscription?.entity;
        const event = body.event.slice('subscription.'.length);
        if (typeof sub?.id === 'string' && isSubscriptionEvent(event)) {
          const currentEnd = typeof sub.current_end === 'number' ? new Date(sub.current_end * 1000) : null;
          result = await subscriptionChanged(
            deps,
            'live',
            sub.id,
            event,
            currentEnd,
            paymentFromWebhook(body.payload?.payment?.entity),
          );
        }
      }
      req.log.info({ event: body.event, result }, 'razorpay notification');
      return { received: true as const, result };
    },
  );
