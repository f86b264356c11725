import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { TrackInput } from '../events.schemas.js';
import { Track } from '../event-answers.schemas.js';
import * as tracks from '../tracks.service.js';
import { IdParams, ownershipErrors, present } from './event.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        title: 'Workshop: PostgreSQL internals',
        price: 299,
        capacity: 30,
        startsAt: '2027-01-16T14:00:00+05:30',
        endsAt: '2027-01-16T17:00:00+05:30',
      },
    },
  },
  responses: {
    '201': {
      success: true,
      data: {
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
    },
  },
};

export const createTrack: Operation<EventDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/tracks',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'createTrack',
        tags: ['tracks'],
        summary: 'Append a track',
        description:
          'A track is a session with its own time: `startsAt` and `endsAt` (date-times with offset; or `date`, which may also be a bare day, and `endDate`). Without them the track runs as the event does (and follows it while unset). A booking on the track is shown, mailed, put in calendars and wallets, and its self-service cutoff counted, by the track’s times. A seated track (`seatingPlanId`; docs/decisions/23-reserved-seating.md) takes its capacity from its plan’s seats, whatever is sent, and refits the tiers’ capacities; 400 `invalid_seating_plan` when the event’s seating would not hold (a track without a plan on an event whose tracks are seated, a plan on the event and its tracks, a category without a tier).',
        params: IdParams,
        body: TrackInput,
        response: {
          201: answer(Type.Object({ success: Type.Literal(true), data: Track }), 'The track appended.'),
          ...ownershipErrors,
        },
      },
    },
    async (req, reply) => {
      const { index, row } = await tracks.addTrack(deps, keyPrincipal(req), req.params.id, req.body);
      const data = (await present(deps, row)).tracks[index]!;
      return reply.code(201).send({ success: true as const, data });
    },
  );
