import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { callSource } from '../page-context.js';
import { renderJoined, renderSandboxPay } from '../plan-page.html.js';
import * as plans from '../plan-page.service.js';
import {
  type CarriedInput,
  FORM_BODY_LIMIT,
  Form,
  type PlanPageContext,
  planPageKit,
  posted,
} from './plan-page-kit.js';

const examples: OperationExamples = {
  params: { slug: EX.planSlug },
  requests: { default: { value: { key: EX.checkoutKey, order: EX.orderId, outcome: 'success' } } },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>… You are a member …</body></html>',
  },
};

export const planSandboxPay: Operation<PlanPageContext> = (form, ctx) => {
  const { base, send, params, route } = planPageKit(ctx);
  return form.post(
    '/m/:slug/sandbox-pay',
    {
      bodyLimit: FORM_BODY_LIMIT,
      ...route({
        operationId: 'planSandboxPay',
        summary: 'Test plans: the sandbox’s stand-in for the gateway’s checkout of a fixed term',
        description: [
          'Pays (`success`) or fails (`failure`) the sandbox order a membership of this plan waits for; a payment is confirmed as `POST /api/v1/memberships/{id}/confirm` does, and the page says the person is a member (and where the confirmation mail goes). A failure shows the payment again. Test plans only (404 otherwise).',
        ],
        extra: {
          ...posted,
          body: Form({
            order: Type.String({ maxLength: 100 }),
            outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
          }),
        },
        statuses: [400, 402, 403, 404, 413, 415, 429, 500, 502],
        examples,
      }),
    },
    async (req, reply) => {
      const b = req.body as CarriedInput & { order: string; outcome: 'success' | 'failure' };
      const access = await plans.openPlanPageCall(
        ctx.deps,
        params(req).slug,
        b.key,
        b.origin,
        callSource(req),
      );
      const r = await plans.sandboxPayFromPlanPage(ctx.deps, access, b.order, b.outcome);
      const p = base(access, b);
      if (!r.paid)
        return send(
          reply,
          access,
          renderSandboxPay({ ...p, order: await plans.openOrder(ctx.deps, access, b.order), failed: true }),
        );
      return send(reply, access, renderJoined({ ...p, outcome: 'joined', email: r.email }));
    },
  );
};
