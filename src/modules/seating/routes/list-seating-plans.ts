import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import { listPlans, type SeatingDeps } from '../seating-plans.js';
import { E, PLAN_EXAMPLE, PlanSummary, presentSummary } from './seating-plan.js';

const { categories: _c, stage: _s, seats: _seats, ...summary } = PLAN_EXAMPLE;
const examples: OperationExamples = {
  params: { limit: '20' },
  responses: { '200': { success: true, data: [summary], hasMore: false, nextCursor: null } },
};

export const listSeatingPlans: Operation<SeatingDeps> = (app, deps) =>
  app.get(
    '/api/v1/seating-plans',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listSeatingPlans',
        tags: ['seating'],
        summary: 'The account’s seating plans, oldest first',
        description:
          'Each plan without its seats (read one plan for them). Paged like every list. Test and live keys see the same plans.',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(PlanSummary), ...PageFields }),
            'A page of seating plans.',
          ),
          400: E,
        },
      },
    },
    async (req) => {
      const page = await listPlans(deps.db, keyPrincipal(req).userId, {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      return {
        success: true as const,
        data: page.items.map(presentSummary),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
