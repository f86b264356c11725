// The attendee's page as HTML: no script, no inline style (its CSP allows neither), the
// hosted page's style sheet, plain forms that post back to the same page.
import { escapeHtml as h } from '../../lib/html.js';
import { formatInstant, formatSpan } from '../../lib/event-time.js';
import { googleCalendarUrl } from '../tickets/calendar.js';
import { ticketQrPng } from '../tickets/ticket-mail.js';
import type { DocumentRef } from '../gst/documents.service.js';
import { formToken, type Ticket } from './attendee.service.js';

export const ATTENDEE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const rupees = (paise: number) =>
  new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: paise % 100 === 0 ? 0 : 2,
  }).format(paise / 100);

export function layout(css: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex">
<title>${h(title)}</title>
<link rel="stylesheet" href="${h(css)}">
</head>
<body class="standalone">
<main class="page" id="main">
${body}
</main>
</body>
</html>
`;
}

/** "Add to Google Calendar": the booked session (its track's start and end, or the event's), as in the ticket mail. */
export function calendarLink(t: Ticket): string | null {
  const { event, reg, session } = t;
  const seats = t.seats.length > 0 ? ` Seat: ${t.seats.join('; ')}.` : '';
  const description = `Ticket ${t.ticketId} (${reg.ticket_type}${session.title ? ` · ${session.title}` : ''}).${seats}`;
  return (
    googleCalendarUrl(
      { title: event.title, span: session.span, location: event.location, description },
      t.timeZone,
    ) ?? null
  );
}

function refundSentence(t: Ticket): string {
  if (t.paidPaise === 0) return 'This ticket was free: nothing to refund.';
  if (t.refundPaise === t.paidPaise) return `You will be refunded ${rupees(t.refundPaise)}, all you paid.`;
  if (t.refundPaise === 0) return `No refund: the organiser keeps the ${rupees(t.paidPaise)} you paid.`;
  return `You will be refunded ${rupees(t.refundPaise)} of the ${rupees(t.paidPaise)} you paid (the organiser keeps a ${rupees(t.paidPaise - t.refundPaise)} fee).`;
}

function forms(t: Ticket, token: string, secretsKey: Buffer): string {
  const action = (what: string) => `/t/${encodeURIComponent(token)}/${what}`;
  const parts: string[] = [];
  if (t.canTransfer) {
    parts.push(`<section aria-labelledby="transfer-title"><h2 id="transfer-title">Transfer to someone else</h2>
<p>They get a new ticket by mail; this ticket and this page stop working.</p>
<form method="post" action="${h(action('transfer'))}">
<input type="hidden" name="csrf" value="${h(formToken(secretsKey, token, 'transfer'))}">
<div class="field"><label for="to-name">Their name</label><input id="to-name" name="name" autocomplete="off" required maxlength="200"></div>
<div class="field"><label for="to-email">Their email</label><input id="to-email" name="email" type="email" autocomplete="off" required maxlength="254"></div>
<button type="submit" id="transfer-submit">Transfer ticket</button>
</form></section>`);
  }
  if (t.canCancel) {
    parts.push(`<section aria-labelledby="cancel-title"><h2 id="cancel-title">Cancel</h2>
<p>${h(refundSentence(t))} Your seat goes to the next person waiting.</p>
<form method="post" action="${h(action('cancel'))}">
<input type="hidden" name="csrf" value="${h(formToken(secretsKey, token, 'cancel'))}">
<div class="field check"><input type="checkbox" id="confirm-cancel" name="confirm" value="yes" required> <label for="confirm-cancel">Yes, cancel my booking</label></div>
<button type="submit" class="secondary" id="cancel-submit">Cancel booking</button>
</form></section>`);
  }
  if (
    t.reg.status === 'confirmed' &&
    (t.policy.transfer || t.policy.cancel) &&
    !t.canTransfer &&
    !t.canCancel &&
    t.cutoff
  ) {
    parts.push(
      `<p class="notice">Changes from this page closed at ${h(formatInstant(t.cutoff, t.timeZone))}, ${t.policy.cutoffHours} hours before the ${t.session.title === null ? 'event' : 'session'}. Contact the organiser.</p>`,
    );
  } else if (parts.length > 0 && t.cutoff) {
    parts.push(
      `<p class="hint">You can change this booking here until ${h(formatInstant(t.cutoff, t.timeZone))}.</p>`,
    );
  }
  return parts.join('\n');
}

const DOCUMENT_KINDS: Record<DocumentRef['kind'], string> = {
  tax_invoice: 'Tax invoice',
  bill_of_supply: 'Bill of supply',
  credit_note: 'Credit note',
};

/** The booking's tax documents, each a link to its PDF under this page's token. */
function documentsSection(token: string, docs: readonly DocumentRef[]): string {
  if (docs.length === 0) return '';
  const items = docs.map(
    (d) =>
      `<li><a href="/t/${h(token)}/documents/${h(encodeURIComponent(d.number))}" type="application/pdf">${h(DOCUMENT_KINDS[d.kind])} ${h(d.number)}</a> (${h(d.date)}, ${h(rupees(d.totalPaise))}, PDF)</li>`,
  );
  return `<section aria-labelledby="docs-title"><h2 id="docs-title">Tax documents</h2>
<ul class="links">${items.join('\n')}</ul></section>`;
}

export function renderTicketPage(input: {
  css: string;
  ticket: Ticket;
  token: string;
  secretsKey: Buffer;
  walletLinks: string;
  documents: readonly DocumentRef[];
}): string {
  const { ticket: t } = input;
  const { event, reg } = t;
  const track = t.session.title;
  const rows: [string, string][] = [
    ['Event', event.title],
    ['When', formatSpan(t.session.span, t.timeZone) ?? 'to be announced'],
    ['Venue', event.location ?? 'to be announced'],
    ['Ticket', track ? `${reg.ticket_type} · ${track}` : reg.ticket_type],
    ...(t.seats.length > 0
      ? ([[t.seats.length > 1 ? 'Seats' : 'Seat', t.seats.join('; ')]] as [string, string][])
      : []),
    ['Name', reg.name],
    ['Paid', t.paidPaise > 0 ? rupees(t.paidPaise) : reg.status === 'confirmed' ? 'free' : '—'],
  ];
  const confirmed = reg.status === 'confirmed';
  const qr = confirmed
    ? `<p class="qr"><img src="data:image/png;base64,${ticketQrPng(t.ticketId).toString('base64')}" alt="QR code of ticket ${h(t.ticketId)}" width="240" height="240"></p>
<p>Ticket id: <code>${h(t.ticketId)}</code>. Show the QR code at the entrance.</p>`
    : `<p class="notice" role="status">This booking is ${h(reg.status)}.${reg.status === 'cancelled' && Number(reg.amount_paise) > 0 ? ` Refunded: ${h(rupees(Number(reg.amount_paise) - reg.kept_paise))}.` : ''}</p>`;
  const cal = calendarLink(t);
  const links = confirmed
    ? [
        cal
          ? `<li><a href="${h(cal)}" rel="noopener noreferrer" target="_blank">Add to Google Calendar</a></li>`
          : '',
        input.walletLinks,
      ]
        .filter((x) => x)
        .join('\n')
    : '';
  const body = `<h1>Your ticket</h1>
<dl class="facts">${rows.map(([k, v]) => `<div><dt>${h(k)}</dt><dd>${h(v)}</dd></div>`).join('')}</dl>
${qr}
${links ? `<ul class="links">${links}</ul>` : ''}
${documentsSection(input.token, input.documents)}
${confirmed ? forms(t, input.token, input.secretsKey) : ''}`;
  return layout(input.css, `Your ticket: ${event.title}`, body);
}

export function renderDonePage(css: string, title: string, lines: string[]): string {
  return layout(css, title, `<h1>${h(title)}</h1>\n${lines.map((l) => `<p>${h(l)}</p>`).join('\n')}`);
}
