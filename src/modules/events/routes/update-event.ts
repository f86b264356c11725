import { Type } from 'typebox';
import { EXAMPLE_EVENT } from './event-example.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { EventPatch } from '../events.schemas.js';
import * as events from '../events.service.js';
import { IdParams, EventAnswer, ownershipErrors, present } from './event.js';

const examples: OperationExamples = {
  requests: { default: { value: { location: 'Hall B, Pune', capacity: 250, status: 'published' } } },
  responses: {
    '200': {
      success: true,
      data: {
        ...EXAMPLE_EVENT,
        status: 'published',
        location: 'Hall B, Pune',
        capacity: 250,
        remaining: 250,
      },
    },
  },
};

export const updateEvent: Operation<EventDeps> = (app, deps) =>
  app.patch(
    '/api/v1/events/:id',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'updateEvent',
        tags: ['events'],
        summary: 'Change any creation field, or publish / unpublish with status',
        description:
          'Fields left out keep their value; `null` clears endDate or location. Publishing a **test** event needs nothing more (test events are never public). Publishing a **live** event needs canPublish (403 `organiser_access_required` otherwise; ask for it with `POST /dashboard/api/publishing-access`). A live event that costs money (a base, tier or track price above 0) is refused with 409 `payments_not_configured` while the service takes no live payments (its Razorpay keys are not set), when it is published or when a published one is made paid; free events publish meanwhile. A seated event whose seats are booked or held keeps its `seatingPlanId`: changing or removing it answers 409 `seating_plan_in_use`.',
        params: IdParams,
        body: EventPatch,
        response: {
          200: answer(EventAnswer, 'The event as changed.'),
          ...ownershipErrors,
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await present(deps, await events.patchEvent(deps, keyPrincipal(req), req.params.id, req.body)),
    }),
  );
