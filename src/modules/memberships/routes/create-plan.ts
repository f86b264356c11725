import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { createPlan as createPlanFor, presentPlan } from '../plans.service.js';
import { EXAMPLE_PLAN } from './membership-example.js';
import { E, type MembershipsDeps, Plan } from './membership.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        name: 'Annual membership',
        amount: 1200,
        kind: 'fixed_term',
        termMonths: 12,
        description: 'Entry to every meetup for a year.',
      },
    },
  },
  responses: { '201': { success: true, data: { ...EXAMPLE_PLAN } } },
};

export const createPlan: Operation<MembershipsDeps> = (app, deps) =>
  app.post(
    '/api/v1/memberships/plans',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'createPlan',
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
            period: Type.Optional(
              Type.Union([
                Type.Literal('weekly'),
                Type.Literal('monthly'),
                Type.Literal('quarterly'),
                Type.Literal('yearly'),
              ]),
            ),
            description: Type.Optional(Type.String({ maxLength: 500 })),
            totalCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 5200 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(Type.Object({ success: Type.Literal(true), data: Plan }), 'The plan.'),
          502: E,
          503: E,
        },
      },
    },
    async (req, reply) =>
      reply.code(201).send({
        success: true as const,
        data: presentPlan(await createPlanFor(deps.membershipDeps, keyPrincipal(req), req.body)),
      }),
  );
