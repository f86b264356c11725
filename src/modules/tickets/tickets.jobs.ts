// The ticket email job: one per person on a booking, queued in the confirming
// transaction. Rendering (the QR PNG) happens here, off the request path. Test mode
// sends nothing and keeps the mail for GET /api/v1/sandbox/emails.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, RegistrationStatus } from '../../db/database.js';
import { defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { mailSendersOf, senderFor, type MailSender } from '../accounts/mail-settings.js';
import { findEventsById, isSeated, sessionOf } from '../events/events.service.js';
import { renderDocumentPdf } from '../gst/document.pdf.js';
import { documentTitle } from '../gst/document.view.js';
import { saleDocumentsOf } from '../gst/documents.service.js';
import type { GstDocument } from '../gst/gst.service.js';
import type { Mailer } from '../mail/mailer.js';
import { keptCopy, recordSandboxMail, type SandboxMail } from '../mail/sandbox-mail.js';
import { attendeePageUrl, attendeeToken } from '../../lib/attendee-token.js';
import { type BookedSeat, seatOfPerson, seatsOf, seatWords } from '../seat-holds/booked-seats.service.js';
import { renderTicketMail } from './ticket-mail.js';
import { walletLinks } from '../../lib/wallet-links.js';

/** `passedOnBy`: a transfer's giver, whom the new holder's mail names. */
export const ticketEmailJob = defineJob<{ attendeeId: string; passedOnBy?: string }>('ticket.email');

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
    quantity: number;
    amount_paise: number;
    currency: string;
    payment_id: string | null;
    confirmed_at: Date | null;
  };
}

export interface TicketJobDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** The bookings module's answer: who holds each of these tickets, on which booking. */
  ticketHolders(attendeeIds: readonly string[]): Promise<Map<string, TicketHolder>>;
}

/**
 * The ticket mails of a claimed batch together: their holders, events and organisers are
 * read in one query each, and test-mode mails kept in one statement. Each job gets its
 * own answer (undefined: done; an error: retried).
 */
export async function sendTicketJobs(
  deps: TicketJobDeps,
  jobs: readonly { payload: { attendeeId: string; passedOnBy?: string } }[],
): Promise<unknown[]> {
  const { holders, events, senders, invoices, seats } = await batchContext(deps, jobs);
  const outcomes: unknown[] = jobs.map(() => undefined);
  const kept: { index: number; mail: SandboxMail }[] = [];
  const sends: Promise<void>[] = [];
  for (const [index, { payload }] of jobs.entries()) {
    const holder = holders.get(payload.attendeeId);
    if (!holder) continue; // the event was deleted meanwhile
    const { attendee, booking: reg } = holder;
    if (reg.status !== 'confirmed') continue; // cancelled before the mail went out
    const event = events.get(reg.event_id);
    if (!event) {
      outcomes[index] = new Error(`no event ${reg.event_id} for booking ${reg.id}`);
      continue;
    }
    if (!event.ticket_emails_enabled) continue;
    // Rendering takes the CPU: let requests waiting meanwhile go first.
    await new Promise((r) => setImmediate(r));
    // The primary's QR is the registration id, or its ticketCode after a transfer.
    const ticketId = attendee.idx === 0 ? (reg.ticket_code ?? reg.id) : attendee.id;
    try {
      const sender = senderFor(senders.get(event.account_id), event.title);
      const mail = await ticketMailFor(
        deps,
        holder,
        event,
        ticketId,
        sender,
        invoices.get(reg.id),
        attendee.idx === 0 ? payload.passedOnBy : undefined,
        seatOfPerson(seats, reg.id, attendee.id),
      );
      if (reg.mode === 'test') {
        // A retried job keeps one copy: the id is the same each time.
        kept.push({
          index,
          mail: sandboxCopy(`${payload.attendeeId}:${ticketId}`, reg.account_id, mail, deps.clock.now()),
        });
      } else {
        sends.push(
          deps.mailer.send(mail).then(
            () => undefined,
            (err: unknown) => void (outcomes[index] = err ?? new Error('send failed')),
          ),
        );
      }
    } catch (err) {
      outcomes[index] = err;
    }
  }
  await Promise.all(sends);
  await keepSandboxCopies(deps, kept, outcomes);
  return outcomes;
}

/** What a batch of ticket mails needs: the holders, their events, the organisers' senders, the invoices. */
async function batchContext(
  deps: TicketJobDeps,
  jobs: readonly { payload: { attendeeId: string; passedOnBy?: string } }[],
) {
  const holders = await deps.ticketHolders(jobs.map((j) => j.payload.attendeeId));
  const events = new Map(
    (await findEventsById(deps.db, [...new Set([...holders.values()].map((h) => h.booking.event_id))])).map(
      (e) => [e.id, e],
    ),
  );
  const senders = await mailSendersOf(
    deps.db,
    [...events.values()].map((e) => e.account_id),
  );
  // The primary's mail carries the booking's tax invoice (or bill of supply), when it has one.
  const invoices = await saleDocumentsOf(
    deps.db,
    [...holders.values()].filter((h) => h.attendee.idx === 0).map((h) => h.booking.id),
  );
  // A seated event's tickets name each person's seat.
  const seats = await seatsOf(
    deps.db,
    [...holders.values()]
      .filter((h) => {
        const e = events.get(h.booking.event_id);
        return e !== undefined && isSeated(e);
      })
      .map((h) => h.booking.id),
  );
  return { holders, events, senders, invoices, seats };
}

/** Keeps the test-mode copies in one insert; its failure is the outcome of each of their jobs. */
async function keepSandboxCopies(
  deps: TicketJobDeps,
  kept: readonly { index: number; mail: SandboxMail }[],
  outcomes: unknown[],
): Promise<void> {
  if (kept.length === 0) return;
  try {
    await recordSandboxMail(
      deps.db,
      kept.map((k) => k.mail),
    );
  } catch (err) {
    for (const k of kept) outcomes[k.index] = err;
  }
}

type EventRow = Awaited<ReturnType<typeof findEventsById>>[number];

/** One holder's ticket mail: the event and booking in words, the QR, the wallet and page links, and the primary's invoice. */
async function ticketMailFor(
  deps: TicketJobDeps,
  holder: TicketHolder,
  event: EventRow,
  ticketId: string,
  sender: MailSender,
  saleDocument: GstDocument | undefined,
  passedOnBy: string | undefined,
  seat: BookedSeat | null,
) {
  const { attendee, booking: reg } = holder;
  const track = reg.sub_event_id === null ? undefined : event.tracks[reg.sub_event_id];
  // Not after a transfer: the document names the buyer who paid, not the new holder.
  const document = attendee.idx === 0 && reg.ticket_code === null ? saleDocument : undefined;
  const invoice = document && {
    title: documentTitle(document),
    number: document.number,
    pdf: await renderDocumentPdf(document),
  };
  return renderTicketMail({
    event: {
      title: event.title,
      startDate: event.start_date,
      endDate: event.end_date,
      location: event.location,
    },
    timeZone: deps.config.eventTimeZone,
    holder: { name: attendee.name, email: attendee.email },
    ticketId,
    ticketType: reg.ticket_type,
    trackTitle: track?.title ?? null,
    seat: seat && seatWords(seat),
    session: sessionOf(event, reg.sub_event_id, deps.config.eventTimeZone).span,
    sender,
    // A ticket passed on (its code reissued): the new holder sees who passed it, not what they paid.
    passedOnBy:
      reg.ticket_code !== null && attendee.idx === 0 ? (passedOnBy ?? 'The previous holder') : undefined,
    baseUrl: deps.config.baseUrl,
    isTeamMember: attendee.idx > 0,
    booking: {
      id: reg.id,
      quantity: reg.quantity,
      amountPaise: Number(reg.amount_paise),
      currency: reg.currency,
      paymentId: reg.payment_id,
      confirmedAt: reg.confirmed_at,
    },
    // The booking's own page (docs/decisions/18-waitlist-and-attendee-page.md), for its primary only: it may transfer or cancel the booking.
    wallet: attendee.idx === 0 ? walletLinks(deps.config, reg) : undefined,
    attendeeUrl:
      attendee.idx === 0
        ? attendeePageUrl(
            deps.config.baseUrl,
            attendeeToken(deps.config.secretsKey, reg.id, reg.ticket_code ?? reg.id),
          )
        : undefined,
    now: deps.clock.now(),
    invoice,
  });
}

/** The copy test mode keeps of a mail it does not send: as it would be sent, attachments included. */
function sandboxCopy(
  id: string,
  accountId: string,
  mail: Awaited<ReturnType<typeof renderTicketMail>>,
  now: Date,
): SandboxMail {
  return keptCopy(id, accountId, mail, now);
}
