import { EXAMPLE_EVENT } from './event-example.js';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import * as events from '../events.service.js';
import { IdParams, EventAnswer, ownershipErrors, present } from './event.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: EXAMPLE_EVENT,
    },
  },
};

export const getEvent: Operation<EventDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'getEvent',
        tags: ['events'],
        summary: 'One event with its tracks and seat counts',
        description:
          'A checkout key reads only published events (in test mode also draft test events); a live draft answers it 404.',
        params: IdParams,
        response: { 200: answer(EventAnswer, 'The event.'), ...ownershipErrors },
      },
    },
    async (req) => ({
      success: true as const,
      data: await present(deps, await events.loadReadableEvent(deps.db, keyPrincipal(req), req.params.id)),
    }),
  );
