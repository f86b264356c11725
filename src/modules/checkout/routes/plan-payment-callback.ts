import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { renderJoined } from '../plan-page.html.js';
import * as plans from '../plan-page.service.js';
import {
  CarriedFields,
  type CarriedInput,
  FORM_BODY_LIMIT,
  type PlanPageContext,
  planPageKit,
  posted,
} from './plan-page-kit.js';

const examples: OperationExamples = {
  params: { slug: EX.planSlug },
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
    '200':
      '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>… You are a member …</body></html>',
  },
};

export const planPaymentCallback: Operation<PlanPageContext> = (form, ctx) => {
  const { base, send, params, route } = planPageKit(ctx);
  return form.post(
    '/m/:slug/callback',
    {
      bodyLimit: FORM_BODY_LIMIT,
      ...route({
        operationId: 'planPaymentCallback',
        summary: 'Live plans: where the gateway’s checkout returns after paying a fixed term',
        description: [
          'Razorpay posts `razorpay_payment_id`, `razorpay_order_id` and `razorpay_signature` (or `error[…]` fields) as a form. The signature must be the HMAC-SHA256 of `<order id>|<payment id>` under the key secret, for the order a membership of this plan waits for (402 `payment_not_verified` otherwise, and nothing changes); the payment is then verified and bound as `POST /api/v1/memberships/{id}/confirm` does. The query keeps how the page was opened.',
        ],
        extra: {
          ...posted,
          querystring: Type.Object(CarriedFields),
          body: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), {
            maxProperties: 30,
          }),
        },
        statuses: [400, 402, 404, 409, 413, 415, 429, 500, 502, 503],
        examples,
      }),
    },
    async (req, reply) => {
      const q = req.query as CarriedInput;
      const access = await plans.openPlanPage(ctx.deps, params(req).slug, q.key, q.origin);
      const b = req.body as Record<string, string | undefined>;
      const p = base(access, q);
      if (!b.razorpay_order_id || !b.razorpay_payment_id || !b.razorpay_signature)
        return send(reply, access, renderJoined({ ...p, outcome: 'not_paid' }));
      const r = await plans.confirmFromPlanPage(ctx.deps, access, {
        razorpay_order_id: b.razorpay_order_id,
        razorpay_payment_id: b.razorpay_payment_id,
        razorpay_signature: b.razorpay_signature,
      });
      return send(reply, access, renderJoined({ ...p, outcome: 'joined', email: r.email }));
    },
  );
};
