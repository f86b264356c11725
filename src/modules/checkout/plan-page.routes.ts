// The hosted plan page (/m/{slug}) and its steps, as plain forms: join, the sandbox's
// stand-ins for the gateway's checkout and mandate page (test plans), and the gateway's
// redirect back after a live payment.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { AppError } from '../../lib/errors.js';
import type { Carried, JoinErrors, PlanAssets, PlanPageBase } from './plan-page.html.js';
import {
  planPageHref,
  renderJoined,
  renderLivePay,
  renderMandate,
  renderPlanPage,
  renderSandboxPay,
} from './plan-page.html.js';
import * as plans from './plan-page.service.js';
import {
  callSource,
  EmbedField,
  EMBEDS,
  Html,
  htmlErrors,
  pageCsp,
  type CheckoutContext,
} from './page-context.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

const Slug = Type.Object({
  slug: Type.String({ maxLength: 120, description: 'The plan’s slug (`slug` of the Plan).' }),
});
const CarriedFields = {
  key: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'Test plans: a `pk_test_` checkout key of the plan’s account (the widget’s `data-svc-key`). A key pinned to an origin lets only that origin frame the page and post its forms.',
    }),
  ),
  origin: Type.Optional(
    Type.String({
      maxLength: 300,
      description:
        'The embedding page’s origin as embed.js declares it: where the page posts its messages when the key has no pin. It grants nothing.',
    }),
  ),
  embed: Type.Optional(EmbedField),
  from: Type.Optional(
    Type.String({
      maxLength: 80,
      pattern: '^[a-z0-9][a-z0-9-]*$',
      description: 'The slug of the event whose members-only ticket led here: the page links back to it.',
    }),
  ),
};
const Form = <T extends Record<string, TSchema>>(fields: T) =>
  Type.Object({ ...CarriedFields, ...fields }, { additionalProperties: false });
const PLAN_AUTH =
  'No credentials: a live plan is public. A test plan needs `key`, a test checkout key of its account; without one it answers 404. Rate limited per IP. With a key pinned to an origin, the forms are refused (403 `origin_not_allowed`) unless the browser says they came from the page itself (`Sec-Fetch-Site: same-origin`) or the pinned origin.';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const posted = { consumes: ['application/x-www-form-urlencoded'] };

type CarriedInput = {
  key?: string | undefined;
  origin?: string | undefined;
  embed?: string | undefined;
  from?: string | undefined;
};

export async function planPageRoutes(
  app: App,
  ctx: CheckoutContext & { planAssets: PlanAssets },
): Promise<void> {
  const { deps, s, htmlErrorHandler, html, planAssets } = ctx;

  const carriedOf = (access: plans.PlanAccess, input: CarriedInput): Carried => ({
    key: access.key,
    origin: access.origin,
    embed: EMBEDS.find((e) => e === input.embed) ?? 'none',
    from: input.from ?? null,
  });
  const base = (access: plans.PlanAccess, input: CarriedInput): PlanPageBase => ({
    strings: s,
    assets: planAssets,
    plan: access.plan,
    carried: carriedOf(access, input),
  });
  const send = (reply: FastifyReply, access: plans.PlanAccess, body: string) =>
    html(reply, body, pageCsp(access.plan.mode === 'live', access.pinnedOrigin));
  const params = (req: FastifyRequest) => req.params as { slug: string };
  // A refusal links back to the plan page as it was opened, when the request names a plan.
  const errorHandler = (err: Error, req: FastifyRequest, reply: FastifyReply) => {
    const input = { ...((req.query ?? {}) as CarriedInput), ...((req.body ?? {}) as CarriedInput) };
    const q = new URLSearchParams(
      Object.entries(input).filter(
        (e): e is [string, string] =>
          ['key', 'origin', 'embed', 'from'].includes(e[0]) && typeof e[1] === 'string',
      ),
    );
    const slug = encodeURIComponent(params(req).slug ?? '');
    return htmlErrorHandler(
      err,
      req,
      reply,
      slug ? { href: `/m/${slug}${q.size ? `?${q}` : ''}`, label: s.plan.tryAgain } : undefined,
    );
  };
  const route = (
    summary: string,
    description: string[],
    extra: Record<string, unknown>,
    statuses: number[],
  ) => ({
    config: { auth: { kind: 'public' as const } },
    errorHandler,
    schema: {
      tags: ['checkout'],
      summary,
      description: [...description, PLAN_AUTH].join('\n\n'),
      params: Slug,
      ...extra,
      response: { 200: Html('The page.'), ...htmlErrors(statuses) } as never,
    },
  });

  app.get(
    '/m/:slug',
    route(
      'The hosted page of a membership plan',
      [
        'Server-rendered HTML: the plan’s name, price (“₹1,200 for 12 months”, “₹500 every month”), description, and a form (name, email, phone) that joins it through `POST /m/{slug}/join`. Works without a script and with a keyboard; its script only sizes an embedding frame and posts `{ ns: "svc", v: 1, type }` messages (`ready`, `resize`, `joined { planSlug, status }`, `close`) to the key’s pinned origin (else the declared `origin`), never to `*`.',
        'embed.js opens it for `[data-svc-plan=<slug>]` (inline) and `[data-svc-plan-button=<slug>]` (a dialog or a pop-up), and a members-only tier’s “Not a member? Join” link opens it with `from=<event slug>` so that the last step links back to the event.',
      ],
      { querystring: Type.Object(CarriedFields) },
      [400, 403, 404, 429, 500],
    ),
    async (req, reply) => {
      const q = req.query as CarriedInput;
      const access = await plans.openPlanPage(deps, params(req).slug, q.key, q.origin);
      return send(reply, access, renderPlanPage(base(access, q)));
    },
  );

  // The steps are plain forms; only these routes parse one.
  await app.register(async (form) => {
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    joinRoute(form);
    sandboxRoutes(form);
    callbackRoute(form);
  });

  function joinRoute(form: App): void {
    form.post(
      '/m/:slug/join',
      {
        bodyLimit: 16 * 1024,
        ...route(
          'Join a plan from its page (a plain form)',
          [
            'The same rules as `POST /api/v1/memberships/subscribe` with a checkout key of the plan’s account. The answer is the next step as a page: a fixed term’s payment (test plans: the sandbox’s stand-in for the gateway’s checkout; live plans: the gateway’s checkout, which posts back to `POST /m/{slug}/callback`), a recurring plan’s mandate to approve (test plans: the sandbox’s stand-in; live plans: a link to the gateway’s mandate page), or, for an address whose membership needs nothing now, “Already a member”. A membership waiting for its payment or mandate answers that same order or mandate again. The page never shows a membership’s id.',
            'A missing name, an address that is not one or cannot receive mail: the form again (400) with the error at its field.',
          ],
          {
            ...posted,
            body: Form({
              name: Type.Optional(Type.String({ maxLength: 200 })),
              email: Type.Optional(Type.String({ maxLength: 254 })),
              phone: Type.Optional(Type.String({ maxLength: 32 })),
            }),
          },
          [400, 403, 404, 409, 413, 415, 429, 500, 502, 503],
        ),
      },
      async (req, reply) => {
        const b = req.body as CarriedInput & { name?: string; email?: string; phone?: string };
        const access = await plans.openPlanPageCall(deps, params(req).slug, b.key, b.origin, callSource(req));
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
          next = await plans.joinFromPlanPage(deps, access, {
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
        const callbackUrl = `${deps.config.baseUrl}/m/${encodeURIComponent(access.plan.slug)}/callback${back ? `?${back}` : ''}`;
        return send(
          reply,
          access,
          renderLivePay({ ...p, order: next.order, keyId: next.keyId, callbackUrl }),
        );
      },
    );
  }

  function sandboxRoutes(form: App): void {
    form.post(
      '/m/:slug/sandbox-pay',
      {
        bodyLimit: 16 * 1024,
        ...route(
          'Test plans: the sandbox’s stand-in for the gateway’s checkout of a fixed term',
          [
            'Pays (`success`) or fails (`failure`) the sandbox order a membership of this plan waits for; a payment is confirmed as `POST /api/v1/memberships/{id}/confirm` does, and the page says the person is a member (and where the confirmation mail goes). A failure shows the payment again. Test plans only (404 otherwise).',
          ],
          {
            ...posted,
            body: Form({
              order: Type.String({ maxLength: 100 }),
              outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
            }),
          },
          [400, 402, 403, 404, 413, 415, 429, 500, 502],
        ),
      },
      async (req, reply) => {
        const b = req.body as CarriedInput & { order: string; outcome: 'success' | 'failure' };
        const access = await plans.openPlanPageCall(deps, params(req).slug, b.key, b.origin, callSource(req));
        const r = await plans.sandboxPayFromPlanPage(deps, access, b.order, b.outcome);
        const p = base(access, b);
        if (!r.paid)
          return send(
            reply,
            access,
            renderSandboxPay({ ...p, order: await plans.openOrder(deps, access, b.order), failed: true }),
          );
        return send(reply, access, renderJoined({ ...p, outcome: 'joined', email: r.email }));
      },
    );

    form.post(
      '/m/:slug/sandbox-mandate',
      {
        bodyLimit: 16 * 1024,
        ...route(
          'Test plans: the sandbox’s stand-in for the gateway’s mandate page',
          [
            '`approve` plays the gateway’s `subscription.authenticated` for the subscription of this plan’s membership (as `POST /api/v1/sandbox/subscriptions/{id}/authenticate` does): the membership is authorised, in good standing, and its confirmation mail is queued. `decline` changes nothing. Test plans only (404 otherwise).',
          ],
          {
            ...posted,
            body: Form({
              subscription: Type.String({ maxLength: 100 }),
              outcome: Type.Union([Type.Literal('approve'), Type.Literal('decline')]),
            }),
          },
          [400, 403, 404, 413, 415, 429, 500],
        ),
      },
      async (req, reply) => {
        const b = req.body as CarriedInput & { subscription: string; outcome: 'approve' | 'decline' };
        const access = await plans.openPlanPageCall(deps, params(req).slug, b.key, b.origin, callSource(req));
        const r = await plans.sandboxMandateFromPlanPage(deps, access, b.subscription, b.outcome);
        return send(
          reply,
          access,
          renderJoined({ ...base(access, b), outcome: r.approved ? 'joined' : 'declined', email: r.email }),
        );
      },
    );
  }

  function callbackRoute(form: App): void {
    form.post(
      '/m/:slug/callback',
      {
        bodyLimit: 16 * 1024,
        ...route(
          'Live plans: where the gateway’s checkout returns after paying a fixed term',
          [
            'Razorpay posts `razorpay_payment_id`, `razorpay_order_id` and `razorpay_signature` (or `error[…]` fields) as a form. The signature must be the HMAC-SHA256 of `<order id>|<payment id>` under the key secret, for the order a membership of this plan waits for (402 `payment_not_verified` otherwise, and nothing changes); the payment is then verified and bound as `POST /api/v1/memberships/{id}/confirm` does. The query keeps how the page was opened.',
          ],
          {
            ...posted,
            querystring: Type.Object(CarriedFields),
            body: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), {
              maxProperties: 30,
            }),
          },
          [400, 402, 404, 409, 413, 415, 429, 500, 502, 503],
        ),
      },
      async (req, reply) => {
        const q = req.query as CarriedInput;
        const access = await plans.openPlanPage(deps, params(req).slug, q.key, q.origin);
        const b = req.body as Record<string, string | undefined>;
        const p = base(access, q);
        if (!b.razorpay_order_id || !b.razorpay_payment_id || !b.razorpay_signature)
          return send(reply, access, renderJoined({ ...p, outcome: 'not_paid' }));
        const r = await plans.confirmFromPlanPage(deps, access, {
          razorpay_order_id: b.razorpay_order_id,
          razorpay_payment_id: b.razorpay_payment_id,
          razorpay_signature: b.razorpay_signature,
        });
        return send(reply, access, renderJoined({ ...p, outcome: 'joined', email: r.email }));
      },
    );
  }
}
