import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { releaseHouseSeats } from '../house-seats.service.js';
import type { SeatHoldsDeps } from '../seat-holds.deps.js';
import { HouseSeatsBody } from './house-seats.js';
import { E, IdParams, SEAT_EVENT } from './seat-hold.js';

const examples: OperationExamples = {
  params: { id: SEAT_EVENT },
  requests: { default: { value: { seats: ['Stalls-A-3', 'Stalls-A-4'] } } },
  responses: { '200': { success: true, released: ['Stalls-A-3', 'Stalls-A-4'] } },
};

export const releaseHouseSeatsRoute: Operation<SeatHoldsDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/seats/release',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'releaseHouseSeats',
        tags: ['seating'],
        summary: 'Give house seats back to sale',
        description:
          'The named seats kept back on this event become available; a named seat that was not kept back is left as it is. Answers the ids released; 404 when none was kept back. The event’s capacities follow. Audit log: `event.seats_release`.',
        params: IdParams,
        body: HouseSeatsBody,
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), released: Type.Array(Type.String()) }),
            'The seats given back to sale.',
          ),
          400: E,
          404: E,
          409: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      released: await releaseHouseSeats(
        deps,
        keyPrincipal(req),
        req.params.id,
        req.body.seats,
        req.body.subEventId,
      ),
    }),
  );
