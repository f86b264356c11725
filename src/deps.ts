// createDeps(config): everything the service talks to, built once and passed down.
// Tests call it with their own clock; production wiring never branches on tests.
import type { PlanGuard } from './modules/seating/seating-plans.js';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createLogger } from './lib/logger.js';
import type { Config } from './config.js';
import { connectDatabase, type Storage } from './db/connect.js';
import { openReadPool, type ReadPool } from './db/read-pool.js';
import { embeddedLogging, type EmbeddedServer } from './db/embedded.js';
import type { Database } from './db/database.js';
import type { JobHandlers } from './jobs/jobs.js';
import { JobRunner } from './jobs/queue.js';
import { pruneFinishedJobs } from './jobs/dead-jobs.js';
import { maintainPartitions } from './db/partitions.js';
import { endUserSessions } from './dashboard/sessions.js';
import type { Db } from './lib/db-handle.js';
import { createSessionSigner, type SessionSigner } from './modules/accounts/sessions.js';
import type { EventDeps } from './modules/events/events.service.js';
import { createEmailChecker, createResolver, type DnsResolver } from './modules/mail/email-check.js';
import { DnsCanary } from './modules/mail/dns-canary.js';
import type { PaymentGateway, SubscriptionGateway } from './modules/payments/gateway.js';
import type { MembershipDeps } from './modules/memberships/memberships.service.js';
import type { RegisterDeps } from './modules/registrations/register.service.js';
import { KeyCache } from './modules/keys/keys.service.js';
import type { Mailer } from './modules/mail/mailer.js';
import { createMailer } from './modules/mail/transports.js';
import { PayoutSweeper } from './modules/payouts/payout-gateway.service.js';
import type { PayoutDeps } from './modules/payouts/payouts.service.js';
import { systemClock, type Clock } from './lib/clock.js';
import { randomIds, type Ids } from './lib/ids.js';
import { ReconcileRunner } from './modules/reconciliation/reconcile.runner.js';
import { createMetrics, type Metrics } from './modules/ops/metrics.js';
import { startDoorRuntime, type DoorRuntime } from './modules/checkin/door-runtime.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './http/rate-limit.js';
import * as waitlist from './modules/waitlist/waitlist.service.js';
import { type SeatStatuses, StatusMemory } from './modules/seat-holds/status-memory.js';
import { createWaitingRoom } from './modules/waiting-room/waiting-room.deps.js';
import type { WaitingRoomDeps } from './modules/waiting-room/waiting-room.service.js';
import { moduleParts, moduleWork, paymentGateways, type SharedParts } from './module-deps.js';

export interface Deps {
  readonly config: Config;
  readonly db: Kysely<Database>;
  /** Where the read-only reports read (DATABASE_READ_URL's replica, else the primary). */
  readonly reads: ReadPool;
  readonly storage: Storage;
  readonly metrics: Metrics;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly sessions: SessionSigner;
  /** Ends a user's dashboard sessions (but `keep`) in the caller's transaction: password reset and change, sign out everywhere. */
  readonly endDashboardSessions: (db: Db, userId: string, keep?: string) => Promise<void>;
  readonly rateLimiter: RateLimiter;
  /** Job handlers by topic, filled in by createDeps. */
  readonly jobHandlers: JobHandlers;
  readonly jobs: JobRunner;
  /** The live gateway (Razorpay), when RAZORPAY_KEY_ID/SECRET are set. */
  readonly liveGateway: PaymentGateway | undefined;
  /** The live subscriptions gateway (Razorpay), when configured. */
  readonly liveSubscriptions: SubscriptionGateway | undefined;
  /** What events need from the rest of the service. */
  readonly eventDeps: EventDeps;
  /** What a seating plan's change must respect while events are sold from it. */
  readonly planGuard: PlanGuard;
  /** What registration needs from the rest of the service. */
  readonly registerDeps: RegisterDeps;
  readonly membershipDeps: MembershipDeps;
  /** The waitlist: joining, the organiser's queue, offers. */
  readonly waitlistDeps: waitlist.WaitlistDeps;
  /** Ledger and payouts (RazorpayX when configured, the sandbox in test mode). */
  readonly payoutDeps: PayoutDeps;
  /** Reads payouts stuck in processing back from RazorpayX; started with the workers. */
  readonly payoutSweeper: PayoutSweeper;
  /** SMTP, or .eml files under DATA_DIR/mail. Test mode never uses it. */
  readonly mailer: Mailer;
  /** Recently seen API keys (a few seconds), so most requests skip the key lookup. */
  readonly keyCache: KeyCache;
  /** Events' seat statuses, remembered for up to SEAT_STATUS_MEMORY_MS (seat-holds/status-memory.ts). */
  readonly seatStatuses: SeatStatuses;
  /** The reconciliation sweep on start and every RECONCILE_EVERY_SECONDS; started with the workers. */
  readonly reconciler: ReconcileRunner;
  /** The door's in-memory rosters, their LISTEN connection, and the admits' group commit. */
  readonly door: DoorRuntime;
  /** Asks the resolver for EMAIL_DNS_CANARY at start and every 5 minutes; while it is denied the email check keeps to syntax. */
  readonly emailCanary: DnsCanary;
  /** The waiting room: its queue (in Redis when REDIS_URL is set, else PostgreSQL), challenges and tokens. */
  readonly waitingRoom: WaitingRoomDeps;
  close(): Promise<void>;
}

export interface DepsOverrides {
  clock?: Clock;
  ids?: Ids;
  logger?: Logger;
  /** The embedded server, already being started (server.ts starts it while the modules load). */
  embedded?: Promise<EmbeddedServer>;
  /** The resolver the email check and its canary ask (default: one on DNS_SERVERS, else the system's). */
  resolver?: DnsResolver;
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const ids = overrides.ids ?? randomIds;
  const database = await connectDatabase(config, {
    embeddedLogging: embeddedLogging(logger),
    ...(overrides.embedded ? { embedded: overrides.embedded } : {}),
  });
  const db = database.db;
  const reads = openReadPool(
    config.databaseReadUrl,
    db,
    () => clock.now().getTime(),
    config.databasePoolSize,
  );
  const { redis, rateLimiter } = await rateLimits(config, logger);
  const metrics = createMetrics({ db, clock, pool: database.pool, outages: database.outages });
  const door = doorRuntime(config, database, logger, metrics);
  const gateways = paymentGateways(config, { db, clock, ids });
  const { emailCanary, emailChecker } = emailChecks(config, overrides.resolver, { clock, logger, metrics });
  const { parts, mailer, jobHandlers, runner, payoutSweeper, reconciler } = moduleRuntime({
    config,
    db,
    reads,
    clock,
    ids,
    logger,
    gateways,
    checkEmail: (email) => emailChecker.check(email),
  });

  return {
    keyCache: new KeyCache(),
    seatStatuses: new StatusMemory(config.seatStatusMemoryMs, () => clock.now().getTime()),
    reconciler,
    mailer,
    liveGateway: gateways.liveGateway,
    liveSubscriptions: gateways.liveSubscriptions,
    ...parts,
    payoutSweeper,
    config,
    db,
    reads,
    storage: database.storage,
    metrics,
    clock,
    ids,
    logger,
    sessions: createSessionSigner(config.sessionSecret, clock),
    endDashboardSessions: endUserSessions,
    rateLimiter,
    jobHandlers,
    jobs: runner,
    door,
    emailCanary,
    waitingRoom: createWaitingRoom(config, { db, clock, ids, logger, redis, metrics, rateLimiter }),
    async close() {
      await emailCanary.stop();
      await door.close();
      await reconciler.stop();
      await payoutSweeper.stop();
      await runner.stop();
      await mailer.close();
      redis?.disconnect();
      await reads.close();
      await database.close();
    },
  };
}

/** The email check, and the canary that tells it when the resolver is denied. */
function emailChecks(
  config: Config,
  given: DnsResolver | undefined,
  base: { clock: Clock; logger: Logger; metrics: Metrics },
): { emailCanary: DnsCanary; emailChecker: ReturnType<typeof createEmailChecker> } {
  const { clock, logger, metrics } = base;
  const resolver = given ?? createResolver(config.dnsServers);
  const emailCanary = new DnsCanary({
    resolver,
    domain: config.emailDnsCanary,
    enabled: config.emailDnsCheck,
    clock,
    logger,
    registry: metrics.registry,
  });
  const emailChecker = createEmailChecker({
    resolver,
    dnsCheck: config.emailDnsCheck,
    clock,
    reduced: () => emailCanary.reduced,
  });
  return { emailCanary, emailChecker };
}

/**
 * Each module's slice, the mailer, and the workers: the job runner with what every module
 * registers, the payout sweeper and the reconciliation sweep.
 */
function moduleRuntime(base: Omit<SharedParts, 'kickJobs'>) {
  const { config, db, clock, ids, logger } = base;
  // The job runner is made below, from what the modules register; until then nothing kicks it.
  let jobs: JobRunner | undefined;
  const shared: SharedParts = { ...base, kickJobs: () => jobs?.kick() };
  const parts = moduleParts(shared);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    dataDir: config.dataDir,
  });
  const work = moduleWork({ ...shared, ...parts, mailer });
  const jobHandlers: JobHandlers = new Map();
  for (const w of work) for (const register of w.jobs) register(jobHandlers);
  // Tables that only grow are pruned by the workers, hourly by the injected clock; their monthly
  // partitions are made ahead and dropped past retention on the first poll and hourly after.
  const maintenance = [
    {
      name: 'maintain partitions',
      everyMs: 3_600_000,
      run: async (now: Date) => {
        const r = await maintainPartitions(db, config.partitions, now);
        if (r.created.length + r.dropped.length + r.kept.length > 0) logger.info(r, 'partitions maintained');
      },
    },
    { name: 'prune finished jobs', everyMs: 3_600_000, run: (now: Date) => pruneFinishedJobs(db, now) },
    ...work.flatMap((w) => w.maintenance ?? []),
  ];
  jobs = new JobRunner({
    db,
    clock,
    ids,
    logger,
    handlers: jobHandlers,
    maintenance,
    batchSize: config.jobBatchSize,
  });
  const runner = jobs;
  const payoutSweeper = new PayoutSweeper(parts.payoutDeps);
  const reconciler = new ReconcileRunner(
    {
      db,
      clock,
      ids,
      logger,
      registerDeps: parts.registerDeps,
      membershipDeps: parts.membershipDeps,
      config,
    },
    config.reconcile.everySeconds,
  );
  return { parts, mailer, jobHandlers, runner, payoutSweeper, reconciler };
}

/** The door's in-memory rosters, their LISTEN connection on the database, and the admits' group commit. */
function doorRuntime(
  config: Config,
  database: Awaited<ReturnType<typeof connectDatabase>>,
  logger: Logger,
  metrics: Metrics,
): DoorRuntime {
  const door = startDoorRuntime({
    db: database.db,
    logger,
    registry: metrics.registry,
    connection: database.connection,
    onNotice: (handler) => database.onNotice(handler),
    ownBackend: (pid) => database.ownBackend(pid),
    checkEveryMs: config.doorRosterCheckMs,
  });
  door.rosters.maxPeople = config.doorRosterMaxPeople;
  return door;
}

/** The rate limiter: in Redis when REDIS_URL is set (shared by every instance), else in memory. */
async function rateLimits(
  config: Config,
  logger: Logger,
): Promise<{ redis: Redis | undefined; rateLimiter: RateLimiter }> {
  if (!config.redisUrl)
    return { redis: undefined, rateLimiter: new MemoryRateLimiter(config.rateLimitPerMinute) };
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
  });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
  // Start counting from the first request; if Redis is down, start anyway and
  // let the limiter allow requests until it is back (ioredis keeps reconnecting).
  await redis
    .connect()
    .catch((err: Error) => logger.warn({ err: err.message }, 'redis unavailable at start'));
  return { redis, rateLimiter: new RedisRateLimiter(redis, config.rateLimitPerMinute, logger) };
}
