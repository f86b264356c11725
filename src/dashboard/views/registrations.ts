// An event's registration screens: the searched list, one registration with its
// actions, and the broadcast form with its preview.
import type { DocumentRef } from '../../modules/gst/documents.service.js';
import type { HistoryLine } from '../../modules/registrations/history.js';
import type { presentRegistration } from '../../modules/registrations/registrations.present.js';
import { html, type Html } from '../html.js';
import { badge, type Can, csrfField, rupees, when } from '../layout.js';
import { eventTabs, trackNumber, type EventView } from './events.js';
import { registrationsDownload } from './exports.js';

export type RegistrationView = ReturnType<typeof presentRegistration>;

const STATUSES = ['pending', 'confirmed', 'cancelled', 'refunded'] as const;

/** The list's filters, as the query string carries them ('' = any). */
export interface RegistrationFilters {
  q: string;
  status: string;
  /** A track's index as a decimal string, or `none` for bookings of no track. */
  track: string;
  /** A tier's name, or `General` for the base price. */
  tier: string;
  /** `in` or `out`. */
  checkin: string;
}

const trackLabel = (e: EventView, index: number) =>
  `Track ${trackNumber(index)}${e.tracks[index] ? `: ${e.tracks[index]!.title}` : ''}`;

export function registrationsPage(
  e: EventView,
  list: RegistrationView[],
  search: RegistrationFilters,
  pages: { next: string | null; first: boolean },
  can: Can = () => true,
): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  const query = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ ...search, ...extra }).toString();
  const filtered = search.q || search.status || search.track || search.tier || search.checkin;
  return html`${eventTabs(e, 'registrations', can('events.manage', e.id))}
<form method="get" action="${base}/registrations" class="card" role="search">
<div class="row"><div><label for="r-q">Search <span class="hint">name, email or registration id</span></label><input id="r-q" name="q" type="search" maxlength="200" value="${search.q}"></div>
<div><label for="r-status">Status</label><select id="r-status" name="status"><option value="">any</option>${STATUSES.map(
    (s) => html`<option${search.status === s ? html` selected` : ''}>${s}</option>`,
  )}</select></div>
</div>
<div class="row">
${
  e.tracks.length > 0
    ? html`<div><label for="r-track">Track</label><select id="r-track" name="track"><option value="">any</option><option value="none"${search.track === 'none' ? html` selected` : ''}>no track</option>${e.tracks.map(
        (t) =>
          html`<option value="${t.index}"${search.track === String(t.index) ? html` selected` : ''}>${trackLabel(e, t.index)}</option>`,
      )}</select></div>`
    : ''
}
<div><label for="r-tier">Ticket</label><select id="r-tier" name="tier"><option value="">any</option>${[
    'General',
    ...e.specialPrices.map((t) => t.name),
  ].map((n) => html`<option${search.tier === n ? html` selected` : ''}>${n}</option>`)}</select></div>
<div><label for="r-checkin">Check-in</label><select id="r-checkin" name="checkin"><option value="">any</option><option value="in"${search.checkin === 'in' ? html` selected` : ''}>checked in</option><option value="out"${search.checkin === 'out' ? html` selected` : ''}>not checked in</option></select></div>
<div class="fit"><button>Search</button></div></div></form>
${can('exports', e.id) ? registrationsDownload(e.id, search) : ''}
${
  list.length === 0
    ? html`<p>No registrations${filtered ? ' match' : ' yet'}.</p>`
    : html`<div class="table-wrap"><table class="cards-narrow"><caption class="muted">Newest first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Ticket</th><th scope="col" class="num">People</th><th scope="col" class="num">Amount</th><th scope="col">Booked</th></tr></thead>
<tbody>${list.map(
        (
          r,
        ) => html`<tr><td data-label="Name"><a href="${base}/registrations/${encodeURIComponent(r.id)}">${r.name}</a></td><td data-label="Email">${r.email}</td><td data-label="Status">${badge(r.status)}${r.checkedIn ? html` ${badge('checked_in')}` : ''}</td>
<td data-label="Ticket">${r.ticketType}${r.subEventId !== null ? ` · ${trackLabel(e, Number(r.subEventId))}` : ''}</td><td class="num" data-label="People">${r.quantity}</td><td class="num" data-label="Amount">${r.amount === 0 ? 'Free' : rupees(r.amount)}</td><td data-label="Booked">${when(r.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Pages">
${pages.first ? '' : html`<a href="${base}/registrations?${query()}">Newest</a>`}
${pages.next ? html`<a href="${base}/registrations?${query({ after: pages.next })}" rel="next">Older registrations</a>` : ''}
</nav>`;
}

const DOCUMENT_KINDS: Record<DocumentRef['kind'], string> = {
  tax_invoice: 'Tax invoice',
  bill_of_supply: 'Bill of supply',
  credit_note: 'Credit note',
};

/** A booking's GST documents as links to their PDFs (`href` gives each one's address). */
export function documentLinks(docs: readonly DocumentRef[], href: (number: string) => string): Html {
  return html`<ul class="doc-links">${docs.map(
    (d) =>
      html`<li><a href="${href(d.number)}" type="application/pdf">${DOCUMENT_KINDS[d.kind]} ${d.number}</a> <span class="muted">${d.date} · ${rupees(d.totalPaise / 100)} · PDF</span></li>`,
  )}</ul>`;
}

export function registrationDetail(
  csrf: string,
  e: EventView,
  r: RegistrationView,
  extra: { history: readonly HistoryLine[]; documents: readonly DocumentRef[] } = {
    history: [],
    documents: [],
  },
  can: Can = () => true,
): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}/registrations/${encodeURIComponent(r.id)}`;
  return html`${eventTabs(e, 'registrations', can('events.manage', e.id))}
<section class="card" aria-labelledby="reg-h"><h2 id="reg-h">${r.name}</h2>
<dl class="facts">
<dt>Status</dt><dd>${badge(r.status)}${r.pendingReason ? ` (awaiting ${r.pendingReason})` : ''}</dd>
<dt>Email</dt><dd>${r.email}</dd>
<dt>Phone</dt><dd>${r.phone ?? '—'}</dd>
<dt>Ticket</dt><dd>${r.ticketType}${r.subEventId !== null ? ` · ${trackLabel(e, Number(r.subEventId))}` : ''}</dd>
${r.seats.length > 0 ? html`<dt>${r.seats.length > 1 ? 'Seats' : 'Seat'}</dt><dd>${r.seats.map((s) => (s.section ? `${s.section} · ${s.label}` : s.label)).join('; ')}</dd>` : ''}
<dt>People</dt><dd>${r.quantity}</dd>
${r.awaitingPayment ? html`<dt>Awaiting</dt><dd>${METHOD_WORDS[r.awaitingPayment.method]}, reference <span class="mono">${r.awaitingPayment.reference}</span>, by ${when(r.awaitingPayment.payBy)}</dd>` : ''}
<dt>Amount</dt><dd>${r.amount === 0 ? 'Free' : rupees(r.amount)}${r.promoCode ? ` (code ${r.promoCode})` : ''}</dd>
${r.refunded > 0 ? html`<dt>Refunded</dt><dd>${rupees(r.refunded)}</dd>` : ''}
${r.amount > 0 && (r.refunded > 0 || r.status === 'cancelled' || r.status === 'refunded') ? html`<dt>Kept</dt><dd>${rupees(r.kept)}</dd>` : ''}
${r.platformFee + r.gatewayFee > 0 ? html`<dt>Fees</dt><dd>${rupees(r.platformFee)} platform, ${rupees(r.gatewayFee)} gateway</dd>` : ''}
<dt>Checked in</dt><dd>${r.checkedIn ? when(r.checkedInAt) : 'no'}</dd>
<dt>Booked</dt><dd>${when(r.createdAt)}</dd>
<dt>Registration id</dt><dd class="mono">${r.id}</dd>
${Object.entries(r.customFields).map(([k, v]) => html`<dt>${e.customFields.find((f) => f.name === k)?.label ?? k}</dt><dd>${String(v)}</dd>`)}
</dl>
${r.teamMembers.length > 0 ? html`<h3>Team</h3><ul>${r.teamMembers.map((m) => html`<li>${m.name} · ${m.email}${m.checkedIn ? ' · checked in' : ''}</li>`)}</ul>` : ''}
</section>
${
  extra.documents.length > 0
    ? html`<section class="card" aria-labelledby="docs-h"><h2 id="docs-h">Tax documents</h2>
${documentLinks(extra.documents, (n) => `${base}/documents/${encodeURIComponent(n)}`)}</section>`
    : ''
}
<section class="card" aria-labelledby="hist-h"><h2 id="hist-h">History</h2>
${
  extra.history.length > 0
    ? html`<ol class="history">${extra.history.map((h) => html`<li><time datetime="${h.at.toISOString()}">${when(h.at)}</time> · ${h.what} <span class="muted">(${h.by})</span></li>`)}</ol>`
    : html`<p class="muted">Nothing recorded yet.</p>`
}
</section>
${r.awaitingPayment && can('payments.record', e.id) ? markPaidForm(csrf, r, base) : ''}
${can('events.manage', e.id) ? registrationActions(csrf, r, base) : ''}
<p><a href="/dashboard/events/${encodeURIComponent(e.id)}/registrations">← All registrations</a></p>`;
}

const METHOD_WORDS: Record<string, string> = {
  bank_transfer: 'Bank transfer',
  upi_to_organiser: 'UPI to you',
  cash_at_venue: 'Cash at the venue',
};

/** A booking awaiting payment outside the gateway: record that the money arrived (payments.record only). */
function markPaidForm(csrf: string, r: RegistrationView, base: string): Html {
  const chosen = r.awaitingPayment?.method;
  return html`<section class="card" aria-labelledby="mp-h"><h2 id="mp-h">Mark paid</h2>
<p>When the whole amount has reached you, record it here: the booking is confirmed and the tickets and GST invoice go to the buyer.</p>
<form method="post" action="${base}/mark-paid" data-confirm="Mark this booking paid? The tickets are sent at once.">${csrfField(csrf)}
<div class="row">
<div><label for="mp-method">Paid by</label><select id="mp-method" name="method">${Object.entries(
    METHOD_WORDS,
  ).map(
    ([value, label]) =>
      html`<option value="${value}"${value === chosen ? ' selected' : ''}>${label}</option>`,
  )}</select></div>
<div><label for="mp-amount">Amount received in rupees <span class="hint">the amount due</span></label><input id="mp-amount" name="amountPaid" type="number" min="0" step="0.01" inputmode="decimal" required value="${r.amount}"></div>
<div><label for="mp-ref">Reference <span class="hint">UTR or receipt, optional</span></label><input id="mp-ref" name="reference" maxlength="100" autocomplete="off"></div>
<div><label for="mp-at">Paid at <span class="hint">India time; blank for now</span></label><input id="mp-at" name="paidAt" type="datetime-local"></div>
<div class="fit"><button>Mark paid</button></div>
</div></form></section>`;
}

/** The registration's actions: approve or reject, refund, cancel, transfer (`base` is its page's path). */
function registrationActions(csrf: string, r: RegistrationView, base: string): Html {
  const act = (action: string, label: string, confirm: string, cls = '') =>
    html`<form method="post" action="${base}/${action}" data-confirm="${confirm}">${csrfField(csrf)}<button${cls ? html` class="${cls}"` : ''}>${label}</button></form>`;
  return html`<section class="card" aria-labelledby="act-h"><h2 id="act-h">Actions</h2>
<div class="actions">
${r.status === 'pending' && r.pendingReason === 'approval' ? html`${act('approve', 'Approve', 'Approve this registration?')}${act('reject', 'Reject', 'Reject this registration?', 'secondary')}` : ''}
${r.status === 'confirmed' && r.amount > 0 ? act('refund', 'Refund', `Refund ${rupees(r.amount - r.refunded)}, all that is left, and free the seats?`, 'danger') : ''}
${r.status === 'confirmed' || r.status === 'pending' ? act('cancel', 'Cancel registration', r.status === 'confirmed' && r.amount > 0 ? 'Cancel and refund in full?' : 'Cancel this registration?', 'secondary') : ''}
</div>
${r.status === 'cancelled' || r.status === 'refunded' ? html`<p class="muted">This registration has ended.</p>` : ''}
${
  r.status === 'confirmed'
    ? html`<h3>Transfer to someone else</h3>
<form method="post" action="${base}/transfer">${csrfField(csrf)}
<div class="row"><div><label for="tr-name">New holder’s name</label><input id="tr-name" name="name" required maxlength="200"></div>
<div><label for="tr-email">Their email</label><input id="tr-email" name="email" type="email" required maxlength="254"></div>
<div class="fit"><button>Transfer ticket</button></div></div>
<p class="hint">A new ticket is mailed to them; the old QR code stops working.</p></form>`
    : ''
}
</section>`;
}

export interface BroadcastForm {
  subject: string;
  message: string;
  audience: string;
  subEventId: string;
}

const AUDIENCES: [string, string][] = [
  ['confirmed', 'Confirmed attendees'],
  ['checked_in', 'Checked in'],
  ['not_checked_in', 'Confirmed, not checked in'],
  ['pending', 'Pending'],
  ['all', 'Confirmed and pending'],
];

export function broadcastPage(
  csrf: string,
  e: EventView,
  form: BroadcastForm,
  preview: { recipientCount: number; sampleRecipients: { name: string; email: string }[] } | null,
): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  const hidden = html`<input type="hidden" name="subject" value="${form.subject}"><input type="hidden" name="message" value="${form.message}">
<input type="hidden" name="audience" value="${form.audience}"><input type="hidden" name="subEventId" value="${form.subEventId}">`;
  return html`${eventTabs(e, 'broadcast')}
${
  preview
    ? html`<section class="card" aria-labelledby="pv-h"><h2 id="pv-h">Preview</h2>
<p>This goes to <strong>${preview.recipientCount}</strong> ${preview.recipientCount === 1 ? 'person' : 'people'}, one mail each.</p>
${preview.sampleRecipients.length > 0 ? html`<p>For example:</p><ul>${preview.sampleRecipients.map((r) => html`<li>${r.name} · ${r.email}</li>`)}</ul>` : ''}
<h3>${form.subject}</h3><div class="card">${form.message.split(/\r?\n/).map((line) => html`${line}<br>`)}</div>
${
  preview.recipientCount > 0
    ? html`<form method="post" action="${base}/broadcast/send">${csrfField(csrf)}${hidden}<input type="hidden" name="confirmedRecipientCount" value="${preview.recipientCount}">
<button>Send to ${preview.recipientCount} ${preview.recipientCount === 1 ? 'person' : 'people'}</button></form>`
    : html`<p>Nobody to send to.</p>`
}
</section>`
    : ''
}
<form method="post" action="${base}/broadcast" class="card">${csrfField(csrf)}
<label for="b-subject">Subject</label><input id="b-subject" name="subject" required maxlength="200" value="${form.subject}">
<label for="b-message">Message <span class="hint">plain text; line breaks are kept</span></label><textarea id="b-message" name="message" required maxlength="20000" rows="8">${form.message}</textarea>
<div class="row"><div><label for="b-aud">To</label><select id="b-aud" name="audience">${AUDIENCES.map(
    ([v, l]) => html`<option value="${v}"${form.audience === v ? html` selected` : ''}>${l}</option>`,
  )}</select></div>
${
  e.tracks.length > 0
    ? html`<div><label for="b-track">Track</label><select id="b-track" name="subEventId"><option value="">every track</option>${e.tracks.map(
        (t) =>
          html`<option value="${t.index}"${form.subEventId === String(t.index) ? html` selected` : ''}>${t.title}</option>`,
      )}</select></div>`
    : ''
}</div>
<p><button${preview ? html` class="secondary"` : ''}>Preview</button></p>
<p class="hint">Nothing is sent until you confirm the number of recipients on the preview.</p>
</form>`;
}
