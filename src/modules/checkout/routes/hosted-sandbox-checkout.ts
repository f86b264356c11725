import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as service from '../checkout.service.js';
import * as bookings from '../page-bookings.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';
import { HandlerFields } from './gateway-fields.js';

const examples: OperationExamples = {
  requests: { default: { value: { key: EX.checkoutKey, orderId: EX.orderId, outcome: 'success' } } },
  responses: {
    '200': {
      razorpay_order_id: EX.orderId,
      razorpay_payment_id: EX.paymentId,
      razorpay_signature: 'e2856ab8064af5ae3b3ea88035f1b9caf6d09ca83fd8d10f4192ecc7f2d77a85',
    },
  },
};

export const hostedSandboxCheckout: Operation<CheckoutContext> = (app, { deps }) =>
  app.post(
    '/e/:slug/sandbox-checkout',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedSandboxCheckout',
        tags: ['checkout'],
        summary: 'Test events: the sandbox’s stand-in for the gateway’s checkout',
        description: [
          'Pays (`success`) or fails (`failure`) the booking’s sandbox order and answers what Razorpay’s checkout hands its handler, signed with the sandbox’s own secret; the page then confirms through `POST /e/{slug}/payment` like a live one. Test events only (404 otherwise).',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object(
          {
            ...Access,
            orderId: Type.String({ maxLength: 100 }),
            outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Union([
              Type.Object(HandlerFields, { title: 'SandboxHandlerFields' }),
              Type.Object({ failed: Type.Literal(true) }, { title: 'SandboxPaymentFailed' }),
            ]),
            'The fields the gateway’s checkout would hand back, or that the payment failed.',
          ),
          403: E,
          404: E,
        },
      },
    },
    async (req) => {
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        req.body.key,
        req.body.origin,
        callSource(req),
        req.body.offer,
        req.body.preview,
      );
      return bookings.sandboxCheckout(deps, access, req.body.orderId, req.body.outcome);
    },
  );
