import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { replacePlan, type SeatingDeps } from '../seating-plans.js';
import { E, Grid, IdParams, Layout, Plan, PLAN_EXAMPLE, presentPlan, SOURCE_RULES } from './seating-plan.js';

const blocked = PLAN_EXAMPLE.seats.map((s) => (s.id === 'Stalls-B-3' ? { ...s, blocked: true } : s));
const examples: OperationExamples = {
  params: { id: EX.seatingPlanId },
  requests: { default: { value: { name: 'Main hall, camera at B3', layout: { seats: blocked } } } },
  responses: {
    '200': {
      success: true,
      data: {
        ...PLAN_EXAMPLE,
        name: 'Main hall, camera at B3',
        categories: [
          { name: 'Gold', seats: 3 },
          { name: 'Silver', seats: 2 },
        ],
        seats: blocked,
      },
    },
  },
};

export const updateSeatingPlan: Operation<SeatingDeps> = (app, deps) =>
  app.put(
    '/api/v1/seating-plans/:id',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'updateSeatingPlan',
        tags: ['seating'],
        summary: 'Rename a seating plan or replace its seats',
        description: [
          'Send `name`, and `grid` or `layout` to replace the seats: read the plan, change its seats (rename, block, mark accessible, move) and send them back as `layout`. A seat keeps its id across edits.',
          'A plan that events are sold from (in either mode) keeps every seat booked or held on one: a change that would remove such a seat, block it or move it to another category answers 409 `seating_plan_in_use` naming the seat and the event, as does a change that leaves such an event a category it has no tier for (or a tier without seats); nothing changes. Any other change refits those events at once: their capacity and each tier’s become the plan’s seats (blocked ones aside), with an `event.update` audit entry by `seating_plan_changed`. A change and a hold of the same seat never both succeed: the hold waits for the change and chooses by the new plan.',
          SOURCE_RULES,
        ].join('\n\n'),
        params: IdParams,
        body: Type.Union([
          Type.Object(
            { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), grid: Grid },
            { additionalProperties: false },
          ),
          Type.Object(
            { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), layout: Layout },
            { additionalProperties: false },
          ),
          Type.Object(
            { name: Type.String({ minLength: 1, maxLength: 200 }) },
            { additionalProperties: false },
          ),
        ]),
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), data: Plan }), 'The plan as it now stands.'),
          400: E,
          404: E,
          409: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: presentPlan(await replacePlan(deps, keyPrincipal(req).userId, req.params.id, req.body)),
    }),
  );
