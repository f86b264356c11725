// The composition's module wiring (createDeps in deps.ts uses it): the payment gateways, each
// module's slice of the dependencies, and every module's background work.
import type { ReadPool } from './db/read-pool.js';
import { keptSeats, seatsInUse, seatsOnTracksFrom } from './modules/seat-holds/house-seats.service.js';
import { planGuard } from './modules/seat-holds/plan-guard.js';
import type { PlanGuard } from './modules/seating/seating-plans.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { ModuleWork } from './jobs/jobs.js';
import { conflict } from './lib/errors.js';
import type { Clock } from './lib/clock.js';
import type { Ids } from './lib/ids.js';
import { getUser } from './modules/accounts/accounts.service.js';
import { accountsWork } from './modules/accounts/accounts.work.js';
import { broadcastWork } from './modules/broadcast/broadcast.work.js';
import { EventReads } from './modules/events/event-reads.js';
import type { EventDeps } from './modules/events/events.service.js';
import { idempotencyWork } from './modules/idempotency/idempotency.work.js';
import type { CheckEmail } from './modules/mail/deliverable.js';
import { mailWork } from './modules/mail/mail.work.js';
import type { Mailer } from './modules/mail/mailer.js';
import { hasGoodStanding, type MembershipDeps } from './modules/memberships/memberships.service.js';
import { membershipsWork } from './modules/memberships/memberships.work.js';
import type { PaymentGateway, SubscriptionGateway } from './modules/payments/gateway.js';
import { RazorpayGateway } from './modules/payments/razorpay.js';
import type { PayoutDeps } from './modules/payouts/payouts.service.js';
import { payoutsWork } from './modules/payouts/payouts.work.js';
import { RazorpayXPayouts } from './modules/payouts/razorpayx.js';
import { reconciliationWork } from './modules/reconciliation/reconciliation.work.js';
import { settleEventPayments } from './modules/registrations/actions.service.js';
import { FreeBookings } from './modules/registrations/free-bookings.js';
import type { RegisterDeps } from './modules/registrations/register.service.js';
import * as registrations from './modules/registrations/registrations.service.js';
import { registrationsWork } from './modules/registrations/registrations.work.js';
import { SandboxGateway, SandboxSubscriptions } from './modules/sandbox/sandbox-gateway.js';
import { ticketsWork } from './modules/tickets/tickets.work.js';
import * as waitlist from './modules/waitlist/waitlist.service.js';
import { waitlistWork } from './modules/waitlist/waitlist.work.js';
import { webhooksWork } from './modules/webhooks/webhooks.work.js';
import { whatsappWork } from './modules/whatsapp/whatsapp.work.js';
import { waitingRoomWork } from './modules/waiting-room/waiting-room.work.js';

export interface Gateways {
  /** The live gateway (Razorpay), when RAZORPAY_KEY_ID/SECRET are set. */
  liveGateway: PaymentGateway | undefined;
  liveSubscriptions: SubscriptionGateway | undefined;
  /** The sandbox in test mode, Razorpay in live mode (409 payments_not_configured without it). */
  gatewayFor(mode: 'test' | 'live', accountId: string): PaymentGateway;
  subscriptionsFor(mode: 'test' | 'live', accountId: string): SubscriptionGateway;
}

export function paymentGateways(
  config: Config,
  base: { db: Kysely<Database>; clock: Clock; ids: Ids },
): Gateways {
  const razorpay =
    config.razorpay.keyId && config.razorpay.keySecret
      ? new RazorpayGateway({
          apiUrl: config.razorpay.apiUrl,
          keyId: config.razorpay.keyId,
          keySecret: config.razorpay.keySecret,
          timeoutMs: config.razorpay.timeoutMs,
        })
      : undefined;
  const notConfigured = () => conflict('payments_not_configured');
  return {
    liveGateway: razorpay,
    liveSubscriptions: razorpay,
    gatewayFor(mode, accountId) {
      if (mode === 'test') return new SandboxGateway(base, accountId);
      if (!razorpay) throw notConfigured();
      return razorpay;
    },
    subscriptionsFor(mode, accountId) {
      if (mode === 'test') return new SandboxSubscriptions(base, accountId, config.baseUrl);
      if (!razorpay) throw notConfigured();
      return razorpay;
    },
  };
}

/** What every module's slice of the dependencies is made from. */
export interface SharedParts {
  config: Config;
  db: Kysely<Database>;
  /** Where the read-only reports read (src/db/read-pool.ts). */
  reads: ReadPool;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  gateways: Gateways;
  checkEmail: CheckEmail;
  kickJobs(): void;
}

/** Each module's slice of the dependencies. */
export interface ModuleParts {
  registerDeps: RegisterDeps;
  eventDeps: EventDeps;
  waitlistDeps: waitlist.WaitlistDeps;
  membershipDeps: MembershipDeps;
  payoutDeps: PayoutDeps;
  /** What a seating plan's change must respect while events are sold from it. */
  planGuard: PlanGuard;
}

/** What the seat-holds module answers the events module about a seated event's seats. */
function seatAnswers(db: Kysely<Database>, clock: Clock): EventDeps['seats'] {
  return {
    kept: (eventId) => keptSeats(db, eventId),
    inUse: (eventId) => seatsInUse({ db, clock }, eventId),
    onTracksFrom: (eventId, index) => seatsOnTracksFrom({ db, clock }, eventId, index),
  };
}

/** Each module's slice of the dependencies. */
export function moduleParts(p: SharedParts): ModuleParts {
  const { config, db, clock, ids, logger, checkEmail, kickJobs } = p;
  const { gatewayFor, subscriptionsFor } = p.gateways;
  const registerDeps: RegisterDeps = {
    db,
    clock,
    ids,
    gatewayFor,
    checkEmail,
    hasGoodStanding: (accountId, mode, email) => hasGoodStanding({ db, clock }, accountId, mode, email),
    kickJobs,
    freeBookings: new FreeBookings(db, clock),
    eventReads: new EventReads(db),
    soldOutMemoryMs: config.soldOutMemoryMs,
    sendsWhatsApp: config.whatsapp.sender !== undefined,
    secretsKey: config.secretsKey,
  };
  const eventDeps: EventDeps = {
    db,
    reads: p.reads,
    clock,
    ids,
    bookings: {
      paymentsInFlight: (eventId) => registrations.paymentsInFlight(db, eventId),
      settlePayments: (eventId) => settleEventPayments(registerDeps, eventId),
      counts: (eventId, from = db) => registrations.eventCounts(from, eventId),
      tracksInUseFrom: async (eventId, index) =>
        (await registrations.anyBookingOnTracksFrom(db, eventId, index)) ||
        (await waitlist.anyEntryOnTracksFrom(db, eventId, index)),
    },
    seats: seatAnswers(db, clock),
    canPublish: async (userId) => (await getUser(db, userId)).can_publish,
    livePayments: p.gateways.liveGateway !== undefined,
    waitlist: {
      seatsFreed: async (trx, eventId) => {
        await waitlist.offerSeats(trx, { clock, ids }, eventId);
      },
      waitingCount: (eventId, trackIndex) => waitlist.waitingCount(db, eventId, trackIndex),
    },
  };
  const razorpayx =
    config.payouts.razorpayxAccountNumber && config.razorpay.keyId && config.razorpay.keySecret
      ? new RazorpayXPayouts({
          apiUrl: config.razorpay.apiUrl,
          keyId: config.razorpay.keyId,
          keySecret: config.razorpay.keySecret,
          accountNumber: config.payouts.razorpayxAccountNumber,
          timeoutMs: config.razorpay.timeoutMs,
        })
      : undefined;
  return {
    registerDeps,
    eventDeps,
    planGuard: planGuard(eventDeps),
    waitlistDeps: { db, clock, ids, secretsKey: config.secretsKey, checkEmail, kickJobs },
    membershipDeps: { db, clock, ids, config, gatewayFor, subscriptionsFor, checkEmail, kickJobs },
    payoutDeps: { db, clock, ids, logger, clearingDays: config.payouts.clearingDays, razorpayx, kickJobs },
  };
}

type WorkParts = SharedParts &
  Pick<ModuleParts, 'registerDeps' | 'membershipDeps' | 'payoutDeps'> & { mailer: Mailer };

/** Every module's background work (job handlers and upkeep), listed module by module. */
export function moduleWork(parts: WorkParts): ModuleWork[] {
  const { db } = parts;
  // What the mails and messages of a booking read of it, from the bookings module.
  const bookings = {
    ticketHolders: (attendeeIds: readonly string[]) => registrations.ticketHolders(db, attendeeIds),
    findBooking: (id: string) => registrations.findRegistration(db, id),
  };
  const p = { ...parts, bookings };
  return [
    accountsWork(p),
    ticketsWork(p),
    membershipsWork(p),
    whatsappWork(p),
    broadcastWork(p),
    webhooksWork(p),
    waitlistWork(p),
    registrationsWork(p),
    reconciliationWork(p),
    payoutsWork(p),
    mailWork(p),
    idempotencyWork(p),
    waitingRoomWork(p),
  ];
}
