import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { createPlan, type SeatingDeps } from '../seating-plans.js';
import {
  E,
  Grid,
  GRID_EXAMPLE,
  Layout,
  Plan,
  PLAN_EXAMPLE,
  presentPlan,
  SOURCE_RULES,
} from './seating-plan.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });

const examples: OperationExamples = {
  requests: { default: { value: { name: 'Rangashankara main hall', grid: GRID_EXAMPLE } } },
  responses: { '201': { success: true, data: PLAN_EXAMPLE } },
};

export const createSeatingPlan: Operation<SeatingDeps> = (app, deps) =>
  app.post(
    '/api/v1/seating-plans',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'createSeatingPlan',
        tags: ['seating'],
        summary: 'Make a seating plan from a grid or a list of seats',
        description: SOURCE_RULES,
        body: Type.Union([
          Type.Object({ name: Name, grid: Grid }, { additionalProperties: false }),
          Type.Object({ name: Name, layout: Layout }, { additionalProperties: false }),
        ]),
        response: {
          201: answer(Type.Object({ success: Type.Literal(true), data: Plan }), 'The plan, with every seat.'),
          400: E,
        },
      },
    },
    async (req, reply) => {
      const plan = await createPlan(deps, keyPrincipal(req).userId, req.body);
      return reply.code(201).send({ success: true as const, data: presentPlan(plan) });
    },
  );
