import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { Track } from '../event-answers.schemas.js';
import * as events from '../events.service.js';
import * as tracks from '../tracks.service.js';
import { TrackParams, ownershipErrors, present } from './event.js';

const examples: OperationExamples = {
  params: { index: '0' },
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

export const removeTrack: Operation<EventDeps> = (app, deps) =>
  app.delete(
    '/api/v1/events/:id/tracks/:index',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'removeTrack',
        tags: ['tracks'],
        summary: 'Remove a track nobody has booked',
        description:
          'Bookings, waitlist entries, tickets and the door name a track by its index, so a track is removed only while no booking (of any status, cancelled ones too), waitlist entry, or seat booked, held or kept back (a seated track’s) names it or a later track: 409 `track_in_use` otherwise (the later tracks’ indexes would move under their bookings). The tracks after it move down by one. Answers the event’s tracks as they are now. An index out of range answers 404.',
        params: TrackParams,
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(Track), count: Type.Integer() }),
            'The event’s tracks as they are now, the later ones moved down by one.',
          ),
          ...ownershipErrors,
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const row = await tracks.removeTrack(
        deps,
        keyPrincipal(req),
        req.params.id,
        events.parseTrackIndex(req.params.index),
      );
      const data = (await present(deps, row)).tracks;
      return { success: true as const, data, count: data.length };
    },
  );
