// What the organiser's publishing access operations share: their deps and the request their
// examples show.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { Ids } from '../../../lib/ids.js';
import { EX } from '../../../http/examples.js';

/** What the publishing access operations need. */
export interface PublishingDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  jobs: { kick(): void };
}

export const requestMessageExample =
  'We run the Pune Tech Summit: two days of talks and workshops, tickets ₹499 to ₹1,999.';

/** A pending request, as the examples show it. */
export const publishingRequestExample = {
  id: EX.publishingRequestId,
  status: 'pending',
  message: requestMessageExample,
  reason: null,
  createdAt: '2026-11-25T07:51:24.908Z',
  decidedAt: null,
} as const;
