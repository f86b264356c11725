import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { Availability } from '../event-answers.schemas.js';
import * as events from '../events.service.js';
import { IdParams, ownershipErrors } from './event.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        capacity: 250,
        taken: 0,
        remaining: 250,
        soldOut: false,
        tiers: [
          {
            name: 'Student',
            price: 199,
            capacity: 50,
            taken: 0,
            remaining: 50,
            soldOut: false,
            membersOnly: false,
            onSale: true,
          },
        ],
        waitlist: { enabled: true, offerMinutes: 60, waiting: 0 },
      },
    },
  },
};

export const getAvailability: Operation<EventDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/availability',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'getAvailability',
        tags: ['events'],
        summary: 'Seats: the same numbers enforced when a registration is confirmed',
        description:
          'Seats are held by confirmed registrations and by open waitlist offers (a held seat counts as taken until it is booked or lapses). `waitlist.waiting` says how many people wait. With `subEventId` (a track index as a decimal string) `capacity` and `taken` are the track’s and `remaining` is the tighter of the track’s and the event’s. Each tier’s `remaining` is the tighter of its own and the overall remaining. `tiers[]` lists specialPrices; the base price is not a tier.',
        params: IdParams,
        querystring: Type.Object({ subEventId: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Availability }),
            'Seats taken and left, per event, track and ticket type.',
          ),
          ...ownershipErrors,
        },
      },
    },
    async (req) => {
      const row = await events.loadReadableEvent(deps.db, keyPrincipal(req), req.params.id);
      return { success: true as const, data: await events.availability(deps, row, req.query.subEventId) };
    },
  );
