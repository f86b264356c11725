// The ticket email job: one per person on a booking, queued in the confirming
// transaction. Rendering (the QR PNG) happens here, off the request path. Test mode
// sends nothing and keeps the mail for GET /api/v1/sandbox/emails.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, RegistrationStatus } from '../../db/database.js';
import { defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../shared/clock.js';
import { findUser } from '../accounts/accounts.service.js';
import { findEvent } from '../events/events.service.js';
import type { Mailer } from '../mail/mailer.js';
import { recordSandboxMail } from '../sandbox/sandbox-mail.repo.js';
import { renderTicketMail } from './ticket-mail.js';

export const ticketEmailJob = defineJob<{ attendeeId: string }>('ticket.email');

/** One person on a booking and the booking's fields the ticket shows. */
export interface TicketHolder {
  attendee: { id: string; idx: number; name: string; email: string };
  booking: {
    id: string;
    event_id: string;
    account_id: string;
    mode: 'test' | 'live';
    status: RegistrationStatus;
    ticket_type: string;
    sub_event_id: number | null;
    ticket_code: string | null;
  };
}

export interface TicketJobDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** The bookings module's answer: who holds this ticket, on which booking. */
  ticketHolder(attendeeId: string): Promise<TicketHolder | undefined>;
}

export async function sendTicketJob(deps: TicketJobDeps, payload: { attendeeId: string }): Promise<void> {
  const holder = await deps.ticketHolder(payload.attendeeId);
  if (!holder) return; // the event was deleted meanwhile
  const { attendee, booking: reg } = holder;
  if (reg.status !== 'confirmed') return; // cancelled before the mail went out
  const event = await findEvent(deps.db, reg.event_id);
  if (!event) throw new Error(`no event ${reg.event_id} for booking ${reg.id}`);
  if (!event.ticket_emails_enabled) return;
  const organiser = await findUser(deps.db, event.account_id);
  // The primary's QR is the registration id, or its ticketCode after a transfer.
  const ticketId = attendee.idx === 0 ? (reg.ticket_code ?? reg.id) : attendee.id;
  const mail = await renderTicketMail({
    event: { title: event.title, startDate: event.start_date, endDate: event.end_date, location: event.location },
    holder: { name: attendee.name, email: attendee.email },
    ticketId,
    ticketType: reg.ticket_type,
    trackTitle: reg.sub_event_id === null ? null : (event.tracks[reg.sub_event_id]?.title ?? null),
    organiserName: organiser?.name,
    baseUrl: deps.config.baseUrl,
    isTeamMember: attendee.idx > 0,
  });
  if (reg.mode === 'test') {
    // A retried job keeps one copy: the id is the same each time.
    await recordSandboxMail(deps.db, {
      id: `${payload.attendeeId}:${ticketId}`,
      accountId: reg.account_id,
      recipients: [mail.to],
      subject: mail.subject,
      text: mail.text,
      attachments: (mail.attachments ?? []).map((a) => a.filename),
      createdAt: deps.clock.now(),
    });
    return;
  }
  await deps.mailer.send(mail);
}
