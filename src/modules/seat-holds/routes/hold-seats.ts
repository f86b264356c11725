import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import { addressKey } from '../../../http/client-address.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { holdSeats, MAX_SEATS_PER_HOLD } from '../hold-seats.service.js';
import type { SeatHoldsDeps } from '../seat-holds.deps.js';
import { HeldSeat, presentHeldSeat } from '../seat-holds.schemas.js';
import { E, HELD_SEATS_EXAMPLE, HOLD_TOKEN_EXAMPLE, IdParams, SEAT_EVENT, SubEventId } from './seat-hold.js';

const examples: OperationExamples = {
  params: { id: SEAT_EVENT },
  requests: {
    best: { summary: 'Best available', value: { category: 'Gold', quantity: 2 } },
    chosen: { summary: 'Seats chosen on the map', value: { seats: ['Stalls-A-5', 'Stalls-A-6'] } },
  },
  responses: {
    '201': {
      success: true,
      data: {
        holdToken: HOLD_TOKEN_EXAMPLE,
        seats: HELD_SEATS_EXAMPLE,
        expiresAt: '2026-11-25T08:01:24.908Z',
      },
    },
  },
};

export const holdSeatsRoute: Operation<SeatHoldsDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/seats/hold',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'holdSeats',
        tags: ['seating'],
        summary: 'Hold seats of a seated event: the ones chosen, or the best available',
        description: `Either \`seats\` (the ids chosen on the map) or \`category\` and \`quantity\` (best available: adjacent seats in one row of that category, nearest the stage, never leaving a single empty seat between taken ones when another choice avoids it; accessible seats only with \`accessible: true\`, and then only them). At most ${MAX_SEATS_PER_HOLD} seats. All the seats are held or none, for \`SEAT_HOLD_MINUTES\` (default 10; test mode on the sandbox clock) under \`holdToken\`, which is unguessable: keep it to book the seats and show nobody else. A hold lapses by itself; no seat is ever held or sold twice, across instances. 409 \`seats_unavailable\` when a chosen seat is taken, held or blocked, or no group of that size sits together (the buyer then picks on the map); 409 \`event_not_seated\` for an event (or track) without a seating plan; for an event seated track by track, \`subEventId\` names the track (400 \`track_required\` without it); 400 for a seat or category not in the plan; 429 \`too_many_holds\` when a checkout key's client address (as the service sees it, after \`TRUST_PROXY\`) would hold more than \`HELD_SEATS_PER_ADDRESS\` (default 100) seats of the event at once.`,
        params: IdParams,
        body: Type.Union([
          Type.Object(
            {
              seats: Type.Array(Type.String({ maxLength: 100 }), {
                minItems: 1,
                maxItems: MAX_SEATS_PER_HOLD,
              }),
              subEventId: Type.Optional(SubEventId),
            },
            { additionalProperties: false },
          ),
          Type.Object(
            {
              category: Type.String({ minLength: 1, maxLength: 40 }),
              quantity: Type.Integer({ minimum: 1, maximum: MAX_SEATS_PER_HOLD }),
              accessible: Type.Optional(Type.Boolean()),
              subEventId: Type.Optional(SubEventId),
            },
            { additionalProperties: false },
          ),
        ]),
        response: {
          201: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({
                holdToken: Type.String(),
                seats: Type.Array(HeldSeat),
                expiresAt: Type.String({
                  format: 'date-time',
                  description: 'When the hold lapses by itself.',
                }),
              }),
            }),
            'The seats, held.',
          ),
          400: E,
          429: E,
          404: E,
          409: E,
        },
      },
    },
    async (req, reply) => {
      const { subEventId, ...request } = req.body;
      const hold = await holdSeats(deps, keyPrincipal(req), req.params.id, request, {
        clientAddress: addressKey(req.ip),
        subEventId,
      });
      return reply.code(201).send({
        success: true as const,
        data: {
          holdToken: hold.holdToken,
          seats: hold.seats.map(presentHeldSeat),
          expiresAt: hold.expiresAt.toISOString(),
        },
      });
    },
  );
