// Event screens: the list, the create and edit form, the tabs and the price table; the overview
// is in event-overview.ts, setup in event-setup.ts, and the registration and broadcast screens in
// registrations.ts.
import type { Availability } from '../../modules/events/availability.js';
import type { presentEvent } from '../../modules/events/events.present.js';
import type { PriceRow } from '../../modules/events/events.service.js';
import type { presentPromo } from '../../modules/registrations/promo.service.js';
import { html, type Html } from '../html.js';
import { eventTaxFields } from './gst.js';
import type { RequestView } from './publishing.js';
import { badge, csrfField, eventWhen, rupees, tabs } from '../layout.js';

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

/**
 * The event's sections; Setup and Broadcast are pages of forms, so only a role that may change
 * the event sees them (`manage`, the default for views that do not know the role).
 */
export function eventTabs(
  e: EventView,
  current: 'overview' | 'setup' | 'registrations' | 'broadcast' | 'waitlist',
  manage = true,
): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  const all = [
    { label: 'Overview', href: base, current: current === 'overview', show: true },
    { label: 'Setup', href: `${base}/setup`, current: current === 'setup', show: manage },
    {
      label: 'Registrations',
      href: `${base}/registrations`,
      current: current === 'registrations',
      show: true,
    },
    { label: 'Broadcast', href: `${base}/broadcast`, current: current === 'broadcast', show: manage },
    {
      label: 'Waitlist & ticket page',
      href: `${base}/waitlist`,
      current: current === 'waitlist',
      show: true,
    },
  ];
  return tabs(
    all.filter((t) => t.show),
    'Event sections',
  );
}

/** How many events a page of the events list shows. */
export const EVENTS_PAGE_SIZE = 50;

/** Where a page of the events list is: its number, how many pages, how many events in all. */
export interface EventsPager {
  page: number;
  pages: number;
  total: number;
}

/** Links to the list's pages before and after this one, and which events it shows. */
function eventsPager(p: EventsPager, shown: number): Html {
  const from = (p.page - 1) * EVENTS_PAGE_SIZE + 1;
  const link = (page: number, rel: 'prev' | 'next', label: string) =>
    html`<a href="/dashboard/events?page=${String(page)}" rel="${rel}">${label}</a>`;
  return html`<p class="muted">Events ${String(from)}–${String(from + shown - 1)} of ${String(p.total)}</p>
${
  p.pages > 1
    ? html`<nav class="pager" aria-label="Pages of events">
${p.page > 1 ? link(p.page - 1, 'prev', 'Newer events') : ''}
${p.page < p.pages ? link(p.page + 1, 'next', 'Older events') : ''}
</nav>`
    : ''
}`;
}

/**
 * A page of the events list; `canCreate`: the role may create events (otherwise no button to a
 * refusal).
 */
export function eventsList(list: EventView[], canCreate: boolean, pager: EventsPager): Html {
  return html`${canCreate ? html`<p><a class="button" href="/dashboard/events/new">Create an event</a></p>` : ''}
${
  list.length === 0
    ? html`<div class="card"><p>${canCreate ? 'No events in this mode yet. Create one: it starts as a draft that only you can see.' : 'No events in this mode yet.'}</p></div>`
    : html`<div class="table-wrap"><table class="cards-narrow">
<caption class="muted">Newest start date first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Starts</th><th scope="col">Status</th><th scope="col" class="num">Seats taken</th><th scope="col" class="num">Price</th></tr></thead>
<tbody>${list.map(
        (
          e,
        ) => html`<tr><td data-label="Event"><a href="/dashboard/events/${encodeURIComponent(e.id)}">${e.title}</a></td><td data-label="Starts">${eventWhen(e.startDate)}</td><td data-label="Status">${badge(e.status)}</td>
<td class="num" data-label="Seats taken">${e.taken}${e.capacity > 0 ? ` / ${e.capacity}` : ''}</td><td class="num" data-label="Price">${e.price === 0 ? 'Free' : rupees(e.price)}</td></tr>`,
      )}</tbody></table></div>
${eventsPager(pager, list.length)}`
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
  /** What the viewer's role may do here: change the event (publish, door links, delete), open its door. */
  may: { manage: boolean; door: boolean; testInbox: boolean };
  availability: Availability;
  analytics: {
    totalRegistrations: number;
    confirmedCount: number;
    pendingCount: number;
    cancelledCount: number;
    refundedCount: number;
    checkedInCount: number;
    totalRevenue: number;
    fillRate: number | null;
  };
  door: { expected: number; arrived: number };
  doorPasses: {
    id: string;
    label: string;
    admitsFor: string;
    createdAt: string;
    expiresAt: string | null;
    revokedAt: string | null;
  }[];
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
export function trackTimes(t: {
  date: string | null;
  endDate: string | null;
  startsAt: string | null;
  endsAt: string | null;
}): string {
  const start = t.startsAt ?? t.date;
  const end = t.startsAt === null ? t.endDate : t.endsAt;
  if (start === null) return 'no time set';
  return eventWhen(start, end);
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
    (r) =>
      html`<tr><th scope="row" data-label="Session">${r.trackIndex === null ? r.title : `Track ${trackNumber(r.trackIndex)}: ${r.title}`}</th>${r.prices.map(
        (p, i) =>
          html`<td class="num" data-label="${types[i]?.name ?? p.ticketType}">${p.paise === 0 ? 'Free' : rupees(p.paise / 100)}</td>`,
      )}</tr>`,
  )}</tbody></table></div>
</section>`;
}
