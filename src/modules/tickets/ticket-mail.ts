// The ticket email: event, date in the event's time zone, venue, ticket type, what was
// paid and one tax document (the tax invoice or bill of supply attached, or else a receipt
// line), the QR code of the bare ticket id (no URL, no JSON) inline and as an attachment, a
// calendar file (.ics) and the link to the attendee's own page. A ticket passed on says who
// passed it and nothing of what they paid.
import { qrPng } from '../../lib/qr-png.js';
import { ticketCalendar, googleCalendarUrl } from './calendar.js';
import { escapeHtml } from '../../lib/html.js';
import { eventSpan, formatDate, formatSpan, type EventSpan } from '../../lib/event-time.js';
import { formatMoney } from '../../lib/money.js';
import type { MailAttachment, OutgoingMail } from '../mail/mailer.js';
import { mailHtml } from '../mail/mail-html.js';

export interface TicketMailInput {
  event: { title: string; startDate: string | null; endDate: string | null; location: string | null };
  /** The event's time zone (EVENT_TIME_ZONE). */
  timeZone: string;
  holder: { name: string; email: string };
  ticketId: string;
  ticketType: string;
  trackTitle?: string | null | undefined;
  /** A seated event's seat of this person: "Stalls · Row C, seat 12". */
  seat?: string | null | undefined;
  /** When the booked session happens (events/sessions.ts: the track's own times); absent: the event's dates. */
  session?: EventSpan | undefined;
  /** The organisation's name (the From display name and the sign-off) and where replies go. */
  sender?: { name: string | undefined; replyTo: string | undefined } | undefined;
  /** A ticket passed on: the giver's name. Its mail shows nothing of the giver's payment. */
  passedOnBy?: string | undefined;
  baseUrl: string;
  isTeamMember?: boolean | undefined;
  /** What the booking cost and how it was paid. */
  booking: {
    id: string;
    quantity: number;
    amountPaise: number;
    currency: string;
    paymentId: string | null;
    confirmedAt: Date | null;
  };
  /** The attendee's own page (`/t/{token}`). */
  attendeeUrl?: string | undefined;
  /** Wallet links of the primary's ticket, where the service is configured for them. */
  wallet?: { applePass?: string; googleWallet?: string } | undefined;
  /** When the mail is made (the calendar file's DTSTAMP). */
  now: Date;
  /** The booking's GST document (docs/decisions/17-the-organisers-office.md), attached as a PDF to the primary's mail. */
  invoice?: { title: string; number: string; pdf: Buffer } | undefined;
}

/** The ticket's QR code: the bare id, medium error correction, a 2-module quiet zone, about 320 pixels wide. */
export function ticketQrPng(ticketId: string): Buffer {
  return qrPng(ticketId, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
}

/** The booked session's span, or the event's. */
function ticketSpan(input: Pick<TicketMailInput, 'event' | 'session' | 'timeZone'>): EventSpan {
  return input.session ?? eventSpan(input.event.startDate, input.event.endDate, input.timeZone);
}

/** "₹998 for 2 people", "free"; a team member's mail says it is part of the booking. */
function amountLine(b: TicketMailInput['booking'], teamMember: boolean): string {
  if (b.amountPaise === 0) return 'free';
  const total = formatMoney(b.amountPaise, b.currency);
  const people = b.quantity > 1 ? ` for ${b.quantity} people` : '';
  return teamMember ? `paid with the team booking (${total}${people})` : `${total}${people}`;
}

/** The receipt line of a paid booking without a tax document, on the buyer's mail only. */
function receiptLine(b: TicketMailInput['booking'], timeZone: string): string | undefined {
  if (b.amountPaise === 0) return undefined;
  const on = b.confirmedAt ? ` on ${formatDate(b.confirmedAt, timeZone)}` : '';
  const payment = b.paymentId ? `, payment ${b.paymentId}` : '';
  return `${formatMoney(b.amountPaise, b.currency)} received${on} for booking ${b.id}${payment}. This is a receipt, not a tax invoice.`;
}

/** The mail's table: what, when, where, which ticket, for whom, and what was paid. */
function detailLines(input: TicketMailInput, when: string, receipt: string | undefined): [string, string][] {
  const b = input.booking;
  // One tax document: the attached invoice (or bill of supply) names itself, else the receipt line.
  const taxDocument: [string, string][] = input.invoice
    ? [[input.invoice.title, `${input.invoice.number} (attached)`]]
    : receipt
      ? [['Receipt', receipt]]
      : [];
  return [
    ['Event', input.event.title],
    ['Date', when],
    ['Venue', input.event.location ?? 'to be announced'],
    ['Ticket', input.trackTitle ? `${input.ticketType} · ${input.trackTitle}` : input.ticketType],
    ...(input.seat ? ([['Seat', input.seat]] as [string, string][]) : []),
    ['Name', input.holder.name],
    ['Ticket id', input.ticketId],
    // A ticket passed on shows nothing of what the giver paid.
    ...(input.passedOnBy === undefined
      ? ([
          [b.amountPaise === 0 ? 'Amount' : 'Amount paid', amountLine(b, input.isTeamMember === true)],
          ...taxDocument,
        ] as [string, string][])
      : []),
  ];
}

/** The event.ics file; the ticket goes out even should it fail (the QR is what admits). */
function calendarFile(
  entry: Omit<Parameters<typeof ticketCalendar>[0], 'uid' | 'now'>,
  input: TicketMailInput,
): string | undefined {
  try {
    return ticketCalendar({ ...entry, uid: input.ticketId, now: input.now });
  } catch {
    return undefined;
  }
}

export function renderTicketMail(input: TicketMailInput): OutgoingMail {
  const png = ticketQrPng(input.ticketId);
  const cid = `qr-${input.ticketId}@ticket`;
  const span = ticketSpan(input);
  const when = formatSpan(span, input.timeZone) ?? 'to be announced';
  const teamMember = input.isTeamMember === true;
  const b = input.booking;
  const receipt =
    teamMember || input.invoice || input.passedOnBy !== undefined
      ? undefined
      : receiptLine(b, input.timeZone);
  const lines = detailLines(input, when, receipt);
  const intro = teamMember
    ? 'You are on a team booking. This is your own ticket.'
    : input.passedOnBy !== undefined
      ? `${input.passedOnBy} passed this ticket on to you. It is yours now.`
      : 'Your booking is confirmed.';
  const signOff = input.sender?.name;
  const entry = {
    title: input.event.title,
    span,
    location: input.event.location,
    description: [
      `Ticket ${input.ticketId} (${input.ticketType}${input.trackTitle ? ` · ${input.trackTitle}` : ''}) for ${input.holder.name}.`,
      input.seat ? `Seat: ${input.seat}` : '',
      input.attendeeUrl ? `Your ticket: ${input.attendeeUrl}` : '',
    ]
      .filter((x) => x)
      .join('\n'),
  };
  const ics = calendarFile(entry, input);
  const google = googleCalendarUrl(entry, input.timeZone);
  const parts: TicketMailParts = { intro, lines, ics, google, signOff };
  const text = ticketMailText(input, parts);
  const subject = `Your ticket: ${input.event.title}`;
  const html = ticketMailHtml(input, parts, subject, cid);
  const attachments = ticketMailAttachments(input, png, cid, ics);
  return {
    to: input.holder.email,
    subject,
    text,
    html,
    attachments,
    fromName: input.sender?.name,
    replyTo: input.sender?.replyTo,
  };
}

/** What the text and HTML bodies of the ticket mail share. */
interface TicketMailParts {
  intro: string;
  lines: ReturnType<typeof detailLines>;
  ics: ReturnType<typeof calendarFile>;
  google: ReturnType<typeof googleCalendarUrl>;
  signOff: string | undefined;
}

/** The ticket mail's plain text body. */
function ticketMailText(
  input: TicketMailInput,
  { intro, lines, ics, google, signOff }: TicketMailParts,
): string {
  return [
    `Hello ${input.holder.name},`,
    '',
    intro,
    '',
    ...lines.map(([k, v]) => `${k}: ${v}`),
    '',
    'Show the QR code (attached) at the entrance.',
    ...(input.attendeeUrl
      ? ['', `Your ticket page (transfer or cancel where the organiser allows): ${input.attendeeUrl}`]
      : []),
    ...(input.wallet?.applePass ? [`Add to Apple Wallet: ${input.wallet.applePass}`] : []),
    ...(input.wallet?.googleWallet ? [`Save to Google Wallet: ${input.wallet.googleWallet}`] : []),
    ...(ics
      ? [
          '',
          'Add it to your calendar with the attached event.ics file.',
          ...(google ? [`Google Calendar: ${google}`] : []),
        ]
      : []),
    signOff ? `\n${signOff}` : '',
  ].join('\n');
}

/** The ticket mail's HTML body, its QR code shown from the attachment `cid`. */
function ticketMailHtml(
  input: TicketMailInput,
  { intro, lines, ics, google, signOff }: TicketMailParts,
  subject: string,
  cid: string,
): string {
  const link = (href: string, label: string) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  return mailHtml(
    subject,
    `<p>Hello ${escapeHtml(input.holder.name)},</p>
<p>${escapeHtml(intro)}</p>
<table>${lines.map(([k, v]) => `<tr><th align="left" valign="top">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<p><img src="cid:${escapeHtml(cid)}" alt="QR code of ticket ${escapeHtml(input.ticketId)}" width="240" height="240"></p>
<p>Show this QR code at the entrance.</p>
${input.attendeeUrl ? `<p>${link(input.attendeeUrl, 'Your ticket page')} (transfer or cancel where the organiser allows)</p>` : ''}
${input.wallet?.applePass ? `<p>${link(input.wallet.applePass, 'Add to Apple Wallet')}</p>` : ''}
${input.wallet?.googleWallet ? `<p>${link(input.wallet.googleWallet, 'Save to Google Wallet')}</p>` : ''}
${ics ? `<p>Add it to your calendar: open the attached event.ics${google ? `, or ${link(google, 'add it to Google Calendar')}` : ''}.</p>` : ''}
${signOff ? `<p>${escapeHtml(signOff)}</p>` : ''}`,
  );
}

/** The ticket mail's attachments: the QR code, the invoice if any, the calendar file if any. */
function ticketMailAttachments(
  input: TicketMailInput,
  png: Buffer,
  cid: string,
  ics: TicketMailParts['ics'],
): MailAttachment[] {
  const attachments: MailAttachment[] = [
    { filename: `ticket-${input.ticketId}.png`, content: png, contentType: 'image/png', cid },
  ];
  if (input.invoice)
    attachments.push({
      filename: `${input.invoice.number}.pdf`,
      content: input.invoice.pdf,
      contentType: 'application/pdf',
    });
  if (ics)
    attachments.push({
      filename: 'event.ics',
      content: Buffer.from(ics, 'utf8'),
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
    });
  return attachments;
}
