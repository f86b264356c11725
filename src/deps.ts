// createDeps(config): everything the service talks to, built once and passed down.
// Tests call it with their own clock; production wiring never branches on tests.
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createLogger } from './lib/logger.js';
import type { Config } from './config.js';
import { connectDatabase, type Storage } from './db/connect.js';
import { embeddedLogging, type EmbeddedServer } from './db/embedded.js';
import type { Database } from './db/database.js';
import { handleJob, handleJobs, JobRunner, type JobHandlers, type MaintenanceTask } from './jobs/queue.js';
import { pruneFinishedJobs } from './jobs/dead-jobs.js';
import { pruneKeptEmails } from './modules/mail/sandbox-mail.js';
import { getUser } from './modules/accounts/accounts.service.js';
import { publishingDecisionJob, sendPublishingDecisionJob } from './modules/accounts/publishing.js';
import { sendPasswordNoticeJob, sendPasswordResetJob, sendVerificationJob } from './modules/accounts/accounts.mails.js';
import { passwordNoticeJob, passwordResetJob, verifyEmailJob } from './modules/accounts/accounts.service.js';
import { endUserSessions } from './dashboard/sessions.js';
import type { Db } from './lib/db-handle.js';
import { createSessionSigner, type SessionSigner } from './modules/accounts/sessions.js';
import type { EventDeps } from './modules/events/events.service.js';
import { createEmailChecker, createResolver, type DnsResolver } from './modules/mail/email-check.js';
import { DnsCanary } from './modules/mail/dns-canary.js';
import type { PaymentGateway } from './modules/payments/gateway.js';
import { SandboxGateway, SandboxSubscriptions } from './modules/sandbox/sandbox-gateway.js';
import { RazorpayGateway } from './modules/payments/razorpay.js';
import type { SubscriptionGateway } from './modules/payments/gateway.js';
import { hasGoodStanding, type MembershipDeps } from './modules/memberships/memberships.service.js';
import { memberCodeMailJob, pruneMemberCodes, sendMemberCodeMail } from './modules/memberships/member-codes.js';
import { membershipConfirmationJob, membershipPaymentJob, sendConfirmationMail, sendPaymentMail } from './modules/memberships/membership-mail.jobs.js';
import { chargeRefundJob, refundChargeJob } from './modules/memberships/charge-refunds.js';
import { FreeBookings } from './modules/registrations/free-bookings.js';
import { EventReads } from './modules/events/event-reads.js';
import type { RegisterDeps } from './modules/registrations/register.service.js';
import { refundJob, refundPaymentJob } from './modules/registrations/registrations.jobs.js';
import { settleEventPayments } from './modules/registrations/actions.service.js';
import { conflict } from './lib/errors.js';
import { KeyCache } from './modules/keys/keys.service.js';
import type { Mailer } from './modules/mail/mailer.js';
import { createMailer } from './modules/mail/transports.js';
import * as registrations from './modules/registrations/registrations.service.js';
import { sendTicketJobs, ticketEmailJob } from './modules/tickets/tickets.jobs.js';
import { bookingMailJob, sendBookingMail } from './modules/tickets/booking-mails.jobs.js';
import { cloudApi } from './modules/whatsapp/cloud-api.js';
import { sendWhatsAppTicket, whatsappTicketJob } from './modules/whatsapp/whatsapp.jobs.js';
import { broadcastMailJob, sendBroadcastMail } from './modules/broadcast/broadcast.service.js';
import { deliveryJob, pruneDeliveries, webhookDeliveryJob } from './modules/webhooks/webhooks.service.js';
import { payoutJob, PayoutSweeper, sendPayoutJob, type PayoutDeps } from './modules/payouts/payouts.service.js';
import { RazorpayXPayouts } from './modules/payouts/razorpayx.js';
import { serversResolve } from './modules/webhooks/delivery.js';
import { systemClock, type Clock } from './lib/clock.js';
import { randomIds, type Ids } from './lib/ids.js';
import { ReconcileRunner } from './modules/reconciliation/reconcile.runner.js';
import { pruneIdempotencyKeys } from './modules/idempotency/idempotency.hooks.js';
import { createMetrics, type Metrics } from './modules/ops/metrics.js';
import { startDoorRuntime, type DoorRuntime } from './modules/checkin/door-runtime.js';
import { refundStrayJob, strayRefundJob } from './modules/reconciliation/stray-payments.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './http/rate-limit.js';
import * as waitlist from './modules/waitlist/waitlist.service.js';
import { lapseJob, offerMailJob, sendOfferMail } from './modules/waitlist/waitlist.jobs.js';

export interface Deps {
  readonly config: Config;
  readonly db: Kysely<Database>;
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
  /** The reconciliation sweep on start and every RECONCILE_EVERY_SECONDS; started with the workers. */
  readonly reconciler: ReconcileRunner;
  /** The door's in-memory rosters, their LISTEN connection, and the admits' group commit. */
  readonly door: DoorRuntime;
  /** Asks the resolver for EMAIL_DNS_CANARY at start and every 5 minutes; while it is denied the email check keeps to syntax. */
  readonly emailCanary: DnsCanary;
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

  let redis: Redis | undefined;
  let rateLimiter: RateLimiter;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
    });
    redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
    // Start counting from the first request; if Redis is down, start anyway and
    // let the limiter allow requests until it is back (ioredis keeps reconnecting).
    await redis.connect().catch((err: Error) => logger.warn({ err: err.message }, 'redis unavailable at start'));
    rateLimiter = new RedisRateLimiter(redis, config.rateLimitPerMinute, logger);
  } else {
    rateLimiter = new MemoryRateLimiter(config.rateLimitPerMinute);
  }

  const jobHandlers: JobHandlers = new Map();
  // Tables that only grow are pruned by the workers, hourly by the injected clock.
  const maintenance: MaintenanceTask[] = [
    { name: 'prune webhook deliveries', everyMs: 3_600_000, run: (now) => pruneDeliveries(database.db, now) },
    { name: 'prune sandbox mails', everyMs: 3_600_000, run: (now) => pruneKeptEmails(database.db, now) },
    { name: 'prune finished jobs', everyMs: 3_600_000, run: (now) => pruneFinishedJobs(database.db, now) },
    { name: 'prune idempotency keys', everyMs: 3_600_000, run: (now) => pruneIdempotencyKeys(database.db, now) },
    // A members-only code lapses after minutes; a day later its row is of no use.
    { name: 'prune member codes', everyMs: 3_600_000, run: (now) => pruneMemberCodes(database.db, new Date(now.getTime() - 86_400_000)) },
    // Each offer's lapse is a job at its expiry; this sweep is the safety net.
    { name: 'lapse waitlist offers', everyMs: 60_000, run: () => waitlist.lapseAll({ db: database.db, clock, ids }) },
  ];
  const jobs = new JobRunner({ db: database.db, clock, ids, logger, handlers: jobHandlers, maintenance, batchSize: config.jobBatchSize });
  const metrics = createMetrics({ db: database.db, clock, pool: database.pool });
  const db = database.db;
  const door = startDoorRuntime({
    db,
    logger,
    registry: metrics.registry,
    connection: database.connection,
    onNotice: (handler) => database.onNotice(handler),
    ownBackend: (pid) => database.ownBackend(pid),
    checkEveryMs: config.doorRosterCheckMs,
  });
  door.rosters.maxPeople = config.doorRosterMaxPeople;

  const razorpay =
    config.razorpay.keyId && config.razorpay.keySecret
      ? new RazorpayGateway({ apiUrl: config.razorpay.apiUrl, keyId: config.razorpay.keyId, keySecret: config.razorpay.keySecret, timeoutMs: config.razorpay.timeoutMs })
      : undefined;
  const liveGateway: PaymentGateway | undefined = razorpay;
  const liveSubscriptions: SubscriptionGateway | undefined = razorpay;
  const notConfigured = () => conflict('payments_not_configured');
  const gatewayFor = (mode: 'test' | 'live', accountId: string): PaymentGateway => {
    if (mode === 'test') return new SandboxGateway({ db, clock, ids }, accountId);
    if (!liveGateway) throw notConfigured();
    return liveGateway;
  };
  const resolver = overrides.resolver ?? createResolver(config.dnsServers);
  const emailCanary = new DnsCanary({ resolver, domain: config.emailDnsCanary, enabled: config.emailDnsCheck, clock, logger, registry: metrics.registry });
  const emailChecker = createEmailChecker({ resolver, dnsCheck: config.emailDnsCheck, clock, reduced: () => emailCanary.reduced });
  const checkEmail = (email: string) => emailChecker.check(email);
  const registerDeps: RegisterDeps = {
    db,
    clock,
    ids,
    gatewayFor,
    checkEmail,
    hasGoodStanding: (accountId, mode, email) => hasGoodStanding({ db, clock }, accountId, mode, email),
    kickJobs: () => jobs.kick(),
    freeBookings: new FreeBookings(db, clock),
    eventReads: new EventReads(db),
    soldOutMemoryMs: config.soldOutMemoryMs,
    sendsWhatsApp: config.whatsapp.sender !== undefined,
    secretsKey: config.secretsKey,
  };
  const eventDeps: EventDeps = {
    db,
    clock,
    ids,
    bookings: {
      paymentsInFlight: (eventId) => registrations.paymentsInFlight(db, eventId),
      settlePayments: (eventId) => settleEventPayments(registerDeps, eventId),
      counts: (eventId) => registrations.eventCounts(db, eventId),
      tracksInUseFrom: async (eventId, index) =>
        (await registrations.anyBookingOnTracksFrom(db, eventId, index)) || (await waitlist.anyEntryOnTracksFrom(db, eventId, index)),
    },
    canPublish: async (userId) => (await getUser(db, userId)).can_publish,
    livePayments: liveGateway !== undefined,
    waitlist: {
      seatsFreed: async (trx, eventId) => {
        await waitlist.offerSeats(trx, { clock, ids }, eventId);
      },
      waitingCount: (eventId, trackIndex) => waitlist.waitingCount(db, eventId, trackIndex),
    },
  };
  const waitlistDeps: waitlist.WaitlistDeps = { db, clock, ids, secretsKey: config.secretsKey, checkEmail, kickJobs: () => jobs.kick() };
  const membershipDeps: MembershipDeps = {
    db,
    clock,
    ids,
    config,
    gatewayFor,
    subscriptionsFor(mode, accountId) {
      if (mode === 'test') return new SandboxSubscriptions({ db, clock, ids }, accountId, config.baseUrl);
      if (!liveSubscriptions) throw notConfigured();
      return liveSubscriptions;
    },
    checkEmail,
    kickJobs: () => jobs.kick(),
  };
  const mailer = createMailer({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, dataDir: config.dataDir });
  handleJob(jobHandlers, verifyEmailJob, (payload) => sendVerificationJob({ db, clock, ids, baseUrl: config.baseUrl, mailer }, payload));
  handleJob(jobHandlers, passwordResetJob, (payload) => sendPasswordResetJob({ db, clock, ids, baseUrl: config.baseUrl, mailer }, payload));
  handleJob(jobHandlers, publishingDecisionJob, (payload) => sendPublishingDecisionJob({ db, baseUrl: config.baseUrl, mailer }, payload));
  handleJob(jobHandlers, passwordNoticeJob, (payload) => sendPasswordNoticeJob({ db, clock, ids, baseUrl: config.baseUrl, mailer }, payload));
  const ticketHolders = (attendeeIds: readonly string[]) => registrations.ticketHolders(db, attendeeIds);
  handleJobs(jobHandlers, ticketEmailJob, (batch) => sendTicketJobs({ db, clock, config, mailer, ticketHolders }, batch));
  handleJob(jobHandlers, bookingMailJob, (payload, job) => sendBookingMail({ db, clock, config, mailer, findBooking: (id) => registrations.findRegistration(db, id) }, payload, job));
  const memberMailDeps = { db, clock, config, mailer };
  handleJob(jobHandlers, membershipConfirmationJob, (payload, job) => sendConfirmationMail(memberMailDeps, payload, job));
  handleJob(jobHandlers, membershipPaymentJob, (payload, job) => sendPaymentMail(memberMailDeps, payload, job));
  handleJob(jobHandlers, memberCodeMailJob, (payload, job) => sendMemberCodeMail(memberMailDeps, payload, job));
  const sender = config.whatsapp.sender;
  const whatsappApi = sender ? cloudApi({ apiUrl: config.whatsapp.apiUrl, token: sender.token, phoneNumberId: sender.phoneNumberId }) : undefined;
  handleJob(jobHandlers, whatsappTicketJob, (payload) =>
    sendWhatsAppTicket({ db, clock, ids, sender, api: whatsappApi, timeZone: config.eventTimeZone, findBooking: (id) => registrations.findRegistration(db, id) }, payload),
  );
  handleJob(jobHandlers, broadcastMailJob, (payload) => sendBroadcastMail({ db, clock, mailer }, payload));
  // Webhook hosts resolve through DNS_SERVERS when set, like the email check.
  const resolve = config.dnsServers.length > 0 ? serversResolve(config.dnsServers) : undefined;
  handleJob(jobHandlers, webhookDeliveryJob, (payload) => deliveryJob({ db, clock, ids, config, ...(resolve ? { resolve } : {}) }, payload));
  handleJob(jobHandlers, offerMailJob, (payload) => sendOfferMail({ db, clock, config, mailer }, payload));
  handleJob(jobHandlers, lapseJob, async (payload) => {
    await waitlist.lapseDue({ db, clock, ids }, payload.eventId);
  });
  handleJob(jobHandlers, refundPaymentJob, (payload) => refundJob(registerDeps, payload));
  handleJob(jobHandlers, strayRefundJob, (payload) => refundStrayJob(registerDeps, payload));
  handleJob(jobHandlers, chargeRefundJob, (payload) => refundChargeJob(membershipDeps, payload));
  const payoutDeps: PayoutDeps = {
    db,
    clock,
    ids,
    logger,
    clearingDays: config.payouts.clearingDays,
    razorpayx:
      config.payouts.razorpayxAccountNumber && config.razorpay.keyId && config.razorpay.keySecret
        ? new RazorpayXPayouts({ apiUrl: config.razorpay.apiUrl, keyId: config.razorpay.keyId, keySecret: config.razorpay.keySecret, accountNumber: config.payouts.razorpayxAccountNumber, timeoutMs: config.razorpay.timeoutMs })
        : undefined,
    kickJobs: () => jobs.kick(),
  };
  const payoutSweeper = new PayoutSweeper(payoutDeps);
  handleJob(jobHandlers, payoutJob, (payload) => sendPayoutJob(payoutDeps, payload));

  const reconciler = new ReconcileRunner({ db, clock, ids, logger, registerDeps, membershipDeps, config }, config.reconcile.everySeconds);

  return {
    keyCache: new KeyCache(),
    reconciler,
    mailer,
    liveGateway,
    liveSubscriptions,
    eventDeps,
    registerDeps,
    membershipDeps,
    waitlistDeps,
    payoutDeps,
    payoutSweeper,
    config,
    db: database.db,
    storage: database.storage,
    metrics,
    clock,
    ids,
    logger,
    sessions: createSessionSigner(config.sessionSecret, clock),
    endDashboardSessions: endUserSessions,
    rateLimiter,
    jobHandlers,
    jobs,
    door,
    emailCanary,
    async close() {
      await emailCanary.stop();
      await door.close();
      await reconciler.stop();
      await payoutSweeper.stop();
      await jobs.stop();
      await mailer.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
