// The tickets module's background work: the ticket mails (in batches) and the booking mails.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { onJob, onJobBatch, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Mailer } from '../mail/mailer.js';
import { bookingMailJob, sendBookingMail } from './booking-mails.jobs.js';
import { paymentDueMailJob, sendPaymentDueMail, type PaymentDueMailDeps } from './payment-due-mail.jobs.js';
import { sendTicketJobs, ticketEmailJob, type TicketJobDeps } from './tickets.jobs.js';

export function ticketsWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  bookings: { ticketHolders: TicketJobDeps['ticketHolders']; findBooking: PaymentDueMailDeps['findBooking'] };
}): ModuleWork {
  const { db, clock, config, mailer } = deps;
  return {
    jobs: [
      onJobBatch(ticketEmailJob, (batch) =>
        sendTicketJobs({ db, clock, config, mailer, ticketHolders: deps.bookings.ticketHolders }, batch),
      ),
      onJob(bookingMailJob, (payload, job) =>
        sendBookingMail({ db, clock, config, mailer, findBooking: deps.bookings.findBooking }, payload, job),
      ),
      onJob(paymentDueMailJob, (payload, job) =>
        sendPaymentDueMail(
          { db, clock, config, mailer, findBooking: deps.bookings.findBooking },
          payload,
          job,
        ),
      ),
    ],
  };
}
