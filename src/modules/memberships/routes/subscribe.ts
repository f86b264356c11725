import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { Nullable } from '../../../http/schemas.js';
import * as memberships from '../memberships.service.js';
import { subscribe as subscribeTo } from '../subscribe.service.js';
import { E, type MembershipsDeps, SubscribeExisting } from './membership.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: { planId: EX.planId, name: 'Meera Iyer', email: 'meera@example.in', phone: '+919812345670' },
    },
  },
  responses: {
    '201': {
      success: true,
      keyId: 'rzp_test_sandbox',
      membershipId: EX.membershipId,
      orderId: EX.orderId,
      amount: 120000,
      currency: 'INR',
    },
  },
};

export const subscribe: Operation<MembershipsDeps> = (app, deps) =>
  app.post(
    '/api/v1/memberships/subscribe',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'subscribe',
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
          201: answer(
            Type.Object({
              success: Type.Literal(true),
              membershipId: Type.Optional(
                Type.String({
                  description: 'Absent only for a checkout key’s renewal of an existing membership.',
                }),
              ),
              keyId: Type.String(),
              pendingAuthorisation: Type.Optional(Type.Literal(true)),
              subscriptionId: Type.Optional(Type.String()),
              authorisationUrl: Type.Optional(Nullable(Type.String())),
              orderId: Type.Optional(Type.String()),
              amount: Type.Optional(Type.Integer({ description: 'Paise.' })),
              currency: Type.Optional(Type.String()),
            }),
            'The membership, pending its first payment or mandate authorisation.',
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
      const r = await subscribeTo(deps.membershipDeps, p, req.body);
      if (r.existing) {
        const m = r.membership;
        const toPay =
          r.kind === 'recurring'
            ? m.status === 'created'
              ? {
                  pendingAuthorisation: true as const,
                  subscriptionId: m.subscription_id,
                  authorisationUrl: m.authorisation_url,
                  keyId: r.keyId,
                }
              : {}
            : r.order
              ? { orderId: r.order.id, amount: r.order.amount, currency: r.order.currency, keyId: r.keyId }
              : {};
        // A browser holding a checkout key learns only that the membership exists: its id
        // is the proof members-only tiers accept (docs/decisions/14-trust-and-safety-second-round.md).
        if (p.keyClass !== 'full')
          return reply.code(200).send({ success: true as const, existing: true as const });
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
      const order = {
        orderId: r.order!.id,
        amount: r.order!.amount,
        currency: r.order!.currency,
        keyId: r.keyId,
      };
      return reply
        .code(201)
        .send({ success: true as const, ...(showId ? { membershipId: r.membership.id } : {}), ...order });
    },
  );
