// What the broadcast operations share: their deps and the error answer's schema.
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { JobRunner } from '../../../jobs/queue.js';
import type { Clock } from '../../../lib/clock.js';
import type { Ids } from '../../../lib/ids.js';

/** What the broadcast operations need. */
export interface BroadcastDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  jobs: JobRunner;
  config: Config;
}

export const E = Type.Ref('Error');
