// Event screens: list, create and edit, overview (availability, analytics, door,
// charts, embed), setup (tracks, tiers, questions, promo codes), registrations, broadcast.
import type { Availability } from '../../events/availability.js';
import type { presentEvent } from '../../events/events.service.js';
import type { presentPromo } from '../../registrations/promo.service.js';
import type { presentRegistration } from '../../registrations/registrations.routes.js';
import { html, type Html } from '../html.js';
import { badge, csrfField, progressBar, rupees, tabs, when } from '../layout.js';

export type EventView = ReturnType<typeof presentEvent>;
export type RegistrationView = ReturnType<typeof presentRegistration>;
export type PromoView = ReturnType<typeof presentPromo>;

const IST_OFFSET_MS = 330 * 60_000;

/** A stored event date as the value of a datetime-local input (India time). */
export function localInput(value: string | null): string {
  if (value === null) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00`;
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? '' : new Date(t.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16);
}

export function eventTabs(e: EventView, current: 'overview' | 'setup' | 'registrations' | 'broadcast'): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  return tabs(
    [
      { label: 'Overview', href: base, current: current === 'overview' },
      { label: 'Setup', href: `${base}/setup`, current: current === 'setup' },
      { label: 'Registrations', href: `${base}/registrations`, current: current === 'registrations' },
      { label: 'Broadcast', href: `${base}/broadcast`, current: current === 'broadcast' },
    ],
    'Event sections',
  );
}

export function eventsList(list: EventView[]): Html {
  return html`<p><a class="button" href="/dashboard/events/new">Create an event</a></p>
${
  list.length === 0
    ? html`<div class="card"><p>No events in this mode yet. Create one: it starts as a draft that only you can see.</p></div>`
    : html`<div class="table-wrap"><table>
<caption class="muted">Newest start date first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Starts</th><th scope="col">Status</th><th scope="col" class="num">Seats taken</th><th scope="col" class="num">Price</th></tr></thead>
<tbody>${list.map(
        (e) => html`<tr><td><a href="/dashboard/events/${encodeURIComponent(e.id)}">${e.title}</a></td><td>${when(e.startDate)}</td><td>${badge(e.status)}</td>
<td class="num">${e.taken}${e.capacity > 0 ? ` / ${e.capacity}` : ''}</td><td class="num">${e.price === 0 ? 'Free' : rupees(e.price)}</td></tr>`,
      )}</tbody></table></div>`
}`;
}

export function eventForm(csrf: string, action: string, e: EventView | null, submit: string): Html {
  return html`<form method="post" action="${action}" class="card">${csrfField(csrf)}
<label for="f-title">Title</label><input id="f-title" name="title" required maxlength="200" value="${e?.title ?? ''}">
<label for="f-description">Description</label><textarea id="f-description" name="description" maxlength="20000">${e?.description ?? ''}</textarea>
<div class="row">
<div><label for="f-start">Starts <span class="hint">India time</span></label><input id="f-start" name="startDate" type="datetime-local" required value="${localInput(e?.startDate ?? null)}"></div>
<div><label for="f-end">Ends <span class="hint">optional</span></label><input id="f-end" name="endDate" type="datetime-local" value="${localInput(e?.endDate ?? null)}"></div>
</div>
<label for="f-location">Location <span class="hint">optional</span></label><input id="f-location" name="location" maxlength="500" value="${e?.location ?? ''}">
<div class="row">
<div><label for="f-capacity">Capacity <span class="hint">0 means unlimited</span></label><input id="f-capacity" name="capacity" type="number" min="0" step="1" inputmode="numeric" value="${e?.capacity ?? 0}"></div>
<div><label for="f-price">Price in rupees <span class="hint">0 for a free event</span></label><input id="f-price" name="price" type="number" min="0" step="0.01" inputmode="decimal" value="${e?.price ?? 0}"></div>
<div><label for="f-team">Team size <span class="hint">1 = individual bookings</span></label><input id="f-team" name="maxTeamSize" type="number" min="1" max="100" step="1" value="${e?.maxTeamSize ?? 1}"></div>
</div>
<label class="inline"><input type="checkbox" name="requiresApproval" value="on"${e?.requiresApproval ? html` checked` : ''}> Free registrations wait for my approval</label>
<p><button>${submit}</button></p>
</form>`;
}

export interface OverviewData {
  event: EventView;
  availability: Availability;
  analytics: { totalRegistrations: number; confirmedCount: number; pendingCount: number; cancelledCount: number; refundedCount: number; checkedInCount: number; totalRevenue: number; fillRate: number | null };
  door: { expected: number; arrived: number };
  salesChart: Html;
  arrivalsChart: Html;
  canPublish: boolean;
  baseUrl: string;
}

export function doorFragment(door: { expected: number; arrived: number }): Html {
  return html`${progressBar(door.arrived, door.expected, `${door.arrived} of ${door.expected} people checked in`)}`;
}

export function overview(csrf: string, d: OverviewData): Html {
  const e = d.event;
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  const a = d.analytics;
  const test = e.mode === 'test';
  // A test event is shown only with a test checkout key pinned to the host page's origin.
  const snippet = test
    ? `<div data-svc-event="${e.slug}" data-svc-key="pk_test_…"></div>\n<script src="${d.baseUrl}/embed.js" async></script>`
    : `<div data-svc-event="${e.slug}"></div>\n<script src="${d.baseUrl}/embed.js" async></script>`;
  return html`${eventTabs(e, 'overview')}
<section class="card" aria-labelledby="facts-h"><h2 id="facts-h">Details</h2>
<dl class="facts">
<dt>Status</dt><dd>${badge(e.status)} ${e.mode === 'test' ? badge('test') : ''}</dd>
<dt>Starts</dt><dd>${when(e.startDate)}</dd>
${e.endDate ? html`<dt>Ends</dt><dd>${when(e.endDate)}</dd>` : ''}
<dt>Location</dt><dd>${e.location ?? '—'}</dd>
<dt>Price</dt><dd>${e.price === 0 ? 'Free' : rupees(e.price)}</dd>
<dt>Slug</dt><dd class="mono">${e.slug}</dd>
<dt>Ticket emails</dt><dd>${e.ticketEmailsEnabled ? 'sent by the service' : 'off (switched by staff)'}</dd>
</dl>
${
  e.status === 'draft'
    ? d.canPublish
      ? html`<form method="post" action="${base}/publish">${csrfField(csrf)}<input type="hidden" name="status" value="published"><button>Publish</button></form>`
      : html`<p class="muted">Publishing needs organiser access, which platform staff grant. Drafts can still take test registrations.</p>`
    : html`<form method="post" action="${base}/publish" data-confirm="Take this event off sale?">${csrfField(csrf)}<input type="hidden" name="status" value="draft"><button class="secondary">Unpublish</button></form>`
}
</section>

<section aria-labelledby="numbers-h"><h2 id="numbers-h">Registrations and revenue</h2>
<div class="grid stats">
<div class="card"><span class="stat">${a.confirmedCount}</span> confirmed bookings</div>
<div class="card"><span class="stat">${a.pendingCount}</span> pending</div>
<div class="card"><span class="stat">${a.cancelledCount + a.refundedCount}</span> cancelled or refunded</div>
<div class="card"><span class="stat">${rupees(a.totalRevenue)}</span> gross revenue</div>
</div></section>

<section class="card" aria-labelledby="door-h"><h2 id="door-h">Check-in</h2>
<div data-poll="${base}/door" data-poll-seconds="15" aria-live="polite">${doorFragment(d.door)}</div>
</section>

<section aria-labelledby="avail-h"><h2 id="avail-h">Availability</h2>
<p>${d.availability.soldOut ? html`<strong>Sold out.</strong> ` : ''}${d.availability.taken} seats taken${d.availability.remaining === null ? ' (no limit)' : `, ${d.availability.remaining} left of ${d.availability.capacity}`}.</p>
${
  d.availability.tiers.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Tier</th><th scope="col" class="num">Price</th><th scope="col" class="num">Taken</th><th scope="col" class="num">Left</th><th scope="col">On sale</th></tr></thead>
<tbody>${d.availability.tiers.map(
        (t) => html`<tr><td>${t.name}${t.membersOnly ? ' (members)' : ''}</td><td class="num">${rupees(t.price)}</td><td class="num">${t.taken}</td><td class="num">${t.remaining ?? '∞'}</td><td>${t.soldOut ? 'sold out' : t.onSale ? 'yes' : 'no'}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}
</section>

<section aria-labelledby="charts-h"><h2 id="charts-h">Sales and arrivals</h2>
<div class="grid">${d.salesChart}${d.arrivalsChart}</div>
</section>

<section class="card" aria-labelledby="embed-h"><h2 id="embed-h">Embed on your site</h2>
${
  test
    ? html`<p>Paste this where the booking form should appear. A test event is shown only with a <strong>test checkout key</strong> pinned to your page’s origin:
replace <code>pk_test_…</code> with one (<a href="/dashboard/developers">Developers</a>: mode test, kind checkout, allowed origin your site). Payments then go to the sandbox; nothing is charged.</p>`
    : html`<p>Paste this where the booking form should appear.${e.status === 'published' ? '' : html` <span class="muted">It shows the event once the event is published.</span>`}</p>`
}
<pre class="snippet" id="embed-snippet">${snippet}</pre>
<button type="button" class="secondary" data-copy="embed-snippet">Copy snippet</button>
<h3>Preview</h3>
${
  !test && e.status === 'published'
    ? html`<p class="muted">The booking page as your visitors see it (<a href="/e/${encodeURIComponent(e.slug)}">open it on its own</a>). Bookings made here are real.</p>
<iframe class="embed-preview" src="/e/${encodeURIComponent(e.slug)}" title="Preview of the booking page for ${e.title}"></iframe>`
    : html`<p class="embed-preview-note">${
        test
          ? 'No preview here: the page needs your test checkout key, which the service keeps only as a hash. Put the snippet with your key on your page to try it.'
          : 'The preview appears once the event is published: until then the booking page answers “not found”.'
      }</p>`
}
</section>

<section class="card" aria-labelledby="danger-h"><h2 id="danger-h">Delete</h2>
<form method="post" action="${base}/delete" data-confirm="Delete this event and all its registrations? This cannot be undone.">${csrfField(csrf)}
<button class="danger">Delete this event</button></form>
</section>`;
}

export function setup(csrf: string, e: EventView, promos: PromoView[]): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  return html`${eventTabs(e, 'setup')}
<h2>Event details</h2>
${eventForm(csrf, base, e, 'Save changes')}

<section aria-labelledby="tracks-h"><h2 id="tracks-h">Tracks</h2>
<p class="muted">Bookable sessions inside the event, each with its own price and seats.</p>
${e.tracks.map(
  (t) => html`<form method="post" action="${base}/tracks/${t.index}" class="card">${csrfField(csrf)}
<div class="row"><div><label for="t${t.index}-title">Track ${t.index} title</label><input id="t${t.index}-title" name="title" required maxlength="200" value="${t.title}"></div>
<div><label for="t${t.index}-price">Price (₹)</label><input id="t${t.index}-price" name="price" type="number" min="0" step="0.01" value="${t.price}"></div>
<div><label for="t${t.index}-cap">Capacity</label><input id="t${t.index}-cap" name="capacity" type="number" min="0" step="1" value="${t.capacity}"></div>
<div class="fit"><button class="secondary">Save track ${t.index}</button></div></div>
<p class="muted">${t.taken} taken${t.remaining === null ? '' : `, ${t.remaining} left`}</p>
</form>`,
)}
<form method="post" action="${base}/tracks" class="card">${csrfField(csrf)}
<div class="row"><div><label for="nt-title">New track title</label><input id="nt-title" name="title" required maxlength="200"></div>
<div><label for="nt-price">Price (₹)</label><input id="nt-price" name="price" type="number" min="0" step="0.01" value="0"></div>
<div><label for="nt-cap">Capacity</label><input id="nt-cap" name="capacity" type="number" min="0" step="1" value="0"></div>
<div class="fit"><button>Add track</button></div></div></form>
</section>

<section aria-labelledby="tiers-h"><h2 id="tiers-h">Ticket tiers</h2>
${
  e.specialPrices.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Tier</th><th scope="col" class="num">Price</th><th scope="col" class="num">Capacity</th><th scope="col">Members only</th><th scope="col"><span class="muted">Remove</span></th></tr></thead>
<tbody>${e.specialPrices.map(
        (t) => html`<tr><td>${t.name}</td><td class="num">${rupees(t.price)}</td><td class="num">${t.capacity || '—'}</td><td>${t.membersOnly ? 'yes' : 'no'}</td>
<td><form method="post" action="${base}/tiers/remove" data-confirm="Remove the tier ${t.name}?">${csrfField(csrf)}<input type="hidden" name="name" value="${t.name}"><button class="secondary" aria-label="Remove tier ${t.name}">Remove</button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No tiers: everyone pays the base price.</p>`
}
<form method="post" action="${base}/tiers" class="card">${csrfField(csrf)}
<div class="row"><div><label for="tier-name">Tier name</label><input id="tier-name" name="name" required maxlength="80"></div>
<div><label for="tier-price">Price (₹)</label><input id="tier-price" name="price" type="number" min="0" step="0.01" required></div>
<div><label for="tier-cap">Capacity <span class="hint">0 = no own limit</span></label><input id="tier-cap" name="capacity" type="number" min="0" step="1" value="0"></div></div>
<label class="inline"><input type="checkbox" name="membersOnly" value="on"> Only for members in good standing</label>
<p><button>Add tier</button></p></form>
</section>

<section aria-labelledby="q-h"><h2 id="q-h">Questions</h2>
${
  e.customFields.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Label</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col"><span class="muted">Remove</span></th></tr></thead>
<tbody>${e.customFields.map(
        (f) => html`<tr><td class="mono">${f.name}</td><td>${f.label}</td><td>${f.type}${f.options ? ` (${f.options.join(', ')})` : ''}</td><td>${f.required ? 'yes' : 'no'}</td>
<td><form method="post" action="${base}/questions/remove" data-confirm="Remove the question ${f.label}?">${csrfField(csrf)}<input type="hidden" name="name" value="${f.name}"><button class="secondary" aria-label="Remove question ${f.label}">Remove</button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No questions beyond name, email and phone.</p>`
}
<form method="post" action="${base}/questions" class="card">${csrfField(csrf)}
<div class="row"><div><label for="q-name">Field name <span class="hint">letters, digits, _</span></label><input id="q-name" name="name" required maxlength="50" pattern="[A-Za-z][A-Za-z0-9_]*"></div>
<div><label for="q-label">Question shown</label><input id="q-label" name="label" maxlength="200"></div>
<div><label for="q-type">Type</label><select id="q-type" name="type"><option>text</option><option>number</option><option>email</option><option>select</option><option>checkbox</option></select></div></div>
<label for="q-options">Options <span class="hint">for a select: one per line</span></label><textarea id="q-options" name="options" maxlength="5000"></textarea>
<label class="inline"><input type="checkbox" name="required" value="on"> Required</label>
<p><button>Add question</button></p></form>
</section>

<section aria-labelledby="promo-h"><h2 id="promo-h">Promo codes</h2>
${
  promos.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Code</th><th scope="col">Discount</th><th scope="col">Valid</th><th scope="col" class="num">Used</th></tr></thead>
<tbody>${promos.map(
        (p) => html`<tr><td class="mono">${p.code}</td><td>${p.discountPercent !== null ? `${p.discountPercent} %` : rupees(p.discountAmount ?? 0)}</td>
<td>${p.validFrom || p.validUntil ? `${when(p.validFrom)} – ${when(p.validUntil)}` : 'always'}</td><td class="num">${p.uses}${p.maxUses !== null ? ` / ${p.maxUses}` : ''}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No promo codes.</p>`
}
<form method="post" action="${base}/promo-codes" class="card">${csrfField(csrf)}
<div class="row"><div><label for="p-code">Code</label><input id="p-code" name="code" required minlength="2" maxlength="40" pattern="[A-Za-z0-9_-]+"></div>
<div><label for="p-kind">Discount is</label><select id="p-kind" name="kind"><option value="percent">a percentage</option><option value="amount">an amount in rupees</option></select></div>
<div><label for="p-value">Discount</label><input id="p-value" name="value" type="number" min="0.01" step="0.01" required></div>
<div><label for="p-max">Most uses <span class="hint">optional</span></label><input id="p-max" name="maxUses" type="number" min="1" step="1"></div></div>
<div class="row"><div><label for="p-from">Valid from <span class="hint">optional</span></label><input id="p-from" name="validFrom" type="datetime-local"></div>
<div><label for="p-until">Valid until <span class="hint">optional</span></label><input id="p-until" name="validUntil" type="datetime-local"></div></div>
<p><button>Add promo code</button></p></form>
</section>`;
}

const STATUSES = ['pending', 'confirmed', 'cancelled', 'refunded'] as const;

export function registrationsPage(
  e: EventView,
  list: RegistrationView[],
  search: { q: string; status: string },
  pages: { next: string | null; first: boolean },
): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  return html`${eventTabs(e, 'registrations')}
<form method="get" action="${base}/registrations" class="card" role="search">
<div class="row"><div><label for="r-q">Search <span class="hint">name, email or registration id</span></label><input id="r-q" name="q" type="search" maxlength="200" value="${search.q}"></div>
<div><label for="r-status">Status</label><select id="r-status" name="status"><option value="">any</option>${STATUSES.map(
    (s) => html`<option${search.status === s ? html` selected` : ''}>${s}</option>`,
  )}</select></div>
<div class="fit"><button>Search</button></div></div></form>
${
  list.length === 0
    ? html`<p>No registrations${search.q || search.status ? ' match' : ' yet'}.</p>`
    : html`<div class="table-wrap"><table><caption class="muted">Newest first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Ticket</th><th scope="col" class="num">People</th><th scope="col" class="num">Amount</th><th scope="col">Booked</th></tr></thead>
<tbody>${list.map(
        (r) => html`<tr><td><a href="${base}/registrations/${encodeURIComponent(r.id)}">${r.name}</a></td><td>${r.email}</td><td>${badge(r.status)}${r.checkedIn ? html` ${badge('checked_in')}` : ''}</td>
<td>${r.ticketType}${r.subEventId !== null ? ` · track ${r.subEventId}` : ''}</td><td class="num">${r.quantity}</td><td class="num">${r.amount === 0 ? 'Free' : rupees(r.amount)}</td><td>${when(r.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Pages">
${pages.first ? '' : html`<a href="${base}/registrations?${new URLSearchParams({ q: search.q, status: search.status }).toString()}">Newest</a>`}
${pages.next ? html`<a href="${base}/registrations?${new URLSearchParams({ q: search.q, status: search.status, after: pages.next }).toString()}" rel="next">Older registrations</a>` : ''}
</nav>`;
}

export function registrationDetail(csrf: string, e: EventView, r: RegistrationView): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}/registrations/${encodeURIComponent(r.id)}`;
  const act = (action: string, label: string, confirm: string, cls = '') =>
    html`<form method="post" action="${base}/${action}" data-confirm="${confirm}">${csrfField(csrf)}<button${cls ? html` class="${cls}"` : ''}>${label}</button></form>`;
  return html`${eventTabs(e, 'registrations')}
<section class="card" aria-labelledby="reg-h"><h2 id="reg-h">${r.name}</h2>
<dl class="facts">
<dt>Status</dt><dd>${badge(r.status)}${r.pendingReason ? ` (awaiting ${r.pendingReason})` : ''}</dd>
<dt>Email</dt><dd>${r.email}</dd>
<dt>Phone</dt><dd>${r.phone ?? '—'}</dd>
<dt>Ticket</dt><dd>${r.ticketType}${r.subEventId !== null ? ` · track ${r.subEventId}` : ''}</dd>
<dt>People</dt><dd>${r.quantity}</dd>
<dt>Amount</dt><dd>${r.amount === 0 ? 'Free' : rupees(r.amount)}${r.promoCode ? ` (code ${r.promoCode})` : ''}</dd>
${r.platformFee + r.gatewayFee > 0 ? html`<dt>Fees</dt><dd>${rupees(r.platformFee)} platform, ${rupees(r.gatewayFee)} gateway</dd>` : ''}
<dt>Checked in</dt><dd>${r.checkedIn ? when(r.checkedInAt) : 'no'}</dd>
<dt>Booked</dt><dd>${when(r.createdAt)}</dd>
<dt>Registration id</dt><dd class="mono">${r.id}</dd>
${Object.entries(r.customFields).map(([k, v]) => html`<dt>${e.customFields.find((f) => f.name === k)?.label ?? k}</dt><dd>${String(v)}</dd>`)}
</dl>
${r.teamMembers.length > 0 ? html`<h3>Team</h3><ul>${r.teamMembers.map((m) => html`<li>${m.name} · ${m.email}${m.checkedIn ? ' · checked in' : ''}</li>`)}</ul>` : ''}
</section>
<section class="card" aria-labelledby="act-h"><h2 id="act-h">Actions</h2>
<div class="actions">
${r.status === 'pending' && r.pendingReason === 'approval' ? html`${act('approve', 'Approve', 'Approve this registration?')}${act('reject', 'Reject', 'Reject this registration?', 'secondary')}` : ''}
${r.status === 'confirmed' && r.amount > 0 ? act('refund', 'Refund', `Refund ${rupees(r.amount)} in full and free the seats?`, 'danger') : ''}
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
</section>
<p><a href="/dashboard/events/${encodeURIComponent(e.id)}/registrations">← All registrations</a></p>`;
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

export function broadcastPage(csrf: string, e: EventView, form: BroadcastForm, preview: { recipientCount: number; sampleRecipients: { name: string; email: string }[] } | null): Html {
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
        (t) => html`<option value="${t.index}"${form.subEventId === String(t.index) ? html` selected` : ''}>${t.title}</option>`,
      )}</select></div>`
    : ''
}</div>
<p><button${preview ? html` class="secondary"` : ''}>Preview</button></p>
<p class="hint">Nothing is sent until you confirm the number of recipients on the preview.</p>
</form>`;
}
