import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as memberships from '../memberships.service.js';
import { Membership } from '../memberships.schemas.js';
import { confirm } from '../subscribe.service.js';
import { EXAMPLE_MEMBERSHIP } from './membership-example.js';
import { CheckoutMembership, E, type MembershipsDeps } from './membership.js';

const examples: OperationExamples = {
  params: { id: EX.membershipId },
  requests: { default: { value: { orderId: EX.orderId, paymentId: EX.paymentId } } },
  responses: { '200': { success: true, data: { ...EXAMPLE_MEMBERSHIP } } },
};

export const confirmMembershipPayment: Operation<MembershipsDeps> = (app, deps) =>
  app.post(
    '/api/v1/memberships/:id/confirm',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'confirmMembershipPayment',
        tags: ['memberships'],
        summary: 'Confirm a fixed-term payment',
        description:
          'Verified at the gateway like a ticket payment (the order, the amount, the plan’s currency, and a payment that is captured, not merely created or refunded): 402 `payment_not_verified` when it cannot be. A repeat with the same payment answers the same. A checkout key gets `data` as a CheckoutMembership (ids and status, no personal data). The payment is mailed to the member as a payment-received mail, and a first term (or one after the membership ended) also as the membership’s confirmation mail with its id.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        body: Type.Object(
          { orderId: Type.String({ maxLength: 100 }), paymentId: Type.String({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Union([Membership, CheckoutMembership]) }),
            'The membership, now active.',
          ),
          402: E,
          404: E,
          502: E,
        },
      },
    },
    async (req) => {
      const p = keyPrincipal(req);
      const m = await confirm(deps.membershipDeps, p, req.params.id, req.body);
      if (p.keyClass !== 'full')
        return { success: true as const, data: { id: m.id, planId: m.plan_id, status: m.status } };
      return { success: true as const, data: await memberships.presentNow(deps, m) };
    },
  );
