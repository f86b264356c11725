// The mails that close a booking's loops (docs/decisions/28-a-persons-day.md): to its holder when it is
// cancelled, refunded in full or in part (how much, and when the money arrives), and to the
// giver when a ticket is passed on. Pure: the job (booking-mails.jobs.ts) gathers the facts.
import { escapeHtml as h } from '../../lib/html.js';
import { formatMoney } from '../../lib/money.js';
import type { MailAttachment, OutgoingMail } from '../mail/mailer.js';
import { mailHtml } from '../mail/mail-html.js';

export type BookingMailKind = 'cancelled' | 'refunded' | 'partly_refunded' | 'transferred';

/** How long a refund takes to reach the buyer, said once for every refund mail. */
export const REFUND_ARRIVES =
  'It reaches the account, card or UPI app you paid with within 5 to 7 working days (often sooner for UPI).';

export interface BookingMailInput {
  kind: BookingMailKind;
  to: { name: string; email: string };
  event: { title: string };
  bookingId: string;
  currency: string;
  testMode: boolean;
  /** What this change gave back, what has been given back in all, and what was paid. */
  money?: { refundPaise: number; refundedPaise: number; amountPaise: number } | undefined;
  reason?: string | undefined;
  /** A transfer: the new holder's name. */
  newHolder?: string | undefined;
  /** The credit note issued with this refund, attached. */
  creditNote?: { title: string; number: string; pdf: Buffer } | undefined;
  /** The organisation's name (From and sign-off) and where replies go. */
  sender: { name: string | undefined; replyTo: string | undefined };
}

const SUBJECT: Record<BookingMailKind, string> = {
  cancelled: 'Your booking is cancelled',
  refunded: 'Your booking is refunded',
  partly_refunded: 'Part of your booking is refunded',
  transferred: 'Your ticket was passed on',
};

/** The paragraphs of the mail, as sentences. */
function paragraphs(m: BookingMailInput): string[] {
  const money = (paise: number) => formatMoney(paise, m.currency);
  const what = `your booking for ${m.event.title}`;
  const out: string[] = [];
  const refund = m.money;
  switch (m.kind) {
    case 'transferred':
      out.push(
        `Your ticket for ${m.event.title} now belongs to ${m.newHolder ?? 'someone else'}, who has been sent it by mail.`,
      );
      out.push(
        'Your old QR code and your ticket page no longer work. If you did not ask for this, reply to this mail to reach the organiser.',
      );
      return out;
    case 'partly_refunded':
      out.push(`${money(refund!.refundPaise)} of ${what} is refunded${m.reason ? `: ${m.reason}` : '.'}`);
      out.push(
        `Your booking stays confirmed and your ticket still admits you. Refunded so far: ${money(refund!.refundedPaise)} of the ${money(refund!.amountPaise)} you paid.`,
      );
      break;
    case 'refunded':
      out.push(
        `${capitalise(what)} is refunded and cancelled: ${money(refund?.refundPaise ?? 0)} comes back to you, and the ticket no longer admits.`,
      );
      break;
    case 'cancelled':
      out.push(`${capitalise(what)} is cancelled, and the ticket no longer admits.`);
      if (refund && refund.refundPaise > 0) {
        const kept = refund.amountPaise - refund.refundedPaise;
        out.push(
          `${money(refund.refundPaise)} comes back to you${kept > 0 ? `; the organiser keeps ${money(kept)} of the ${money(refund.amountPaise)} you paid under its cancellation policy` : ''}.`,
        );
      } else if (refund) {
        out.push('Nothing is refunded under the organiser’s cancellation policy.');
      }
      break;
  }
  if (refund && refund.refundPaise > 0)
    out.push(m.testMode ? 'This is a test-mode booking: no money moves.' : REFUND_ARRIVES);
  if (m.creditNote) out.push(`${m.creditNote.title} ${m.creditNote.number} for the refund is attached.`);
  return out;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function renderBookingMail(m: BookingMailInput): OutgoingMail {
  const subject = `${SUBJECT[m.kind]}: ${m.event.title}`;
  const lines = paragraphs(m);
  const reference = `Booking ${m.bookingId}`;
  const text = [
    `Hello ${m.to.name},`,
    '',
    ...lines.flatMap((l) => [l, '']),
    reference,
    ...(m.sender.name ? ['', m.sender.name] : []),
  ].join('\n');
  const html = mailHtml(
    subject,
    [
      `<p>Hello ${h(m.to.name)},</p>`,
      ...lines.map((l) => `<p>${h(l)}</p>`),
      `<p style="color:#555">${h(reference)}</p>`,
      m.sender.name ? `<p>${h(m.sender.name)}</p>` : '',
    ].join('\n'),
  );
  const attachments: MailAttachment[] = m.creditNote
    ? [{ filename: `${m.creditNote.number}.pdf`, content: m.creditNote.pdf, contentType: 'application/pdf' }]
    : [];
  return {
    to: m.to.email,
    subject,
    text,
    html,
    attachments,
    fromName: m.sender.name,
    replyTo: m.sender.replyTo,
  };
}
