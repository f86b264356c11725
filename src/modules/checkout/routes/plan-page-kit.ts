// What the hosted plan page's operations share (/m/{slug} and its steps, docs/decisions/28-a-persons-day.md):
// the fields every step carries (key, origin, embed, from), the page's base, its answer with
// the page's CSP, the error page linking back to the plan, and the route options they all take.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { OperationExamples } from '../../../http/examples.js';
import { EmbedField, EMBEDS, Html, htmlErrors, pageCsp, type CheckoutContext } from '../page-context.js';
import type { Carried, PlanAssets, PlanPageBase } from '../plan-page.html.js';
import type * as plans from '../plan-page.service.js';

/** The checkout context with the plan page's own script. */
export type PlanPageContext = CheckoutContext & { planAssets: PlanAssets };

export const Slug = Type.Object({
  slug: Type.String({ maxLength: 120, description: 'The plan’s slug (`slug` of the Plan).' }),
});
export const CarriedFields = {
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
export const Form = <T extends Record<string, TSchema>>(fields: T) =>
  Type.Object({ ...CarriedFields, ...fields }, { additionalProperties: false });
const PLAN_AUTH =
  'No credentials: a live plan is public. A test plan needs `key`, a test checkout key of its account; without one it answers 404. Rate limited per IP. With a key pinned to an origin, the forms are refused (403 `origin_not_allowed`) unless the browser says they came from the page itself (`Sec-Fetch-Site: same-origin`) or the pinned origin.';
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const posted = { consumes: ['application/x-www-form-urlencoded'] };
export const FORM_BODY_LIMIT = 16 * 1024;

export type CarriedInput = {
  key?: string | undefined;
  origin?: string | undefined;
  embed?: string | undefined;
  from?: string | undefined;
};

/** The helpers every plan-page operation uses, made from the checkout context. */
export function planPageKit(ctx: PlanPageContext) {
  const { s, htmlErrorHandler, html, planAssets } = ctx;
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
  /** A plan-page route's options: public, the error page, its texts, and the HTML answers. */
  const route = (op: {
    operationId: string;
    summary: string;
    description: string[];
    extra: Record<string, unknown>;
    statuses: number[];
    examples: OperationExamples;
  }) => ({
    config: { auth: { kind: 'public' as const }, examples: op.examples },
    errorHandler,
    schema: {
      operationId: op.operationId,
      tags: ['checkout'],
      summary: op.summary,
      description: [...op.description, PLAN_AUTH].join('\n\n'),
      params: Slug,
      ...op.extra,
      response: { 200: Html('The page.'), ...htmlErrors(op.statuses) } as never,
    },
  });
  return { carriedOf, base, send, params, route };
}
