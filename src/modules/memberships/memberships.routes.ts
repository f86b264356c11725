import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { MembershipDeps } from './memberships.service.js';
import { ANY_KEY, FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { nowFor } from '../accounts/account-clock.js';
import { cancel } from './cancel.service.js';
import * as memberships from './memberships.service.js';
import { createPlan, pagePlans, presentPlan } from './plans.service.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';

const StartingAfter = Type.Optional(Type.String({ maxLength: 600, description: 'The `nextCursor` of the previous page.' }));
const PageOf = <T extends TSchema>(item: T) =>
  Type.Object({ success: Type.Literal(true), data: Type.Array(item), count: Type.Integer({ description: 'The total number of items (all pages).' }), ...PageFields });
import { confirm, subscribe } from './subscribe.service.js';
import { Membership } from './memberships.schemas.js';

const E = Type.Ref('Error');

const Plan = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  amount: Type.Number({ description: 'Rupees: per period for recurring, once for fixed_term.' }),
  currency: Type.Literal('INR'),
  kind: Type.Union([Type.Literal('fixed_term'), Type.Literal('recurring')]),
  termMonths: Nullable(Type.Integer()),
  period: Nullable(Type.String()),
  totalCount: Type.Integer({ description: '0 means until cancelled.' }),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  gatewayPlanId: Nullable(Type.String()),
  slug: Type.String({ description: 'Public: the plan’s hosted page is `/m/{slug}` (a test plan’s needs `?key=<pk_test_…>`), and embed.js opens it for `data-svc-plan="<slug>"`. Made from the name at creation.' }),
  createdAt: Type.String({ format: 'date-time' }),
});

/** What a checkout key (a browser) may read of a membership: ids and the state needed to pay, no personal data. */
export const CheckoutMembership = Type.Object(
  {
    id: Type.String(),
    planId: Type.String(),
    status: Type.String({ description: 'Stored state: created, authorised, active, halted, ended or pending_payment.' }),
  },
  { title: 'CheckoutMembership', description: 'A membership as a checkout key sees it: no name, email, phone, standing or dates.' },
);

const SubscribeExisting = Type.Object(
  {
    success: Type.Literal(true),
    existing: Type.Literal(true),
    membershipId: Type.Optional(Type.String({ description: 'Full keys only.' })),
    planId: Type.Optional(Type.String({ description: 'Full keys only.' })),
    data: Type.Optional(Membership),
    keyId: Type.Optional(Type.String()),
    pendingAuthorisation: Type.Optional(Type.Literal(true)),
    subscriptionId: Type.Optional(Nullable(Type.String())),
    authorisationUrl: Type.Optional(Nullable(Type.String())),
    orderId: Type.Optional(Type.String({ description: 'The open order this membership waits to be paid with (the same on every repeat).' })),
    amount: Type.Optional(Type.Integer({ description: 'Paise.' })),
    currency: Type.Optional(Type.String()),
  },
  {
    title: 'SubscribeExisting',
    description:
      'For a full key: the membership’s ids, `data` (the Membership, with personal data and standing) and the open order or subscription to pay. For a checkout key exactly `{ success, existing: true }`: the id of a membership is what members-only tiers accept as proof, so it never reaches a browser that merely knows an email (nor its order, subscription or mandate link).',
  },
);

export const membershipsRoutes =
  (deps: { db: Kysely<Database>; clock: Clock; membershipDeps: MembershipDeps }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const md = deps.membershipDeps;

    app.get(
      '/api/v1/memberships/plans',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['memberships'],
          summary: 'Plans of this account in the key’s mode',
          description: 'Oldest first, in pages: `limit` (default 100, at most 1,000), then `startingAfter=<nextCursor>` while `hasMore`. `count` is the total.',
          querystring: Type.Object({ limit: PageQuery.limit, startingAfter: StartingAfter }, { additionalProperties: false }),
          response: { 200: PageOf(Plan), 400: E },
        },
      },
      async (req) => {
        const page = await pagePlans(deps.db, keyPrincipal(req), { limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        return { success: true as const, data: page.items.map(presentPlan), count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );

    app.post(
      '/api/v1/memberships/plans',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['memberships'],
          summary: 'Create a plan',
          description:
            'name ≤ 80, description ≤ 500, amount in rupees with at most two decimals (1 rupee or more). `kind` defaults to recurring. fixed_term needs `termMonths` (1–120); recurring needs `period` and is refused above 15,000 rupees per period (400 `amount_above_recurring_limit`). A recurring plan also creates the gateway’s plan (quarterly as monthly × 3); when the gateway fails, nothing is created (502).',
          body: Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 80 }),
              amount: Type.Number({ exclusiveMinimum: 0 }),
              kind: Type.Optional(Type.Union([Type.Literal('fixed_term'), Type.Literal('recurring')])),
              termMonths: Type.Optional(Type.Integer({ minimum: 1, maximum: 120 })),
              period: Type.Optional(Type.Union([Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('quarterly'), Type.Literal('yearly')])),
              description: Type.Optional(Type.String({ maxLength: 500 })),
              totalCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 5200 })),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ success: Type.Literal(true), data: Plan }), 502: E, 503: E },
        },
      },
      async (req, reply) =>
        reply.code(201).send({ success: true as const, data: presentPlan(await createPlan(md, keyPrincipal(req), req.body)) }),
    );

    app.post(
      '/api/v1/memberships/subscribe',
      {
        config: { auth: ANY_KEY },
        schema: {
          tags: ['memberships'],
          summary: 'Subscribe a person to a plan',
          description: [
            'Recurring: 201 `{ success, pendingAuthorisation: true, membershipId, subscriptionId, keyId, authorisationUrl }`. This is not a member yet: ask the person to approve the mandate at `authorisationUrl` (or open the gateway checkout with keyId and subscriptionId).',
            'Fixed term: 201 `{ success, membershipId, orderId, amount (paise), currency, keyId }`; confirm with POST /api/v1/memberships/{id}/confirm, or the gateway’s paid notification confirms it.',
            'The same email on the same plan answers the existing membership (200, `existing: true`) — for a fixed term, unless it is in the last 30 days of its term or expired, when a renewal order is made (renewal extends from the current end, or from payment after expiry). 400 for an email that cannot receive mail; 404 for a plan of another account or mode. A checkout key may subscribe.',
            'While a membership waits for payment or authorisation, a repeat subscribe (a double-click, a second tab) answers the same open order or subscription (200, `existing: true`, `orderId`/`subscriptionId`) and changes no stored field (name and phone stay as first given). Concurrent subscribes for one email and plan make one membership and one order; one that waits more than 15 seconds for the other answers 409 `busy` with `Retry-After`. A payment captured for an order no membership waits for (cancelled or superseded before it was paid, or paid a second time) is refunded in full: at once when the gateway’s notification of it arrives, and by the reconciliation sweep when that is lost.',
            'The member is mailed (a durable job; test mode keeps the mails at GET /api/v1/sandbox/emails): a confirmation when the membership starts — a fixed term paid, a mandate approved — with the plan, the period and the `membershipId` that members-only tiers ask a browser for; and a payment-received mail (amount, date, payment id, paid until) for every charge, once per gateway payment.',
            'A checkout key never learns about an existing membership more than that it exists: its 200 answer is exactly `{ success: true, existing: true }` (no membership, plan, order or subscription id, no personal data), because a membership’s id is the proof members-only tiers accept; members find it in their confirmation mail. When a membership that already existed gets a new order or mandate through a checkout key (a fixed-term renewal, a new mandate after an ended one), the 201 answer carries what is needed to pay (`orderId`, `amount`, `currency`, `keyId`, or `subscriptionId`, `authorisationUrl`) but not `membershipId`; the gateway’s paid notification (or the reconciliation sweep) confirms it. A new membership’s 201 answer carries its `membershipId`, as before.',
          ].join('\n\n'),
          body: Type.Object(
            {
              planId: Type.String({ maxLength: 100 }),
              name: Type.String({ minLength: 1, maxLength: 200 }),
              email: Type.String({ minLength: 3, maxLength: 254 }),
              phone: Type.Optional(Type.String({ maxLength: 32 })),
            },
            { additionalProperties: false },
          ),
          response: {
            200: SubscribeExisting,
            201: Type.Object(
              {
                success: Type.Literal(true),
                membershipId: Type.Optional(Type.String({ description: 'Absent only for a checkout key’s renewal of an existing membership.' })),
                keyId: Type.String(),
                pendingAuthorisation: Type.Optional(Type.Literal(true)),
                subscriptionId: Type.Optional(Type.String()),
                authorisationUrl: Type.Optional(Nullable(Type.String())),
                orderId: Type.Optional(Type.String()),
                amount: Type.Optional(Type.Integer({ description: 'Paise.' })),
                currency: Type.Optional(Type.String()),
              },
            ),
            404: E,
            409: E,
            502: E,
            503: E,
          },
        },
      },
      async (req, reply) => {
        const p = keyPrincipal(req);
        const r = await subscribe(md, p, req.body);
        if (r.existing) {
          const m = r.membership;
          const toPay =
            r.kind === 'recurring'
              ? m.status === 'created'
                ? { pendingAuthorisation: true as const, subscriptionId: m.subscription_id, authorisationUrl: m.authorisation_url, keyId: r.keyId }
                : {}
              : r.order
                ? { orderId: r.order.id, amount: r.order.amount, currency: r.order.currency, keyId: r.keyId }
                : {};
          // A browser holding a checkout key learns only that the membership exists: its id
          // is the proof members-only tiers accept (docs/decisions/14-trust-and-safety-second-round.md).
          if (p.keyClass !== 'full') return reply.code(200).send({ success: true as const, existing: true as const });
          return reply.code(200).send({
            success: true as const,
            existing: true as const,
            membershipId: m.id,
            planId: m.plan_id,
            data: await memberships.presentNow(deps, m, r.kind),
            ...toPay,
          });
        }
        // A membership that existed before this subscribe (a renewal, a new mandate for an
        // ended one): a checkout key gets what it needs to pay, not the membership's id.
        const showId = p.keyClass === 'full' || !r.existedBefore;
        if (r.kind === 'recurring') {
          return reply.code(201).send({
            success: true as const,
            pendingAuthorisation: true as const,
            ...(showId ? { membershipId: r.membership.id } : {}),
            subscriptionId: r.membership.subscription_id!,
            keyId: r.keyId,
            authorisationUrl: r.membership.authorisation_url,
          });
        }
        const order = { orderId: r.order!.id, amount: r.order!.amount, currency: r.order!.currency, keyId: r.keyId };
        return reply.code(201).send({ success: true as const, ...(showId ? { membershipId: r.membership.id } : {}), ...order });
      },
    );

    app.post(
      '/api/v1/memberships/:id/confirm',
      {
        config: { auth: ANY_KEY },
        schema: {
          tags: ['memberships'],
          summary: 'Confirm a fixed-term payment',
          description:
            'Verified at the gateway like a ticket payment (the order, the amount, the plan’s currency, and a payment that is captured, not merely created or refunded): 402 `payment_not_verified` when it cannot be. A repeat with the same payment answers the same. A checkout key gets `data` as a CheckoutMembership (ids and status, no personal data). The payment is mailed to the member as a payment-received mail, and a first term (or one after the membership ended) also as the membership’s confirmation mail with its id.',
          params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
          body: Type.Object({ orderId: Type.String({ maxLength: 100 }), paymentId: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Union([Membership, CheckoutMembership]) }), 402: E, 404: E, 502: E },
        },
      },
      async (req) => {
        const p = keyPrincipal(req);
        const m = await confirm(md, p, req.params.id, req.body);
        if (p.keyClass !== 'full') return { success: true as const, data: { id: m.id, planId: m.plan_id, status: m.status } };
        return { success: true as const, data: await memberships.presentNow(deps, m) };
      },
    );

    app.post(
      '/api/v1/memberships/:id/cancel',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['memberships'],
          summary: 'Cancel a membership',
          description:
            'By default it ends at the end of the paid period (the mandate is cancelled at cycle end at the gateway) and the member keeps the time paid for; `immediate: true` ends it now, and so does a cancel of a membership that has paid nothing yet. It is decided on the membership as it stands when the cancel takes it: a payment or charge recorded first counts as paid. A payment or charge the gateway reports after the membership ended (or while a cancel that ends it now waits for the gateway) pays for no period and is refunded in full. A second cancel answers `alreadyEnded: true` and changes nothing; one made while another that ends the membership now waits for the gateway answers 409 `busy`. When the gateway refuses or fails, the call answers 502 and the local record is left as it was.',
          params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
          body: Type.Optional(Type.Object({ immediate: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
          response: {
            201: Type.Object({ success: Type.Literal(true), data: Membership, message: Type.String(), alreadyEnded: Type.Boolean() }),
            404: E,
            409: E,
            502: E,
          },
        },
      },
      async (req, reply) => {
        const r = await cancel(md, keyPrincipal(req), req.params.id, req.body?.immediate === true);
        return reply.code(201).send({ success: true as const, data: await memberships.presentNow(deps, r.membership), message: r.message, alreadyEnded: r.alreadyEnded });
      },
    );

    app.get(
      '/api/v1/memberships/members',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['memberships'],
          summary: 'Members, with standing computed now',
          description:
            'Pass `email` (and optionally `planId`) to check one person’s `goodStanding`. Full keys only. Oldest first, in pages: `limit` (default 100, at most 1,000), then `startingAfter=<nextCursor>` while `hasMore`; `count` is the total matching the filter.',
          querystring: Type.Object({
            planId: Type.Optional(Type.String({ maxLength: 100 })),
            email: Type.Optional(Type.String({ maxLength: 254 })),
            limit: PageQuery.limit,
            startingAfter: StartingAfter,
          }),
          response: { 200: PageOf(Membership), 400: E },
        },
      },
      async (req) => {
        const p = keyPrincipal(req);
        const page = await memberships.pageMembers(deps.db, p, req.query, { limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        const now = await nowFor(deps, p.userId, p.mode);
        const data = page.items.map((r) => memberships.presentMembership(r, r.plan_kind, now));
        return { success: true as const, data, count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );
  };
