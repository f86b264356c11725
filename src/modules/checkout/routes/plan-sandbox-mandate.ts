import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { callSource } from '../page-context.js';
import { renderJoined } from '../plan-page.html.js';
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
  requests: {
    default: { value: { key: EX.checkoutKey, subscription: EX.subscriptionId, outcome: 'approve' } },
  },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Monthly – membership</title></head><body>… You are a member …</body></html>',
  },
};

export const planSandboxMandate: Operation<PlanPageContext> = (form, ctx) => {
  const { base, send, params, route } = planPageKit(ctx);
  return form.post(
    '/m/:slug/sandbox-mandate',
    {
      bodyLimit: FORM_BODY_LIMIT,
      ...route({
        operationId: 'planSandboxMandate',
        summary: 'Test plans: the sandbox’s stand-in for the gateway’s mandate page',
        description: [
          '`approve` plays the gateway’s `subscription.authenticated` for the subscription of this plan’s membership (as `POST /api/v1/sandbox/subscriptions/{id}/authenticate` does): the membership is authorised, in good standing, and its confirmation mail is queued. `decline` changes nothing. Test plans only (404 otherwise).',
        ],
        extra: {
          ...posted,
          body: Form({
            subscription: Type.String({ maxLength: 100 }),
            outcome: Type.Union([Type.Literal('approve'), Type.Literal('decline')]),
          }),
        },
        statuses: [400, 403, 404, 413, 415, 429, 500],
        examples,
      }),
    },
    async (req, reply) => {
      const b = req.body as CarriedInput & { subscription: string; outcome: 'approve' | 'decline' };
      const access = await plans.openPlanPageCall(
        ctx.deps,
        params(req).slug,
        b.key,
        b.origin,
        callSource(req),
      );
      const r = await plans.sandboxMandateFromPlanPage(ctx.deps, access, b.subscription, b.outcome);
      return send(
        reply,
        access,
        renderJoined({ ...base(access, b), outcome: r.approved ? 'joined' : 'declined', email: r.email }),
      );
    },
  );
};
