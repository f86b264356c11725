// The hosted page's seat map holding the buyer's seats: the ones chosen on the map, or the best
// available, replacing the buyer's earlier hold in one step.
import { Type } from 'typebox';
import { addressKey } from '../../../http/client-address.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { holdSeats, MAX_SEATS_PER_HOLD } from '../../seat-holds/hold-seats.service.js';
import { HeldSeat, presentHeldSeat, SubEventId } from '../../seat-holds/seat-holds.schemas.js';
import * as service from '../checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';

const examples: OperationExamples = {
  requests: {
    chosen: {
      summary: 'Seats chosen on the map',
      value: { key: EX.checkoutKey, seats: ['Stalls-A-5', 'Stalls-A-6'] },
    },
    best: {
      summary: 'Best available, in place of the seats held before',
      value: { key: EX.checkoutKey, category: 'Gold', quantity: 2, replaces: EX.holdToken },
    },
  },
  responses: {
    '201': {
      holdToken: EX.holdToken,
      seats: [
        {
          id: 'Stalls-A-5',
          section: 'Stalls',
          row: 'A',
          number: 5,
          label: 'Row A, seat 5',
          category: 'Gold',
        },
        {
          id: 'Stalls-A-6',
          section: 'Stalls',
          row: 'A',
          number: 6,
          label: 'Row A, seat 6',
          category: 'Gold',
        },
      ],
      expiresAt: '2026-11-25T08:01:24.908Z',
      expiresInSeconds: 600,
    },
  },
};

const Replaces = Type.Optional(
  Type.String({
    maxLength: 100,
    description:
      'The hold token of the buyer’s current seats: they are let go in the same step, and only if every seat asked for is held; a refusal leaves them held. A token that lapsed or names nothing is ignored.',
  }),
);

const Body = Type.Union([
  Type.Object(
    {
      ...Access,
      seats: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: MAX_SEATS_PER_HOLD }),
      replaces: Replaces,
      subEventId: Type.Optional(SubEventId),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      ...Access,
      category: Type.String({ minLength: 1, maxLength: 40 }),
      quantity: Type.Integer({ minimum: 1, maximum: MAX_SEATS_PER_HOLD }),
      accessible: Type.Optional(Type.Boolean()),
      replaces: Replaces,
      subEventId: Type.Optional(SubEventId),
    },
    { additionalProperties: false },
  ),
]);

const Held = answer(
  Type.Object({
    holdToken: Type.String({
      description: 'Book the seats with it (`holdToken` of `POST /e/{slug}/register`).',
    }),
    seats: Type.Array(HeldSeat),
    expiresAt: Type.String({ format: 'date-time', description: 'When the hold lapses by itself.' }),
    expiresInSeconds: Type.Integer({
      description: 'How long the hold lasts from now: the page counts down from it on the buyer’s own clock.',
    }),
  }),
  'The seats, held.',
);

export const hostedHoldSeats: Operation<CheckoutContext> = (app, { deps }) =>
  app.post(
    '/e/:slug/seats/hold',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedHoldSeats',
        tags: ['checkout'],
        summary: 'Hold seats from the hosted page’s seat map',
        description: [
          `The seat map’s own call, with the rules of \`POST /api/v1/events/{id}/seats/hold\`: \`seats\` (the ids chosen on the map) or \`category\` and \`quantity\` (best available: side by side in one row, nearest the stage; accessible seats only with \`accessible: true\`). At most ${MAX_SEATS_PER_HOLD} seats, all held or none, for \`SEAT_HOLD_MINUTES\` (test mode on the sandbox clock). As the buyer’s choice changes the page sends the whole new choice with \`replaces\`, the token it holds: the old hold is let go in the same transaction, so a seat the buyer keeps is never free for anyone else in between, and a refused change leaves the old seats held. Best available counts the replaced seats as free.`,
          PAGE_AUTH,
          CALL_AUTH,
          'Refusals: 409 `seats_unavailable` (a seat was taken meanwhile, is not for sale, or no group of that size sits together), 409 `event_not_seated` (no seating plan), 400 for a seat or category not in the plan, 429 `too_many_holds` when the client address would hold more than `HELD_SEATS_PER_ADDRESS` seats of the event at once (the seats of the hold it replaces do not count).',
        ].join('\n\n'),
        params: Slug,
        body: Body,
        response: { 201: Held, 400: E, 403: E, 404: E, 409: E, 429: E },
      },
    },
    async (req, reply) => {
      const { key, origin, offer, preview, replaces, subEventId, ...request } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      const hold = await holdSeats(deps, access.principal, access.event.id, request, {
        clientAddress: addressKey(req.ip),
        replaces,
        subEventId,
      });
      return reply.code(201).send({
        holdToken: hold.holdToken,
        seats: hold.seats.map(presentHeldSeat),
        expiresAt: hold.expiresAt.toISOString(),
        // The hold was made just now: it lasts the configured minutes.
        expiresInSeconds: deps.config.seatHoldMinutes * 60,
      });
    },
  );
