import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { getPlan, type SeatingDeps } from '../seating-plans.js';
import { E, IdParams, Plan, PLAN_EXAMPLE, presentPlan } from './seating-plan.js';

const examples: OperationExamples = {
  params: { id: EX.seatingPlanId },
  responses: { '200': { success: true, data: PLAN_EXAMPLE } },
};

export const getSeatingPlan: Operation<SeatingDeps> = (app, deps) =>
  app.get(
    '/api/v1/seating-plans/:id',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getSeatingPlan',
        tags: ['seating'],
        summary: 'One seating plan, with every seat',
        description:
          'The plan’s seats with their places, categories and marks, its stage, and how many seats each category has (blocked ones aside). Another account’s plan answers 404.',
        params: IdParams,
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), data: Plan }), 'The plan, with every seat.'),
          404: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: presentPlan(await getPlan(deps.db, keyPrincipal(req).userId, req.params.id)),
    }),
  );
