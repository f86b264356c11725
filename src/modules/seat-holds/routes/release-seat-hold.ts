import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { releaseHold } from '../event-seats.service.js';
import type { SeatHoldsDeps } from '../seat-holds.deps.js';
import { E, HOLD_TOKEN_EXAMPLE, SEAT_EVENT } from './seat-hold.js';

const examples: OperationExamples = {
  params: { id: SEAT_EVENT, holdToken: HOLD_TOKEN_EXAMPLE },
  responses: { '200': { success: true } },
};

export const releaseSeatHold: Operation<SeatHoldsDeps> = (app, deps) =>
  app.delete(
    '/api/v1/events/:id/seats/hold/:holdToken',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'releaseSeatHold',
        tags: ['seating'],
        summary: 'Let go of held seats',
        description:
          'The seats of the hold become available at once (a hold lapses by itself too). 404 when there is no such hold: it lapsed and another buyer took a seat, it was let go, or a booking has its seats (cancel the booking instead).',
        params: Type.Object({
          id: Type.String({ maxLength: 100, description: 'Event id' }),
          holdToken: Type.String({ maxLength: 100 }),
        }),
        response: { 200: answer(Type.Object({ success: Type.Literal(true) }), 'The seats, let go.'), 404: E },
      },
    },
    async (req) => {
      await releaseHold(deps, keyPrincipal(req), req.params.id, req.params.holdToken);
      return { success: true as const };
    },
  );
