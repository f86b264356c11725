import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { AppError } from '../../../lib/errors.js';
import { callSource } from '../page-context.js';
import {
  type JoinErrors,
  planPageHref,
  renderJoined,
  renderLivePay,
  renderMandate,
  renderPlanPage,
  renderSandboxPay,
} from '../plan-page.html.js';
import * as plans from '../plan-page.service.js';
import {
  type CarriedInput,
  EMAIL,
  FORM_BODY_LIMIT,
  Form,
  type PlanPageContext,
  planPageKit,
  posted,
} from './plan-page-kit.js';

const examples: OperationExamples = {
  params: { slug: EX.planSlug },
  requests: {
    default: { value: { key: EX.checkoutKey, name: 'Meera Iyer', email: 'meera.iyer@example.in' } },
  },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>… Sandbox payment … ₹1,200 …</body></html>',
  },
};

export const joinPlanFromPage: Operation<PlanPageContext> = (form, ctx) => {
  const { base, send, params, route } = planPageKit(ctx);
  const { s } = ctx;
  return form.post(
    '/m/:slug/join',
    {
      bodyLimit: FORM_BODY_LIMIT,
      ...route({
        operationId: 'joinPlanFromPage',
        summary: 'Join a plan from its page (a plain form)',
        description: [
          'The same rules as `POST /api/v1/memberships/subscribe` with a checkout key of the plan’s account. The answer is the next step as a page: a fixed term’s payment (test plans: the sandbox’s stand-in for the gateway’s checkout; live plans: the gateway’s checkout, which posts back to `POST /m/{slug}/callback`), a recurring plan’s mandate to approve (test plans: the sandbox’s stand-in; live plans: a link to the gateway’s mandate page), or, for an address whose membership needs nothing now, “Already a member”. A membership waiting for its payment or mandate answers that same order or mandate again. The page never shows a membership’s id.',
          'A missing name, an address that is not one or cannot receive mail: the form again (400) with the error at its field.',
        ],
        extra: {
          ...posted,
          body: Form({
            name: Type.Optional(Type.String({ maxLength: 200 })),
            email: Type.Optional(Type.String({ maxLength: 254 })),
            phone: Type.Optional(Type.String({ maxLength: 32 })),
          }),
        },
        statuses: [400, 403, 404, 409, 413, 415, 429, 500, 502, 503],
        examples,
      }),
    },
    async (req, reply) => {
      const b = req.body as CarriedInput & { name?: string; email?: string; phone?: string };
      const access = await plans.openPlanPageCall(
        ctx.deps,
        params(req).slug,
        b.key,
        b.origin,
        callSource(req),
      );
      const values = {
        name: b.name?.trim() ?? '',
        email: b.email?.trim() ?? '',
        phone: b.phone?.trim() ?? '',
      };
      const again = (errors: JoinErrors, status: number) =>
        send(reply.code(status), access, renderPlanPage({ ...base(access, b), values, errors }));
      const errors: JoinErrors = {};
      if (values.name === '') errors.name = s.plan.needName;
      if (!EMAIL.test(values.email)) errors.email = s.plan.needEmail;
      if (errors.name || errors.email) return again(errors, 400);
      let next: plans.JoinStep;
      try {
        next = await plans.joinFromPlanPage(ctx.deps, access, {
          name: values.name,
          email: values.email,
          phone: values.phone || undefined,
        });
      } catch (err) {
        const field =
          err instanceof AppError
            ? err.code === 'invalid_name'
              ? 'name'
              : (err.extra.field as string | undefined)
            : undefined;
        if (err instanceof AppError && (field === 'name' || field === 'email' || field === 'phone'))
          return again({ [field]: err.message }, err.status);
        throw err;
      }
      const p = base(access, b);
      if (next.step === 'member') return send(reply, access, renderJoined({ ...p, outcome: 'already' }));
      if (next.step === 'mandate') return send(reply, access, renderMandate({ ...p, ...next }));
      if (access.plan.mode === 'test')
        return send(reply, access, renderSandboxPay({ ...p, order: next.order }));
      const back = planPageHref(access.plan, p.carried).split('?')[1];
      const callbackUrl = `${ctx.deps.config.baseUrl}/m/${encodeURIComponent(access.plan.slug)}/callback${back ? `?${back}` : ''}`;
      return send(reply, access, renderLivePay({ ...p, order: next.order, keyId: next.keyId, callbackUrl }));
    },
  );
};
