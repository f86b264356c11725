import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { eventSeats } from '../event-seats.service.js';
import type { SeatHoldsDeps } from '../seat-holds.deps.js';
import { SeatCounts } from '../seat-holds.schemas.js';
import { E, HELD_SEATS_EXAMPLE, IdParams, SEAT_EVENT, SeatWithStatus, SubEventId } from './seat-hold.js';

const examples: OperationExamples = {
  params: { id: SEAT_EVENT },
  responses: {
    '200': {
      success: true,
      data: {
        planId: 'seatplan_Hq7Lm2Xv9Kt4Zb1R',
        stage: { x: 2.5, y: -1 },
        counts: { available: 1, held: 2, sold: 0, blocked: 0 },
        seats: [
          { ...HELD_SEATS_EXAMPLE[0]!, x: 2, y: 0, accessible: false, status: 'held', registrationId: null },
          { ...HELD_SEATS_EXAMPLE[1]!, x: 3, y: 0, accessible: false, status: 'held', registrationId: null },
          {
            id: 'Stalls-A-1',
            section: 'Stalls',
            row: 'A',
            number: 1,
            label: 'Row A, seat 1',
            category: 'Gold',
            x: 0,
            y: 0,
            accessible: true,
            status: 'available',
            registrationId: null,
          },
        ],
      },
    },
  },
};

export const listEventSeats: Operation<SeatHoldsDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/seats',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'listEventSeats',
        tags: ['seating'],
        summary: 'Every seat of a seated event with its status now',
        description:
          'The seats of the event’s seating plan in plan order, each `available`, `held` (a hold that has not lapsed, or a booking waiting for payment), `sold` or `blocked`, with the counts of each. A checkout key reads statuses only (`registrationId` is always null for it); a full key also reads which booking holds or bought a seat. 409 `event_not_seated` for an event without a plan; an event seated track by track answers one track’s seats (`subEventId`).',
        params: IdParams,
        querystring: Type.Object(
          {
            only: Type.Optional(
              Type.Literal('unavailable', {
                description:
                  'Only the seats that are not available (held, sold or blocked), in plan order: what a seat map that has the plan needs to refresh, a small answer however large the plan.',
              }),
            ),
            subEventId: Type.Optional(SubEventId),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({
                planId: Type.String(),
                stage: Type.Object({ x: Type.Number(), y: Type.Number() }),
                counts: SeatCounts,
                seats: Type.Array(SeatWithStatus),
              }),
            }),
            'The seats and their statuses.',
          ),
          404: E,
          409: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await eventSeats(deps, keyPrincipal(req), req.params.id, {
        unavailableOnly: req.query.only === 'unavailable',
        subEventId: req.query.subEventId,
      }),
    }),
  );
