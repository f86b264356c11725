import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { renderPlanPage } from '../plan-page.html.js';
import * as plans from '../plan-page.service.js';
import { CarriedFields, type CarriedInput, type PlanPageContext, planPageKit } from './plan-page-kit.js';

const examples: OperationExamples = {
  params: { slug: EX.planSlug, key: EX.checkoutKey },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>…</body></html>',
  },
};

export const openPlanPage: Operation<PlanPageContext> = (app, ctx) => {
  const { base, send, params, route } = planPageKit(ctx);
  return app.get(
    '/m/:slug',
    route({
      operationId: 'openPlanPage',
      summary: 'The hosted page of a membership plan',
      description: [
        'Server-rendered HTML: the plan’s name, price (“₹1,200 for 12 months”, “₹500 every month”), description, and a form (name, email, phone) that joins it through `POST /m/{slug}/join`. Works without a script and with a keyboard; its script only sizes an embedding frame and posts `{ ns: "svc", v: 1, type }` messages (`ready`, `resize`, `joined { planSlug, status }`, `close`) to the key’s pinned origin (else the declared `origin`), never to `*`.',
        'embed.js opens it for `[data-svc-plan=<slug>]` (inline) and `[data-svc-plan-button=<slug>]` (a dialog or a pop-up), and a members-only tier’s “Not a member? Join” link opens it with `from=<event slug>` so that the last step links back to the event.',
      ],
      extra: { querystring: Type.Object(CarriedFields) },
      statuses: [400, 403, 404, 429, 500],
      examples,
    }),
    async (req, reply) => {
      const q = req.query as CarriedInput;
      const access = await plans.openPlanPage(ctx.deps, params(req).slug, q.key, q.origin);
      return send(reply, access, renderPlanPage(base(access, q)));
    },
  );
};
