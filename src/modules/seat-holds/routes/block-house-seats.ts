import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { blockHouseSeats } from '../house-seats.service.js';
import type { SeatHoldsDeps } from '../seat-holds.deps.js';
import { SeatsAnswer, HouseSeatsBody } from './house-seats.js';
import { presentHeldSeat } from '../seat-holds.schemas.js';
import { E, HELD_SEATS_EXAMPLE, IdParams, SEAT_EVENT } from './seat-hold.js';

const examples: OperationExamples = {
  params: { id: SEAT_EVENT },
  requests: { default: { value: { seats: ['Stalls-A-3', 'Stalls-A-4'] } } },
  responses: { '200': { success: true, data: HELD_SEATS_EXAMPLE } },
};

export const blockHouseSeatsRoute: Operation<SeatHoldsDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/seats/block',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'blockHouseSeats',
        tags: ['seating'],
        summary: 'Keep seats of a seated event back from sale (house seats)',
        description:
          'The seats become `blocked` on this event only (the plan, and other events using it, are unchanged): nobody can hold or book them until they are released. All or none: 409 `seats_unavailable` names the seats that are held, sold or kept back already (a lapsed hold does not count). The event’s capacity and its tier’s become the plan’s seats less those kept back. Audit log: `event.seats_block`. 400 for a seat not in the plan; 409 `event_not_seated` for an event without a plan.',
        params: IdParams,
        body: HouseSeatsBody,
        response: { 200: answer(SeatsAnswer, 'The seats, kept back.'), 400: E, 404: E, 409: E },
      },
    },
    async (req) => ({
      success: true as const,
      data: (
        await blockHouseSeats(deps, keyPrincipal(req), req.params.id, req.body.seats, req.body.subEventId)
      ).map(presentHeldSeat),
    }),
  );
