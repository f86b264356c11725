import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { Track } from '../event-answers.schemas.js';
import * as events from '../events.service.js';
import { IdParams, ownershipErrors, present } from './event.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: [
        {
          index: 0,
          title: 'Workshop: PostgreSQL internals',
          price: 299,
          capacity: 30,
          date: '2027-01-16T14:00:00+05:30',
          endDate: '2027-01-16T17:00:00+05:30',
          startsAt: '2027-01-16T14:00:00+05:30',
          endsAt: '2027-01-16T17:00:00+05:30',
          taken: 0,
          remaining: 30,
          waitlist: null,
          seatingPlanId: null,
        },
      ],
      count: 1,
    },
  },
};

export const listTracks: Operation<EventDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/tracks',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'listTracks',
        tags: ['tracks'],
        summary: 'The event’s tracks in order',
        description:
          'The event’s bookable tracks (sessions) in their order; a track is addressed by its index.',
        params: IdParams,
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(Track), count: Type.Integer() }),
            'The event’s tracks, in order.',
          ),
          ...ownershipErrors,
        },
      },
    },
    async (req) => {
      const row = await events.loadReadableEvent(deps.db, keyPrincipal(req), req.params.id);
      const data = (await present(deps, row)).tracks;
      return { success: true as const, data, count: data.length };
    },
  );
