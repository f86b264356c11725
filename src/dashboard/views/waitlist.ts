// The dashboard's waitlist screen: the event's waitlist and self-service settings, and
// the queue with a way to take someone off it.
import { html, type Html } from '../html.js';
import { csrfField, when } from '../layout.js';
import { eventTabs, type EventView } from './events.js';
import type { presentEntry } from '../../modules/waitlist/waitlist.service.js';

type Entry = ReturnType<typeof presentEntry>;
type Policy = {
  transfer: boolean;
  cancel: boolean;
  cutoffHours: number;
  refund: 'full' | 'none' | { feePercent: number };
};

function settings(
  csrf: string,
  base: string,
  w: { enabled: boolean; offerMinutes: number },
  p: Policy,
): Html {
  const kind = typeof p.refund === 'string' ? p.refund : 'fee';
  const fee = typeof p.refund === 'object' ? String(p.refund.feePercent) : '';
  const opt = (v: string, label: string) =>
    html`<option value="${v}"${kind === v ? html` selected` : html``}>${label}</option>`;
  return html`<form method="post" action="${base}/waitlist/settings" class="card">${csrfField(csrf)}
<h2>Waitlist</h2>
<div class="field check"><input type="checkbox" id="wl-enabled" name="waitlistEnabled"${w.enabled ? html` checked` : html``}> <label for="wl-enabled">Take names when sold out</label></div>
<div class="field"><label for="wl-minutes">Minutes an offer holds its seat</label><input id="wl-minutes" name="offerMinutes" type="number" min="1" max="10080" value="${String(w.offerMinutes)}"></div>
<h2>The attendee’s ticket page</h2>
<div class="field check"><input type="checkbox" id="ss-transfer" name="transfer"${p.transfer ? html` checked` : html``}> <label for="ss-transfer">Attendees may transfer their ticket</label></div>
<div class="field check"><input type="checkbox" id="ss-cancel" name="cancel"${p.cancel ? html` checked` : html``}> <label for="ss-cancel">Attendees may cancel</label></div>
<div class="field"><label for="ss-cutoff">Closes this many hours before the start</label><input id="ss-cutoff" name="cutoffHours" type="number" min="0" max="8760" value="${String(p.cutoffHours)}"></div>
<div class="field"><label for="ss-refund">Refund on cancellation</label><select id="ss-refund" name="refund">${opt('full', 'All of it')}${opt('none', 'None')}${opt('fee', 'All but a fee')}</select></div>
<div class="field"><label for="ss-fee">Fee, percent of the price</label><input id="ss-fee" name="feePercent" type="number" min="0" max="100" step="0.01" value="${fee}"></div>
<button>Save settings</button>
</form>`;
}

export function waitlistScreen(
  csrf: string,
  e: EventView,
  w: { enabled: boolean; offerMinutes: number },
  policy: Policy,
  entries: Entry[],
  manage = true,
): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  const rows = entries.map(
    (
      x,
      i,
    ) => html`<tr><td>${String(i + 1)}</td><td>${x.name}</td><td>${x.email}</td><td>${x.subEventId === null ? 'Whole event' : `Track ${Number(x.subEventId) + 1}`}${x.ticketType === 'General' ? '' : ` · ${x.ticketType}`}</td>
<td>${x.status}${x.expiresAt ? html` until ${when(x.expiresAt)}` : html``}</td>
<td>${manage && (x.status === 'waiting' || x.status === 'offered') ? html`<form method="post" action="${base}/waitlist/${encodeURIComponent(x.id)}/remove" data-confirm="Take ${x.name} off the waitlist?">${csrfField(csrf)}<button class="danger" aria-label="Remove ${x.name}">Remove</button></form>` : html``}</td></tr>`,
  );
  return html`${eventTabs(e, 'waitlist', manage)}
${manage ? settings(csrf, base, w, policy) : html`<p>The waitlist ${w.enabled ? 'takes names when sold out' : 'is off'}.</p>`}
<section class="card"><h2>Queue</h2>
${entries.length === 0 ? html`<p>Nobody is waiting.</p>` : html`<table class="cards"><thead><tr><th>#</th><th>Name</th><th>Email</th><th>For</th><th>Status</th><th>Actions</th></tr></thead><tbody>${rows}</tbody></table>`}
</section>`;
}
