// Server-rendered HTML of the hosted checkout's event page. Every value from the database goes
// through escapeHtml; the page's configuration travels in a JSON data block (not
// executed, so the CSP needs no inline script), with `<` escaped.
import { escapeHtml as h } from '../../lib/html.js';
import { eventSpan, formatSpan } from '../../lib/event-time.js';
import type { Availability } from '../events/availability.js';
import type { PriceRow } from '../events/events.service.js';
import type { pageFacts } from './checkout.service.js';
import { jsonBlock, layout, money, paragraphs, RAZORPAY_CHECKOUT_JS, type Assets } from './layout.html.js';
import type { Strings } from './strings.js';
import { memberProof } from './member-proof.html.js';
import { paymentMethodChoices } from './payment-methods.html.js';
import {
  availabilityNote,
  errorSlot,
  option,
  otherSessionLink,
  sessionChoices,
  sessionPicker,
} from './session-choices.html.js';
import { renderWaitingRoom, type RoomFacts } from './waiting-room.html.js';
import { MAX_SEATS_PER_HOLD } from '../seat-holds/hold-seats.service.js';
import {
  renderSeatMap,
  seatCategories,
  seatMapConfig,
  seatTeam,
  seatTiers,
  type SeatMapFacts,
} from './seat-map.html.js';

type Shown = Awaited<ReturnType<typeof pageFacts>>['shown'];

/** When, for people, in the event's time zone: "Sat 12 Dec 2026, 10:00 am – 5:30 pm IST". */
export function formatWhen(startDate: string | null, endDate: string | null, timeZone: string): string {
  return formatSpan(eventSpan(startDate, endDate, timeZone), timeZone) ?? '';
}

/**
 * A ticket type's price: the one price when every session on sale agrees, else the range (until
 * a session is chosen, when the page script says the chosen session's).
 */
function tierPrice(s: Strings, prices: PriceRow[], ticketType: string): string {
  const all = prices
    .map((r) => r.prices.find((p) => p.ticketType === ticketType)?.paise)
    .filter((p): p is number => p !== undefined);
  if (all.length === 0) return '';
  const [low, high] = [Math.min(...all), Math.max(...all)];
  return low === high ? money(s, low / 100) : `${money(s, low / 100)} – ${money(s, high / 100)}`;
}

function tierChoices(s: Strings, p: PageInput): string {
  const { availability, prices } = p.facts;
  if (availability.tiers.length === 0) return '';
  const rows = [
    option('ticketType', 'General', s.general, tierPrice(s, prices, 'General'), '', {
      id: 'tier-general',
      checked: true,
      disabled: availability.soldOut,
    }),
    ...availability.tiers.map((t, i) => {
      const notes = [
        t.membersOnly ? s.membersOnly : '',
        !t.onSale ? s.notOnSale : availabilityNote(s, t.remaining, t.soldOut),
      ].filter((x) => x);
      return option('ticketType', t.name, t.name, tierPrice(s, prices, t.name), notes.join(' · '), {
        id: `tier-${i}`,
        disabled: t.soldOut || !t.onSale,
        membersOnly: t.membersOnly,
      });
    }),
  ];
  // Shown by the page script while a members-only tier is chosen: the proof a browser must send.
  const proof = availability.tiers.some((t) => t.membersOnly) ? memberProof(s, p) : '';
  return `<fieldset class="choices" id="tier" role="radiogroup" aria-describedby="tier-error"><legend>${h(s.ticket)}</legend>${rows.join('\n')}${errorSlot('tier')}${proof}</fieldset>`;
}

function questions(s: Strings, shown: Shown): string {
  if (shown.customFields.length === 0) return '';
  const rows = shown.customFields.map((f, i) => {
    const id = `q-${i}`;
    const req = f.required ? ' required' : '';
    const label = `${h(f.label)}${f.required ? ` <span class="req">(${h(s.required)})</span>` : ''}`;
    const data = `data-field="${h(f.name)}" data-type="${h(f.type)}"`;
    switch (f.type) {
      case 'checkbox':
        return `<div class="field check"><input type="checkbox" id="${id}" ${data}${req}> <label for="${id}">${label}</label>${errorSlot(id)}</div>`;
      case 'select':
        return `<div class="field"><label for="${id}">${label}</label><select id="${id}" ${data}${req}><option value="">${h(s.choose)}</option>${(
          f.options ?? []
        )
          .map((o) => `<option>${h(o)}</option>`)
          .join('')}</select>${errorSlot(id)}</div>`;
      default: {
        const type = f.type === 'number' ? 'number' : f.type === 'email' ? 'email' : 'text';
        return `<div class="field"><label for="${id}">${label}</label><input type="${type}" id="${id}" ${data} maxlength="1000"${type === 'number' ? ' step="any"' : ''}${req}>${errorSlot(id)}</div>`;
      }
    }
  });
  return `<fieldset><legend>${h(s.questions)}</legend>${rows.join('\n')}</fieldset>`;
}

function team(s: Strings, shown: Shown): string {
  if (shown.maxTeamSize < 2) return '';
  return `<fieldset id="team" data-max="${shown.maxTeamSize - 1}"><legend>${h(s.team)}</legend>
<p class="hint">${h(s.teamHint(shown.maxTeamSize - 1))}</p>
<div id="team-list"></div>
<button type="button" class="secondary" id="add-member">${h(s.script.addMember)}</button>
</fieldset>`;
}

export interface PageInput {
  strings: Strings;
  assets: Assets;
  facts: Awaited<ReturnType<typeof pageFacts>>;
  slug: string;
  mode: 'test' | 'live';
  embed: 'inline' | 'overlay' | 'popup' | 'none';
  origin: string | null;
  key: string | null;
  /** The event's time zone (EVENT_TIME_ZONE). */
  timeZone: string;
  /** Opened from a waitlist offer's link: the seat it holds (of `ticketType`, on track `track`), and until when. */
  offer?: { token: string; until: string; ticketType?: string; track?: number | null } | undefined;
  /** The plans of the event's account and mode: a members-only tier's "Not a member? Join" links to them. */
  joinPlans?: { name: string; slug: string }[] | undefined;
  /** Opened by the organiser's preview link: its token rides on every call; a live draft's preview takes no bookings. */
  preview?: { token: string; bookable: boolean } | undefined;
  /** A seated event: its plan and its seats' statuses now, for the seat map above the form. */
  seatMap?: SeatMapFacts | undefined;
  /** An event seated track by track: the session whose map is drawn (`seatMap`), or null before one is chosen. */
  seatTracks?: { chosen: number | null } | undefined;
  /** The event's waiting room is on: its steps come before the form, which shows once the queue admits the buyer. */
  room?: RoomFacts | undefined;
}

/** A seated event's map, its categories, and how many seats one booking takes (one per person). */
function seating(p: PageInput) {
  if (!p.seatMap) return undefined;
  const categories = seatCategories(p.strings, p.seatMap.plan.seats, p.facts.prices, p.facts.availability, {
    track: p.seatTracks?.chosen ?? null,
    only: p.offer?.ticketType,
  });
  // A waitlist offer books one seat; otherwise the buyer and the team, within one hold.
  const maxSeats = p.offer ? 1 : Math.min(MAX_SEATS_PER_HOLD, Math.max(1, p.facts.shown.maxTeamSize));
  const bookable = p.preview === undefined || p.preview.bookable;
  return {
    categories,
    maxSeats,
    html: renderSeatMap(p.strings, p.seatMap, categories, maxSeats),
    config: seatMapConfig(p.seatMap, categories, maxSeats, bookable),
  };
}
type Seating = ReturnType<typeof seating>;

/**
 * The prices the page script reads for the tier list and the order summary: per person, in
 * paise, for each session on sale ('' the whole event, else the track's index) and ticket type.
 */
function priceConfig(prices: PriceRow[]) {
  return {
    currency: 'INR',
    sessions: Object.fromEntries(
      prices.map((r) => [
        r.trackIndex === null ? '' : String(r.trackIndex),
        Object.fromEntries(r.prices.map((x) => [x.ticketType, x.paise])),
      ]),
    ),
  };
}

/** The order summary, filled in by the page script as the buyer chooses; the total is announced as it changes. */
function summary(s: Strings, shown: Shown, availability: Availability, seated: boolean): string {
  const row = (key: string, label: string, value: string, hidden = false) =>
    `<div id="sum-${key}"${hidden ? ' hidden' : ''}><dt>${h(label)}</dt><dd>${h(value)}</dd></div>`;
  const tracks = shown.tracks.length > 0;
  return `<section id="summary" class="summary" aria-labelledby="summary-title">
<h2 id="summary-title">${h(s.summary)}</h2>
<dl>
${tracks ? row('session', s.summarySession, s.script.notChosen) : ''}
${seated ? row('seats', s.summarySeats, s.script.notChosen) : ''}
${availability.tiers.length > 0 && !seated ? row('tier', s.summaryTicket, s.general) : ''}
${seated ? row('tier', s.summaryTicket, '', true) : ''}
${row('quantity', s.summaryQuantity, '1')}
${row('price', s.summaryPrice, tracks ? '—' : money(s, shown.price))}
${row('discount', s.summaryDiscount, '', true)}
<div id="sum-total" class="total"><dt>${h(s.summaryTotal)}</dt><dd aria-live="polite">${h(tracks ? '—' : money(s, shown.price))}</dd></div>
</dl>
</section>`;
}

/** The button says what pressing it does: "Register" for a free choice, "Pay ₹X" for a paid one. */
function submitLabel(s: Strings, shown: Shown, seated: boolean): string {
  if (seated) return s.chooseSeatsFirst;
  if (shown.tracks.length > 0) return s.chooseSessionFirst;
  return shown.price > 0 ? s.script.payAmount.replace('{amount}', money(s, shown.price)) : s.register;
}

/**
 * Sold out with a waitlist: a plain form (no script needed) that takes a name. It carries
 * the key, the origin and the embedding the page was opened with, so the answer (or a
 * refusal) links back to the same page in the same widget.
 */
function waitlistForm(p: PageInput): string {
  return `<form id="waitlist-form" method="post" action="/e/${h(encodeURIComponent(p.slug))}/waitlist">
<h2>Join the waitlist</h2>
<p class="hint">If a seat comes free, the first in line gets a mail with a link that holds it for them for a while.</p>
${p.key ? `<input type="hidden" name="key" value="${h(p.key)}">` : ''}
${p.preview ? `<input type="hidden" name="preview" value="${h(p.preview.token)}">` : ''}
${p.origin ? `<input type="hidden" name="origin" value="${h(p.origin)}">` : ''}
${p.embed !== 'none' ? `<input type="hidden" name="embed" value="${h(p.embed)}">` : ''}
<div class="field"><label for="wl-name">Name</label><input id="wl-name" name="name" autocomplete="name" required maxlength="200"></div>
<div class="field"><label for="wl-email">Email</label><input id="wl-email" name="email" type="email" autocomplete="email" required maxlength="254"></div>
<button type="submit" id="waitlist-submit">Join the waitlist</button>
</form>`;
}

export function renderEventPage(p: PageInput): string {
  const s = p.strings;
  const { shown, availability } = p.facts;
  // The map stands above the form, and only where the form is.
  const seated = availability.soldOut && p.offer === undefined ? undefined : seating(p);
  // Sold out already, the page says so and offers the waitlist: no queue is needed.
  const room = availability.soldOut && p.offer === undefined ? undefined : p.room;
  const config = {
    slug: p.slug,
    mode: p.mode,
    embed: p.embed,
    origin: p.origin,
    key: p.key,
    title: shown.title,
    prices: priceConfig(p.facts.prices),
    strings: s.script,
    ...(p.offer ? { offer: p.offer.token } : {}),
    ...(p.preview ? { preview: p.preview.token } : {}),
    ...(seated ? { seatMap: { ...seated.config, track: chosenTrack(p) } } : {}),
    ...(room ? { room: { ...room, timeZone: p.timeZone, worker: p.assets.powWorker } } : {}),
  };
  const when = formatWhen(shown.startDate, shown.endDate, p.timeZone);
  const facts = [
    // The confirmation puts the booked session's time here (checkout-page.js).
    when
      ? `<div><dt>${h(s.date)}</dt><dd id="event-when"><time datetime="${h(shown.startDate ?? '')}">${h(when)}</time></dd></div>`
      : '',
    shown.location ? `<div><dt>${h(s.venue)}</dt><dd>${h(shown.location)}</dd></div>` : '',
  ].join('');
  const offered = p.offer !== undefined;
  const body = `<main class="page" id="main">
<header>
<h1 id="event-title">${h(shown.title)}</h1>
${p.mode === 'test' ? `<p class="badge">${h(s.testMode)}</p>` : ''}
${p.preview ? `<p class="notice" id="preview-note" role="note">${h(p.preview.bookable ? s.previewNote : s.previewDraftNote)}</p>` : ''}
${facts ? `<dl class="facts">${facts}</dl>` : ''}
</header>
${shown.description.trim() ? `<section class="description" aria-label="${h(s.about)}">${paragraphs(shown.description)}</section>` : ''}
${room ? renderWaitingRoom(s, room, availability.waitlist?.enabled ? waitlistForm(p) : '') : ''}
<div id="booking"${room ? ' hidden' : ''}>
${room ? `<p class="notice queue-session" id="queue-session" tabindex="-1"></p><p class="visually-hidden" id="queue-session-live" aria-live="polite"></p>` : ''}
${seated ? seated.html : ''}
${bookingForm(p, seated)}
</div>
<section id="result" class="result" tabindex="-1" aria-live="polite" hidden></section>
<noscript><p class="notice">${h(s.noScript)}</p></noscript>
</main>
${jsonBlock('svc-config', config)}`;
  const gateway =
    p.mode === 'live' && (!availability.soldOut || offered)
      ? `<script src="${RAZORPAY_CHECKOUT_JS}" defer></script>\n`
      : '';
  return layout(s, s.pageTitle(shown.title), p.assets, body, {
    bodyClass: `embed-${p.embed}`,
    head: `${gateway}<script src="${h(p.assets.js)}" defer></script>`,
  });
}

/** The track whose seats the map shows, for an event seated track by track (the map's calls name it). */
const chosenTrack = (p: PageInput) =>
  p.seatTracks?.chosen === null || p.seatTracks === undefined ? null : String(p.seatTracks.chosen);

/** The sessions above the form: seated track by track, the chosen one alone and the way back to the others. */
function sessions(p: PageInput): string {
  const chosen = p.seatTracks?.chosen;
  if (chosen === undefined || chosen === null)
    return sessionChoices(p.strings, p.facts.shown, p.facts.sessions, p.timeZone);
  const only = sessionChoices(p.strings, p.facts.shown, p.facts.sessions, p.timeZone, { only: chosen });
  return `${only}${otherSessionLink(p.strings, p)}`;
}

/** The booking form; sold out (and no waitlist offer held), the notice and the waitlist's form instead. */
function bookingForm(p: PageInput, seated: Seating): string {
  const s = p.strings;
  const { shown, availability } = p.facts;
  const offered = p.offer !== undefined;
  if (availability.soldOut && !offered)
    return `<p class="notice" id="sold-out" role="status">${h(s.soldOutLong)}</p>${p.facts.availability.waitlist?.enabled ? waitlistForm(p) : ''}`;
  // Seated track by track: the session first, then its seats and the form.
  if (p.seatTracks?.chosen === null && !offered)
    return sessionPicker(s, shown, p.facts.sessions, p.timeZone, p);
  // novalidate: the page script checks the fields and shows each error at its field.
  return `<form id="register-form" novalidate${seated ? ' data-seated' : ''}>
${
  offered
    ? `<p class="notice" id="offer-held" role="status">A seat is held for you until ${h(p.offer!.until)}. Book it before then; after that it passes to the next person waiting.</p>`
    : sessions(p)
}
${seated ? seatTiers(seated.categories, !offered && seated.categories.some((c) => c.membersOnly) ? memberProof(s, p) : '') : offered ? '' : tierChoices(s, p)}
<fieldset><legend>${h(s.yourDetails)}</legend>
<div class="field"><label for="name">${h(s.name)}</label><input id="name" name="name" autocomplete="name" required maxlength="200">${errorSlot('name')}</div>
<div class="field"><label for="email">${h(s.email)}</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" aria-describedby="email-hint"><p class="hint" id="email-hint">${h(s.emailHint)}</p>${errorSlot('email')}</div>
<div class="field"><label for="phone">${h(s.phone)}</label><input id="phone" name="phone" type="tel" autocomplete="tel" maxlength="32">${errorSlot('phone')}</div>
</fieldset>
${questions(s, shown)}
${offered ? '' : seated ? seatTeam(s, seated.maxSeats) : team(s, shown)}
<div class="field"><label for="promo">${h(s.promo)}</label><div class="promo-row"><input id="promo" name="promoCode" maxlength="40" autocomplete="off"><button type="button" class="secondary" id="promo-apply">${h(s.script.applyCode)}</button></div>${errorSlot('promo')}<p class="hint promo-status" id="promo-status" role="status" aria-live="polite"></p></div>
${paymentMethodChoices(s, shown.offlinePayment, { price: shown.price, prices: p.facts.prices, waitlistOffer: offered })}
${summary(s, shown, availability, seated !== undefined)}
<div id="form-error" class="error" role="alert" tabindex="-1" hidden></div>
<button type="submit" id="submit"${p.preview && !p.preview.bookable ? ' disabled' : ''}>${h(submitLabel(s, shown, seated !== undefined))}</button>
</form>`;
}
