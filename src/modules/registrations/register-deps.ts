// What registering and confirming need from the rest of the service, apart from the rules
// that use it: confirm-payment.service.ts and registrations.jobs.ts take it without
// importing register.service.ts (which re-exports it for callers outside the module).
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { PaymentGateway } from '../payments/gateway.js';
import type { EventReads } from '../events/event-reads.js';
import type { FreeBookings } from './free-bookings.js';

export interface RegisterDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  gatewayFor(mode: Mode, accountId: string): PaymentGateway;
  checkEmail(email: string): Promise<{ ok: true; email: string } | { ok: false; message: string }>;
  hasGoodStanding(accountId: string, mode: Mode, email: string): Promise<boolean>;
  /** Called after a commit that enqueued jobs, so a local worker picks them up at once. */
  kickJobs(): void;
  /** Writes one-statement free bookings, those asked for while one statement is in flight together. */
  freeBookings: FreeBookings;
  /** Reads the events bookings are for, those asked for while one read is in flight together. */
  eventReads: EventReads;
  /** SOLD_OUT_MEMORY_MS: how long an event found full is refused without a read. */
  soldOutMemoryMs: number;
  /** WhatsApp is configured: confirmations of live bookings that opted in queue a WhatsApp ticket. */
  sendsWhatsApp: boolean;
  /** Checks waitlist offer links (and the attendee page's tokens). */
  secretsKey: Buffer;
}
