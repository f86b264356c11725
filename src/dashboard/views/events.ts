// Event screens: list, create and edit, overview (availability, analytics, door,
// charts, embed), setup (tracks, tiers, questions, promo codes); the registration and
// broadcast screens are in registrations.ts.
import type { Availability } from '../../modules/events/availability.js';
import type { presentEvent } from '../../modules/events/events.present.js';
import type { PriceRow } from '../../modules/events/events.service.js';
import type { presentPromo } from '../../modules/registrations/promo.service.js';
import { html, type Html } from '../html.js';
import { eventTaxFields } from './gst.js';
import { requestAccessBox, type RequestView } from './publishing.js';
import { badge, csrfField, eventWhen, progressBar, rupees, tabs, when } from '../layout.js';

export type EventView = ReturnType<typeof presentEvent>;
export type PromoView = ReturnType<typeof presentPromo>;

const IST_OFFSET_MS = 330 * 60_000;

/** A stored event date as the value of a datetime-local input (India time). */
export function localInput(value: string | null): string {
  if (value === null) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00`;
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? '' : new Date(t.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16);
}

export function eventTabs(e: EventView, current: 'overview' | 'setup' | 'registrations' | 'broadcast' | 'waitlist'): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  return tabs(
    [
      { label: 'Overview', href: base, current: current === 'overview' },
      { label: 'Setup', href: `${base}/setup`, current: current === 'setup' },
      { label: 'Registrations', href: `${base}/registrations`, current: current === 'registrations' },
      { label: 'Broadcast', href: `${base}/broadcast`, current: current === 'broadcast' },
      { label: 'Waitlist & ticket page', href: `${base}/waitlist`, current: current === 'waitlist' },
    ],
    'Event sections',
  );
}

export function eventsList(list: EventView[]): Html {
  return html`<p><a class="button" href="/dashboard/events/new">Create an event</a></p>
${
  list.length === 0
    ? html`<div class="card"><p>No events in this mode yet. Create one: it starts as a draft that only you can see.</p></div>`
    : html`<div class="table-wrap"><table class="cards-narrow">
<caption class="muted">Newest start date first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Starts</th><th scope="col">Status</th><th scope="col" class="num">Seats taken</th><th scope="col" class="num">Price</th></tr></thead>
<tbody>${list.map(
        (e) => html`<tr><td data-label="Event"><a href="/dashboard/events/${encodeURIComponent(e.id)}">${e.title}</a></td><td data-label="Starts">${eventWhen(e.startDate)}</td><td data-label="Status">${badge(e.status)}</td>
<td class="num" data-label="Seats taken">${e.taken}${e.capacity > 0 ? ` / ${e.capacity}` : ''}</td><td class="num" data-label="Price">${e.price === 0 ? 'Free' : rupees(e.price)}</td></tr>`,
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
<label class="inline"><input type="checkbox" name="wholeEventOption" value="on" aria-describedby="f-whole-hint"${e?.wholeEventOption ? html` checked` : ''}> With tracks, also sell the whole event at the price above</label>
<p class="hint" id="f-whole-hint">Off: every buyer picks a track and pays its price. On: “The whole event” is one more choice, at the event’s price.</p>
${eventTaxFields(e)}
<p><button>${submit}</button></p>
</form>`;
}

export interface OverviewData {
  event: EventView;
  availability: Availability;
  analytics: { totalRegistrations: number; confirmedCount: number; pendingCount: number; cancelledCount: number; refundedCount: number; checkedInCount: number; totalRevenue: number; fillRate: number | null };
  door: { expected: number; arrived: number };
  doorPasses: { id: string; label: string; admitsFor: string; createdAt: string; expiresAt: string | null; revokedAt: string | null }[];
  /** What a new door link may admit for: the whole event, a session, a day (the first is the default). */
  doorLists: { value: string; label: string }[];
  salesChart: Html;
  arrivalsChart: Html;
  canPublish: boolean;
  /** The account's latest request for publishing access, if any. */
  latestRequest: RequestView | null;
  /** Whether the service takes live payments (a paid live event is published only then). */
  livePayments: boolean;
  /** Each track's availability, in track order. */
  trackAvailability: (Availability & { waitlist: { waiting: number } })[];
  baseUrl: string;
  /** A test event's or a live draft's signed preview link (`/e/{slug}?preview=…`), valid for a day; null for a published live event. */
  previewUrl: string | null;
}

/** A track as people count it: the API's index 0 is “Track 1”. */
export const trackNumber = (index: number) => index + 1;

/** A track's times in words: its session's start (the event's when unset) and, when known, its end. */
export function trackTimes(t: { date: string | null; endDate: string | null; startsAt: string | null; endsAt: string | null }): string {
  const start = t.startsAt ?? t.date;
  const end = t.startsAt === null ? t.endDate : t.endsAt;
  if (start === null) return 'no time set';
  return eventWhen(start, end);
}

const paid = (e: EventView) => e.price > 0 || e.specialPrices.some((t) => t.price > 0) || e.tracks.some((t) => t.price > 0);

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
<dt>When</dt><dd>${eventWhen(e.startDate, e.endDate)}</dd>
<dt>Location</dt><dd>${e.location ?? '—'}</dd>
<dt>Price</dt><dd>${e.price === 0 ? 'Free' : rupees(e.price)}</dd>
<dt>Slug</dt><dd class="mono">${e.slug}</dd>
<dt>Ticket emails</dt><dd>${e.ticketEmailsEnabled ? 'sent by the service' : 'off (switched by staff)'}</dd>
</dl>
${
  e.status === 'draft'
    ? test || d.canPublish
      ? html`${test ? html`<p class="muted">A test event publishes at once: it is never public, and nothing is charged.</p>` : ''}${
          !test && !d.livePayments && paid(e)
            ? html`<p role="note">This event costs money, and the service does not take live payments yet: it can be published once it does (a free event can be published now).</p>`
            : ''
        }<form method="post" action="${base}/publish">${csrfField(csrf)}<input type="hidden" name="status" value="published"><button>Publish</button></form>`
      : requestAccessBox(csrf, d.latestRequest)
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
<h3 id="passes-h">Door screen</h3>
<p class="muted">A door link opens the phone door screen for this event to whoever holds it, without an account: scan, search, admit and undo, also offline. It shows names, ticket types and check-in state, never email, phone or money. The link is shown once.</p>
<form method="post" action="${base}/door-passes" class="row">${csrfField(csrf)}
<div><label for="f-pass-label">Label <span class="hint">who or where it is for, e.g. Gate A</span></label><input id="f-pass-label" name="label" maxlength="80" required></div>
${
  d.doorLists.length > 1
    ? html`<div><label for="f-pass-scope">Admits for <span class="hint">a ticket of another session or day is refused</span></label><select id="f-pass-scope" name="scope">${d.doorLists.map((c) => html`<option value="${c.value}">${c.label}</option>`)}</select></div>`
    : ''
}
<div class="fit"><button>Create a door link</button></div>
</form>
${
  d.doorPasses.length > 0
    ? html`<div class="table-wrap"><table aria-labelledby="passes-h"><thead><tr><th scope="col">Label</th><th scope="col">Admits for</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${d.doorPasses.map(
        (p) => html`<tr><td>${p.label}</td><td>${p.admitsFor}</td><td class="nowrap">${when(p.createdAt)}</td><td>${p.revokedAt ? badge('revoked') : p.expiresAt && new Date(p.expiresAt) < new Date() ? badge('expired') : badge('active')}</td>
<td>${p.revokedAt ? '' : html`<form method="post" action="${base}/door-passes/${encodeURIComponent(p.id)}/revoke" data-confirm="Revoke this door link? Whoever holds it is shut out at once.">${csrfField(csrf)}<button class="danger" aria-label="Revoke door link ${p.label}">Revoke</button></form>`}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}
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
${
  e.tracks.length > 0
    ? html`<h3 id="track-avail-h">Per track</h3><div class="table-wrap"><table class="cards-narrow" aria-labelledby="track-avail-h"><thead><tr><th scope="col">Track</th><th scope="col">When</th><th scope="col" class="num">Capacity</th><th scope="col" class="num">Taken</th><th scope="col" class="num">Left</th><th scope="col" class="num">Waiting</th></tr></thead>
<tbody>${e.tracks.map((t, i) => {
        const a = d.trackAvailability[i];
        return html`<tr><th scope="row" data-label="Track">${trackNumber(t.index)}. ${t.title}</th><td data-label="When">${trackTimes(t)}</td><td class="num" data-label="Capacity">${t.capacity || '∞'}</td><td class="num" data-label="Taken">${a?.taken ?? t.taken}</td><td class="num" data-label="Left">${a ? (a.soldOut ? 'sold out' : (a.remaining ?? '∞')) : '—'}</td><td class="num" data-label="Waiting">${a?.waitlist.waiting ?? 0}</td></tr>`;
      })}</tbody></table></div>`
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
    : d.previewUrl !== null
      ? html`<p class="muted" id="preview-about">${
          test
            ? html`The booking page as buyers will see it, through a preview link that works for 24 hours without a key or a website of your own. Bookings made in it are test bookings: nothing is charged, and their mails appear in the <a href="/dashboard/test-inbox">Test inbox</a>.`
            : 'The booking page as buyers will see it once the event is published, through a preview link that works for 24 hours. It takes no bookings until the event is published.'
        }</p>
<p><a class="button" id="open-preview" href="${d.previewUrl}" aria-describedby="preview-about">Open the preview</a></p>
<iframe class="embed-preview" src="${d.previewUrl}" title="Preview of the booking page for ${e.title}"></iframe>`
      : html`<p class="embed-preview-note">The preview appears once the event is published: until then the booking page answers “not found”.</p>`
}
</section>

<section class="card" aria-labelledby="danger-h"><h2 id="danger-h">Delete</h2>
<form method="post" action="${base}/delete" data-confirm="Delete this event and all its registrations? This cannot be undone.">${csrfField(csrf)}
<button class="danger">Delete this event</button></form>
</section>`;
}

/** What a buyer pays per person: every session on sale × every ticket type, and what is not for sale. */
export function priceTableView(e: EventView, rows: PriceRow[]): Html {
  const types = [{ name: 'General', membersOnly: false }, ...e.specialPrices];
  const note =
    e.tracks.length === 0
      ? html`<p class="muted">Without tracks, buyers book the event itself.</p>`
      : e.wholeEventOption
        ? html`<p class="muted">“The whole event” is on sale at the event’s price, beside each track. Turn it off under Event details to sell the tracks only.</p>`
        : html`<p class="muted">The whole event is not sold on its own: every buyer picks a track. Turn it on under Event details to sell it at the event’s price.</p>`;
  return html`<section aria-labelledby="prices-h"><h2 id="prices-h">Prices buyers see</h2>
<p>What one person pays for each session and ticket type: a tier’s price replaces the track’s, and a track’s replaces the event’s. Promo codes come off these.</p>
${note}
<div class="table-wrap"><table class="cards-narrow" id="price-table" aria-labelledby="prices-h">
<thead><tr><th scope="col">Session</th>${types.map((t) => html`<th scope="col" class="num">${t.name}${t.membersOnly ? ' (members)' : ''}</th>`)}</tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><th scope="row" data-label="Session">${r.trackIndex === null ? r.title : `Track ${trackNumber(r.trackIndex)}: ${r.title}`}</th>${r.prices.map(
      (p, i) => html`<td class="num" data-label="${types[i]?.name ?? p.ticketType}">${p.paise === 0 ? 'Free' : rupees(p.paise / 100)}</td>`,
    )}</tr>`,
  )}</tbody></table></div>
</section>`;
}

export function setup(csrf: string, e: EventView, promos: PromoView[], prices: PriceRow[]): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  return html`${eventTabs(e, 'setup')}
<h2>Event details</h2>
${eventForm(csrf, base, e, 'Save changes')}

<section aria-labelledby="tracks-h"><h2 id="tracks-h">Tracks</h2>
<p class="muted">Bookable sessions inside the event, each with its own price and seats.</p>
${e.tracks.map((t) => {
  const n = trackNumber(t.index);
  return html`<div class="card" role="group" aria-labelledby="t${t.index}-h"><h3 id="t${t.index}-h">Track ${n}: ${t.title}</h3>
<p class="muted">${trackTimes(t)} · ${t.taken} taken${t.remaining === null ? '' : `, ${t.remaining} left`}</p>
<form method="post" action="${base}/tracks/${t.index}">${csrfField(csrf)}
<div class="row"><div><label for="t${t.index}-title">Track ${n} title</label><input id="t${t.index}-title" name="title" required maxlength="200" value="${t.title}"></div>
<div><label for="t${t.index}-price">Price (₹)</label><input id="t${t.index}-price" name="price" type="number" min="0" step="0.01" value="${t.price}"></div>
<div><label for="t${t.index}-cap">Capacity</label><input id="t${t.index}-cap" name="capacity" type="number" min="0" step="1" value="${t.capacity}"></div></div>
<div class="row"><div><label for="t${t.index}-start">Starts <span class="hint">India time; empty: the event’s start</span></label><input id="t${t.index}-start" name="date" type="datetime-local" value="${localInput(t.date === e.startDate ? null : t.date)}"></div>
<div><label for="t${t.index}-end">Ends <span class="hint">optional</span></label><input id="t${t.index}-end" name="endDate" type="datetime-local" value="${localInput(t.endDate)}"></div>
<div class="fit"><button class="secondary">Save track ${n}</button></div></div>
</form>
<form method="post" action="${base}/tracks/${t.index}/remove" data-confirm="Remove track ${n}, ${t.title}? The tracks after it move up by one.">${csrfField(csrf)}<button class="danger" aria-label="Remove track ${n}, ${t.title}">Remove track</button>
<span class="hint">Only while nobody has booked it or a later track.</span></form>
</div>`;
})}
<form method="post" action="${base}/tracks" class="card">${csrfField(csrf)}
<div class="row"><div><label for="nt-title">New track title</label><input id="nt-title" name="title" required maxlength="200"></div>
<div><label for="nt-price">Price (₹)</label><input id="nt-price" name="price" type="number" min="0" step="0.01" value="0"></div>
<div><label for="nt-cap">Capacity</label><input id="nt-cap" name="capacity" type="number" min="0" step="1" value="0"></div></div>
<div class="row"><div><label for="nt-start">Starts <span class="hint">India time; empty: the event’s start</span></label><input id="nt-start" name="date" type="datetime-local"></div>
<div><label for="nt-end">Ends <span class="hint">optional</span></label><input id="nt-end" name="endDate" type="datetime-local"></div>
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

${priceTableView(e, prices)}

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
