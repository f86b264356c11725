import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as service from '../checkout.service.js';
import * as bookings from '../page-bookings.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';
import { HandlerFields } from './gateway-fields.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        key: EX.checkoutKey,
        razorpay_order_id: EX.orderId,
        razorpay_payment_id: EX.paymentId,
        razorpay_signature: EX.razorpaySignature,
      },
    },
  },
  responses: { '200': { status: 'confirmed' } },
};

export const hostedConfirmPayment: Operation<CheckoutContext> = (app, { deps }) =>
  app.post(
    '/e/:slug/payment',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedConfirmPayment',
        tags: ['checkout'],
        summary: 'Confirm a paid booking with the gateway checkout’s handler fields',
        description: [
          'The three fields Razorpay’s checkout hands its handler. The booking is found by the order id; the signature must be the HMAC-SHA256 of `<stored order id>|<payment id>` under the key secret (402 `payment_not_verified` otherwise, and nothing changes). Then the payment is verified at the gateway and bound exactly as register step 2 does, with the same refusals (402, 409 `sold_out` with a refund, 502).',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object({ ...Access, ...HandlerFields }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({ status: Type.Literal('confirmed') }),
            'Where the booking stands after the payment.',
          ),
          402: E,
          403: E,
          404: E,
          409: E,
          502: E,
          503: E,
        },
      },
    },
    async (req) => {
      const { key, origin, offer, preview, ...handler } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      return bookings.confirmFromPage(deps, access, handler);
    },
  );
