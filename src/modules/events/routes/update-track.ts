import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { TrackPatch } from '../events.schemas.js';
import { Track } from '../event-answers.schemas.js';
import * as events from '../events.service.js';
import * as tracks from '../tracks.service.js';
import { TrackParams, ownershipErrors, present } from './event.js';

const examples: OperationExamples = {
  params: { index: '0' },
  requests: { default: { value: { capacity: 40 } } },
  responses: {
    '200': {
      success: true,
      data: {
        index: 0,
        title: 'Workshop: PostgreSQL internals',
        price: 299,
        capacity: 40,
        date: '2027-01-16T14:00:00+05:30',
        endDate: '2027-01-16T17:00:00+05:30',
        startsAt: '2027-01-16T14:00:00+05:30',
        endsAt: '2027-01-16T17:00:00+05:30',
        taken: 0,
        remaining: 40,
        waitlist: null,
        seatingPlanId: null,
      },
    },
  },
};

export const updateTrack: Operation<EventDeps> = (app, deps) =>
  app.patch(
    '/api/v1/events/:id/tracks/:index',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'updateTrack',
        tags: ['tracks'],
        summary: 'Change a track by index',
        description:
          'An index out of range answers 404 and creates nothing. Indexes are positional: re-read the tracks first if they may have changed. A seated track (`seatingPlanId`; docs/decisions/23-reserved-seating.md) takes its capacity from its plan’s seats, whatever is sent, and refits the tiers’ capacities; 400 `invalid_seating_plan` when the event’s seating would not hold (a track without a plan on an event whose tracks are seated, a plan on the event and its tracks, a category without a tier). While a seat of the track is booked or held its `seatingPlanId` cannot change: 409 `seating_plan_in_use`.',
        params: TrackParams,
        body: TrackPatch,
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), data: Track }), 'The track as changed.'),
          ...ownershipErrors,
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const index = events.parseTrackIndex(req.params.index);
      const row = await tracks.patchTrack(deps, keyPrincipal(req), req.params.id, index, req.body);
      return { success: true as const, data: (await present(deps, row)).tracks[index]! };
    },
  );
