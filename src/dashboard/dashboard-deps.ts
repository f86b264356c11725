// What the dashboard's pages use of the service: the fields of the composition's Deps that
// app.ts hands to dashboardRoutes, spelled with their owners' types (the whole Deps fits).
import type { ReadPool } from '../db/read-pool.js';
import type { PlanGuard } from '../modules/seating/seating-plans.js';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { JobRunner } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import type { Db } from '../lib/db-handle.js';
import type { Ids } from '../lib/ids.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { SessionSigner } from '../modules/accounts/sessions.js';
import type { EventDeps } from '../modules/events/events.deps.js';
import type { KeyCache } from '../modules/keys/keys.service.js';
import type { MembershipDeps } from '../modules/memberships/memberships.service.js';
import type { PayoutDeps } from '../modules/payouts/payouts.service.js';
import type { RegisterDeps } from '../modules/registrations/register-deps.js';
import type { WaitlistDeps } from '../modules/waitlist/waitlist.service.js';

export interface DashboardDeps {
  readonly config: Config;
  readonly db: Kysely<Database>;
  /** Where the activity page and the export buttons read (src/db/read-pool.ts). */
  readonly reads: ReadPool;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly sessions: SessionSigner;
  /**
   * Ends a user's dashboard sessions (but `keep`) in the caller's transaction. Optional in the
   * accounts service's deps, so required here: a password change from the dashboard ends them.
   */
  readonly endDashboardSessions: (db: Db, userId: string, keep?: string) => Promise<void>;
  readonly rateLimiter: RateLimiter;
  /** Optional in the accounts, publishing and broadcast services' deps; required here so their mails leave at once. */
  readonly jobs: JobRunner;
  readonly keyCache: KeyCache;
  readonly eventDeps: EventDeps;
  readonly planGuard: PlanGuard;
  readonly registerDeps: RegisterDeps;
  readonly membershipDeps: MembershipDeps;
  readonly waitlistDeps: WaitlistDeps;
  readonly payoutDeps: PayoutDeps;
}
