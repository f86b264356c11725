// The hosted page's seat map refreshing its seats: every seat's status as one letter.
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { seatStatusLetters } from '../../seat-holds/event-seats.service.js';
import { SeatCounts, SubEventId } from '../../seat-holds/seat-holds.schemas.js';
import * as service from '../checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';

const examples: OperationExamples = {
  params: { key: EX.checkoutKey },
  responses: {
    '200': {
      planId: 'seatplan_Hq7Lm2Xv9Kt4Zb1R',
      planUpdatedAt: '2026-11-25T07:51:24.908Z',
      counts: { available: 4, held: 2, sold: 0, blocked: 0 },
      statuses: 'aahhaa',
    },
  },
};

export const hostedSeatStatuses: Operation<CheckoutContext> = (app, { deps }) =>
  app.get(
    '/e/:slug/seats/statuses',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedSeatStatuses',
        tags: ['checkout'],
        summary: 'The hosted page’s seat map: every seat’s status as one letter',
        description: [
          'What the seat map on `/e/{slug}` asks every few seconds while the buyer chooses, as `GET /api/v1/events/{id}/seats/statuses` answers it: one letter per seat in plan order (`a` available, `h` held, `s` sold, `b` blocked), so 50,000 seats read some 50 KB. The buyer’s own held seats read `h` like anyone’s: the page knows which are its own. `planUpdatedAt` names the version of the plan the letters follow; a map drawn from another version asks the buyer to reload the page. Like them, the letters may be up to about a second old (answered from the instance’s memory of the event, `SEAT_STATUS_MEMORY_MS`), but never older than a change this instance made to the event’s seats. Never who holds a seat. 409 `event_not_seated` for an event without a seating plan.',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        querystring: Type.Object({ ...Access, subEventId: Type.Optional(SubEventId) }),
        response: {
          200: answer(
            Type.Object({
              planId: Type.String(),
              planUpdatedAt: Type.String({ format: 'date-time' }),
              counts: SeatCounts,
              statuses: Type.String({ pattern: '^[ahsb]*$' }),
            }),
            'The seats’ statuses.',
          ),
          403: E,
          404: E,
          409: E,
        },
      },
    },
    async (req, reply) => {
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        req.query.key,
        req.query.origin,
        callSource(req),
        req.query.offer,
        req.query.preview,
      );
      reply.header('cache-control', 'no-store');
      return seatStatusLetters(deps, access.principal, access.event.id, req.query.subEventId);
    },
  );
