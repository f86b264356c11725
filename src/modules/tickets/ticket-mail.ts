// The ticket email: event, date, venue, ticket type, and the QR code of the bare
// ticket id (no URL, no JSON) inline and as an attachment.
import { qrPng } from './qr-png.js';
import { escapeHtml } from '../../shared/html.js';
import type { OutgoingMail } from '../mail/mailer.js';

export interface TicketMailInput {
  event: { title: string; startDate: string | null; endDate: string | null; location: string | null };
  holder: { name: string; email: string };
  ticketId: string;
  ticketType: string;
  trackTitle?: string | null | undefined;
  organiserName?: string | undefined;
  baseUrl: string;
  isTeamMember?: boolean | undefined;
  /** The attendee's own page (`/t/{token}`), for the booking's primary. */
  attendeePageUrl?: string | undefined;
}

/** The ticket's QR code: the bare id, medium error correction, a 2-module quiet zone, about 320 pixels wide. */
export function ticketQrPng(ticketId: string): Buffer {
  return qrPng(ticketId, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
}

export function renderTicketMail(input: TicketMailInput): OutgoingMail {
  const png = ticketQrPng(input.ticketId);
  const cid = `qr-${input.ticketId}@ticket`;
  const when = input.event.endDate && input.event.endDate !== input.event.startDate ? `${input.event.startDate} – ${input.event.endDate}` : (input.event.startDate ?? 'to be announced');
  const lines: [string, string][] = [
    ['Event', input.event.title],
    ['Date', when],
    ['Venue', input.event.location ?? 'to be announced'],
    ['Ticket', input.trackTitle ? `${input.ticketType} · ${input.trackTitle}` : input.ticketType],
    ['Name', input.holder.name],
    ['Ticket id', input.ticketId],
  ];
  const intro = input.isTeamMember ? 'You are on a team booking. This is your own ticket.' : 'Your booking is confirmed.';
  const text = [
    `Hello ${input.holder.name},`,
    '',
    intro,
    '',
    ...lines.map(([k, v]) => `${k}: ${v}`),
    '',
    'Show the QR code (attached) at the entrance.',
    ...(input.attendeePageUrl ? ['', `Your ticket page (transfer or cancel where the organiser allows): ${input.attendeePageUrl}`] : []),
    input.organiserName ? `\n${input.organiserName}` : '',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>Hello ${escapeHtml(input.holder.name)},</p>
<p>${escapeHtml(intro)}</p>
<table>${lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
<p><img src="cid:${escapeHtml(cid)}" alt="QR code of ticket ${escapeHtml(input.ticketId)}" width="240" height="240"></p>
<p>Show this QR code at the entrance.</p>
${input.attendeePageUrl ? `<p><a href="${escapeHtml(input.attendeePageUrl)}">Your ticket page</a> (transfer or cancel where the organiser allows)</p>` : ''}
${input.organiserName ? `<p>${escapeHtml(input.organiserName)}</p>` : ''}
</body></html>`;
  return {
    to: input.holder.email,
    subject: `Your ticket: ${input.event.title}`,
    text,
    html,
    attachments: [{ filename: `ticket-${input.ticketId}.png`, content: png, contentType: 'image/png', cid }],
  };
}
