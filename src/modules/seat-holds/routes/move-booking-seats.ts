import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { EX } from '../../../http/examples.js';
import { moveBookingSeats } from '../house-seats.service.js';
import type { SeatHoldsDeps } from '../seat-holds.deps.js';
import { SeatsAnswer, SeatsBody } from './house-seats.js';
import { presentHeldSeat } from '../seat-holds.schemas.js';
import { E, HELD_SEATS_EXAMPLE, SEAT_EVENT } from './seat-hold.js';

const examples: OperationExamples = {
  params: { id: SEAT_EVENT, registrationId: EX.registrationId },
  requests: { default: { value: { seats: ['Stalls-A-3', 'Stalls-A-4'] } } },
  responses: { '200': { success: true, data: HELD_SEATS_EXAMPLE } },
};

export const moveBookingSeatsRoute: Operation<SeatHoldsDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/registrations/:registrationId/seats',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'moveBookingSeats',
        tags: ['seating'],
        summary: 'Move a booking to other seats',
        description:
          'Name as many seats as the booking has, of its category: its people move in seat order (the first person to the first seat named), and the old seats become available. The booking keeps its status (a pending booking’s seats stay held for it, a confirmed one’s sold); seats may be swapped within the booking. 409 `seats_unavailable` when a seat named is held, sold or kept back; 400 `seat_hold_mismatch` for another number of seats or another category; 404 when the booking holds no seats on this event (it ended, or the event is not seated). Audit log: `registration.seats_move`, with the seats before and after. Tickets already mailed show the old seat; the registration, the ticket page and the door show the new one.',
        params: Type.Object({
          id: Type.String({ maxLength: 100, description: 'Event id' }),
          registrationId: Type.String({ maxLength: 100 }),
        }),
        body: SeatsBody,
        response: { 200: answer(SeatsAnswer, 'The booking’s seats now.'), 400: E, 404: E, 409: E },
      },
    },
    async (req) => ({
      success: true as const,
      data: (
        await moveBookingSeats(
          deps,
          keyPrincipal(req),
          req.params.id,
          req.params.registrationId,
          req.body.seats,
        )
      ).map(presentHeldSeat),
    }),
  );
