// The booking mail job: queued by the change that makes it (registrations/confirmation.ts),
// in its transaction, so a mail exists exactly when its change committed. Rendered from the
// payload (what the change did) and the rows as they are when it runs. Test mode sends
// nothing and keeps the mail for the sandbox's mail list.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { mailSendersOf, senderFor } from '../accounts/mail-settings.js';
import { findEventsById } from '../events/events.service.js';
import { renderDocumentPdf } from '../gst/document.pdf.js';
import { documentTitle } from '../gst/document.view.js';
import { documentOf } from '../gst/documents.service.js';
import type { Mailer } from '../mail/mailer.js';
import { recordSandboxMail } from '../mail/sandbox-mail.js';
import { renderBookingMail, type BookingMailKind } from './booking-mails.js';

export interface BookingMailPayload {
  registrationId: string;
  kind: BookingMailKind;
  /** Whom it goes to: the holder as the change found them (a transfer's giver). */
  to: { name: string; email: string };
  refundPaise?: number;
  /** Given back in all, this refund included. */
  refundedPaise?: number;
  amountPaise?: number;
  reason?: string;
  /** The credit note issued with the refund. */
  creditNote?: string;
  newHolder?: string;
}

export const bookingMailJob = defineJob<BookingMailPayload>('booking.mail');

export interface BookingMailDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** The bookings module's answer: the booking's event, account, mode and currency. */
  findBooking(
    id: string,
  ): Promise<
    { id: string; event_id: string; account_id: string; mode: 'test' | 'live'; currency: string } | undefined
  >;
}

export async function sendBookingMail(
  deps: BookingMailDeps,
  payload: BookingMailPayload,
  job: { id: string },
): Promise<void> {
  const reg = await deps.findBooking(payload.registrationId);
  if (!reg) return; // the event was deleted meanwhile
  const [event] = await findEventsById(deps.db, [reg.event_id]);
  if (!event || !event.ticket_emails_enabled) return;
  const sender = senderFor((await mailSendersOf(deps.db, [reg.account_id])).get(reg.account_id), event.title);
  const doc = payload.creditNote ? await documentOf(deps.db, reg.id, payload.creditNote) : undefined;
  const mail = renderBookingMail({
    kind: payload.kind,
    to: payload.to,
    event: { title: event.title },
    bookingId: reg.id,
    currency: reg.currency,
    testMode: reg.mode === 'test',
    money:
      payload.refundPaise === undefined
        ? undefined
        : {
            refundPaise: payload.refundPaise,
            refundedPaise: payload.refundedPaise ?? payload.refundPaise,
            amountPaise: payload.amountPaise ?? payload.refundPaise,
          },
    reason: payload.reason,
    newHolder: payload.newHolder,
    creditNote: doc && { title: documentTitle(doc), number: doc.number, pdf: await renderDocumentPdf(doc) },
    sender,
  });
  if (reg.mode === 'test') {
    await recordSandboxMail(deps.db, {
      id: job.id,
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
