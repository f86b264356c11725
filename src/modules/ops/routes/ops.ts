// What the operations routes share: their deps and their auth rule.
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { Storage } from '../../../db/connect.js';
import type { Database } from '../../../db/database.js';
import type { EmailCheckStatus } from '../../mail/dns-canary.js';
import type { Metrics } from '../metrics.js';

/** What the operations routes need. */
export interface OpsDeps {
  db: Kysely<Database>;
  storage: Storage;
  metrics: Metrics;
  config: Config;
  emailCanary: { status(): EmailCheckStatus };
}

// Open to anyone, so under the per-address limit like every other public route: a health
// check pings the database, a scrape reads it three times, and nobody may do either at will.
export const OPEN = { kind: 'public' } as const;
