// Live events: where the gateway's checkout returns after a redirect, a posted form
// (registered where the module's plugin parses forms).
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import * as service from '../checkout.service.js';
import * as bookings from '../page-bookings.service.js';
import { renderMessagePage } from '../layout.html.js';
import { Html, htmlErrors, MESSAGE_CSP, Slug, type CheckoutContext } from '../page-context.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        razorpay_order_id: EX.orderId,
        razorpay_payment_id: EX.paymentId,
        razorpay_signature: EX.razorpaySignature,
      },
    },
  },
  responses: {
    '200': '<!doctype html><html lang="en"><head><title>Payment received</title></head><body>…</body></html>',
  },
};

export const hostedPaymentCallback: Operation<CheckoutContext> = (
  form,
  { deps, assets, s, htmlErrorHandler, html },
) =>
  form.post(
    '/e/:slug/callback',
    {
      // The route's limit wins over the parser's: state the form's own here too.
      bodyLimit: 16 * 1024,
      config: { auth: { kind: 'public' }, examples },
      errorHandler: htmlErrorHandler,
      schema: {
        operationId: 'hostedPaymentCallback',
        tags: ['checkout'],
        summary: 'Live events: where the gateway’s checkout returns after a redirect',
        description:
          'Razorpay posts `razorpay_payment_id`, `razorpay_order_id` and `razorpay_signature` (or `error[…]` fields) as a form. The booking is confirmed exactly as `POST /e/{slug}/payment` does, and an HTML page says what happened.',
        consumes: ['application/x-www-form-urlencoded'],
        params: Slug,
        body: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), {
          maxProperties: 30,
        }),
        response: {
          200: Html('What happened to the payment.'),
          ...htmlErrors([400, 402, 404, 409, 413, 415, 429, 500, 502, 503]),
        } as never,
      },
    },
    async (req, reply) => {
      const access = await service.openPage(
        deps,
        (req.params as { slug: string }).slug,
        undefined,
        undefined,
      );
      const b = req.body as Record<string, string | undefined>;
      const orderId = b.razorpay_order_id;
      const paymentId = b.razorpay_payment_id;
      const signature = b.razorpay_signature;
      if (!orderId || !paymentId || !signature) {
        const reason = b['error[description]'] ?? '';
        return html(
          reply.code(200),
          renderMessagePage(
            s,
            assets,
            s.script.paymentPendingTitle,
            `${s.script.paymentPending} ${reason}`.trim(),
          ),
          MESSAGE_CSP,
        );
      }
      await bookings.confirmFromPage(deps, access, {
        razorpay_order_id: orderId,
        razorpay_payment_id: paymentId,
        razorpay_signature: signature,
      });
      return html(
        reply,
        renderMessagePage(s, assets, s.script.confirmedTitle, s.callbackConfirmed),
        MESSAGE_CSP,
      );
    },
  );
