import { EXAMPLE_EVENT } from './event-example.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { EventCreate } from '../events.schemas.js';
import * as events from '../events.service.js';
import { EventAnswer, present } from './event.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        title: 'Pune Tech Summit 2027',
        description: 'A day of talks on building for India: payments, scale and the tools we use.',
        startDate: '2027-01-16T10:00:00+05:30',
        endDate: '2027-01-16T17:30:00+05:30',
        location: 'Hall A, Pune',
        capacity: 200,
        price: 499,
        specialPrices: [{ name: 'Student', price: 199, capacity: 50 }],
        customFields: [{ name: 'company', label: 'Company', type: 'text' }],
        maxTeamSize: 4,
        selfService: { transfer: true, cancel: true, cutoffHours: 24, refund: 'full' },
        wholeEventOption: true,
        seatingPlanId: null,
        waitlist: { enabled: true, offerMinutes: 60 },
      },
    },
  },
  responses: {
    '201': {
      success: true,
      data: EXAMPLE_EVENT,
    },
  },
};

export const createEvent: Operation<EventDeps> = (app, deps) =>
  app.post(
    '/api/v1/events',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'createEvent',
        tags: ['events'],
        summary: 'Create an event (always a draft, in the key’s mode)',
        description:
          'The slug is derived from the title once, at creation, and made unique with a short suffix when taken; changing the title later keeps the slug.',
        body: EventCreate,
        response: { 201: answer(EventAnswer, 'The event, created as a draft.') },
      },
    },
    async (req, reply) =>
      reply.code(201).send({
        success: true as const,
        data: await present(deps, await events.createEvent(deps, keyPrincipal(req), req.body)),
      }),
  );
