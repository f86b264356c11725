import { lagHeaderValue, READ_POOL_NOTE, REPLICA_LAG_HEADER } from '../../../db/replica-lag.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { Analytics } from '../event-answers.schemas.js';
import * as events from '../events.service.js';
import { IdParams, ownershipErrors } from './event.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      eventId: EX.eventId,
      eventTitle: 'Pune Tech Summit 2027',
      totalRegistrations: 0,
      confirmedCount: 0,
      pendingCount: 0,
      cancelledCount: 0,
      refundedCount: 0,
      checkedInCount: 0,
      totalRevenue: 0,
      capacity: 250,
      seatsTaken: 0,
      fillRate: 0,
    },
  },
};

export const getAnalytics: Operation<EventDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/analytics',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getAnalytics',
        tags: ['events'],
        summary: 'Registration counts and revenue',
        description: `Counts are of bookings. \`cancelledCount\` excludes refunded bookings, which are in \`refundedCount\`. ${READ_POOL_NOTE}`,
        params: IdParams,
        response: { 200: answer(Analytics, 'Counts by status, revenue and seats.'), ...ownershipErrors },
      },
    },
    async (req, reply) => {
      const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
      const report = await events.analytics(deps, event, deps.reads.db);
      reply.header(REPLICA_LAG_HEADER, lagHeaderValue(await deps.reads.lagSeconds()));
      return report;
    },
  );
