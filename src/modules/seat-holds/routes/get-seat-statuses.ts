import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { seatStatusLetters } from '../event-seats.service.js';
import type { SeatHoldsDeps } from '../seat-holds.deps.js';
import { SeatCounts } from '../seat-holds.schemas.js';
import { E, IdParams, SEAT_EVENT, SubEventId } from './seat-hold.js';

const examples: OperationExamples = {
  params: { id: SEAT_EVENT },
  responses: {
    '200': {
      success: true,
      data: {
        planId: 'seatplan_Hq7Lm2Xv9Kt4Zb1R',
        planUpdatedAt: '2026-11-25T07:51:24.908Z',
        counts: { available: 4, held: 2, sold: 0, blocked: 0 },
        statuses: 'aahhaa',
      },
    },
  },
};

export const getSeatStatuses: Operation<SeatHoldsDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/seats/statuses',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'getSeatStatuses',
        tags: ['seating'],
        summary: 'Every seat’s status as one letter, in plan order',
        description:
          'For a seat map that already has the plan (its seats in order, as `GET /api/v1/events/{id}/seats` or the seating plan gives them): `statuses` has one letter per seat of the plan, in its order — `a` available, `h` held, `s` sold, `b` blocked — so 50,000 seats are some 50 KB. `planUpdatedAt` says which version of the plan the letters follow; a map drawn from another version reads the seats again. The letters may be up to about a second old (`SEAT_STATUS_MEMORY_MS`, default 1000): each instance answers an event’s letters from its memory, made by one read of the event’s taken seats that the requests arriving together share, and forgets them at once when it changes the event’s seats itself (a hold, a let-go, a booking, house seats, a move); another instance’s change shows within that time. Who may read the event is checked on every request, and a hold is always taken in the database, so an older answer never sells a seat twice. 409 `event_not_seated` for an event without a plan.',
        params: IdParams,
        querystring: Type.Object({ subEventId: Type.Optional(SubEventId) }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({
                planId: Type.String(),
                planUpdatedAt: Type.String({ format: 'date-time' }),
                counts: SeatCounts,
                statuses: Type.String({ pattern: '^[ahsb]*$' }),
              }),
            }),
            'The seats’ statuses.',
          ),
          404: E,
          409: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await seatStatusLetters(deps, keyPrincipal(req), req.params.id, req.query.subEventId),
    }),
  );
