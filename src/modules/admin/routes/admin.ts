// What the platform staff operations share: what they need, their auth rule, the job as they
// answer it, and the answer with one decided publishing request.
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { Ids } from '../../../lib/ids.js';
import type { MembershipDeps } from '../../memberships/memberships.service.js';
import type { EventDeps } from '../../events/events.service.js';
import type { JobRunner } from '../../../jobs/queue.js';
import { PublishingRequest } from '../../accounts/publishing.schemas.js';

/** What the admin operations need. */
export interface AdminDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  membershipDeps: MembershipDeps;
  eventDeps: EventDeps;
  jobs: JobRunner;
}

/** Every admin operation is platform staff's. */
export const STAFF = { kind: 'staff' } as const;

export const Job = Type.Object({
  id: Type.String(),
  topic: Type.String({
    description:
      'What the job does: ticket.email, ticket.whatsapp, broadcast.mail, webhook.deliver, payment.refund, payout.send',
  }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('dead')]),
  attempts: Type.Integer({
    description: 'Attempts made, including any whose worker stopped before finishing.',
  }),
  maxAttempts: Type.Union([Type.Integer(), Type.Null()], {
    description: 'null: no limit; the retry window decides.',
  }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  runAt: Type.String({ format: 'date-time', description: 'When the next attempt is due (pending jobs).' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  retryUntil: Type.String({
    format: 'date-time',
    description: 'A failure after this parks the job as dead.',
  }),
});

/** The answer of a grant or decline: the request as decided. */
export const Decided = Type.Object({ success: Type.Literal(true), data: PublishingRequest });
