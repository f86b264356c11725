// The hosted page's seat map (docs/decisions/23-reserved-seating.md): the event's seating plan drawn
// on the server as one inline SVG, a circle per seat at its place, coloured by category, with the
// stage as a bar; the legend with each category's price; the zoom buttons, the buyer's seats and
// "best available", which the page script (assets/checkout-seats.js) brings to life.
//
// A plan may have 50,000 seats, so a seat is as small as it can be: `<circle cx="12" r=".4"/>`.
// The seats of a row (in plan order) share a `<g>` that carries what they have in common: the
// section, the row, the category's colour class, the row's y (as its translation) and the first
// seat number, each next seat numbered one on (or one back, `data-d="-1"`). A seat says only what
// differs: its own y offset (`cy`, curved rows), number (`data-n`), category (`class="kN"`), id
// or label where the plan named them otherwise (`data-id`, `data-l`), and its marks: `w`
// accessible, and its status now, `h` held, `s` sold, `b` blocked (the letters of /seats/statuses).
// The script reads the seats back from this markup, in plan order, and names each one.
import { escapeHtml as h } from '../../lib/html.js';
import type { PriceRow } from '../events/events.service.js';
import type { Availability } from '../events/availability.js';
import type { EventPlan } from '../seat-holds/event-plan.js';
import type { Seat } from '../seating/plan.js';
import { money } from './layout.html.js';
import type { Strings } from './strings.js';

/** The colours of categories, in checkout.css: past eight they repeat (`cN` beside `kN`). */
const COLOURS = 8;
/** A seat's radius in the plan's units (seats sit one unit apart). */
const RADIUS = '.4';

export interface SeatMapFacts {
  plan: Pick<EventPlan, 'seats' | 'stage' | 'updatedAt'>;
  /** Each seat's status now, one letter per seat in plan order (a, h, s, b). */
  statuses: string;
}

/** A category of the plan as the page sells it: the tier of the same name. */
export interface SeatCategory {
  name: string;
  /** Per seat, in paise. */
  paise: number;
  /** The price as the page writes it ("₹1,500", "Free"). */
  price: string;
  onSale: boolean;
  membersOnly: boolean;
}

/**
 * The plan's categories in the order they first appear (their colour classes k0, k1, …), priced
 * as the sitting sells them (`track`: a seated track's index, null for the event's own plan).
 * `only`: a waitlist offer's category, the one on sale to its page.
 */
export function seatCategories(
  s: Strings,
  seats: readonly Seat[],
  prices: readonly PriceRow[],
  availability: Availability,
  sitting: { track: number | null; only?: string | undefined } = { track: null },
): SeatCategory[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const seat of seats)
    if (!seen.has(seat.category)) {
      seen.add(seat.category);
      names.push(seat.category);
    }
  const row = prices.find((r) => r.trackIndex === sitting.track);
  return names.map((name) => {
    const paise = row?.prices.find((p) => p.ticketType === name)?.paise ?? 0;
    const tier = availability.tiers.find((t) => t.name === name);
    return {
      name,
      paise,
      price: money(s, paise / 100),
      onSale: (tier?.onSale ?? true) && (sitting.only === undefined || sitting.only === name),
      membersOnly: tier?.membersOnly ?? false,
    };
  });
}

/** A number as short as SVG takes it: at most two decimals, no trailing zeros, no leading one (".4"). */
const n = (v: number) => String(Math.round(v * 100) / 100).replace(/^(-?)0\./, '$1.');

const colourClass = (k: number) => (k < COLOURS ? `k${k}` : `k${k} c${k % COLOURS}`);

/** The box around the seats and the stage, a seat's width of margin on each side. */
function bounds(plan: SeatMapFacts['plan']) {
  let [minX, maxX, minY, maxY] = [plan.stage.x, plan.stage.x, plan.stage.y, plan.stage.y];
  for (const seat of plan.seats) {
    if (seat.x < minX) minX = seat.x;
    if (seat.x > maxX) maxX = seat.x;
    if (seat.y < minY) minY = seat.y;
    if (seat.y > maxY) maxY = seat.y;
  }
  return { x: minX - 1, y: minY - 1, w: maxX - minX + 2, h: maxY - minY + 2 };
}

const STATUS_CLASS: Record<string, string> = { h: 'h', s: 's', b: 'b' };

/** One seat: only what its row does not already say. */
function seatElement(seat: Seat, rowY: number, expected: number, status: string, k: number | null): string {
  const classes = [k === null ? '' : colourClass(k), seat.accessible ? 'w' : '', STATUS_CLASS[status] ?? '']
    .filter((c) => c !== '')
    .join(' ');
  const dy = n(seat.y - rowY);
  return `<circle cx="${n(seat.x)}"${dy === '0' ? '' : ` cy="${dy}"`} r="${RADIUS}"${classes ? ` class="${classes}"` : ''}${
    seat.number === expected ? '' : ` data-n="${seat.number}"`
  }${seat.id === `${seat.section}-${seat.row}-${seat.number}` ? '' : ` data-id="${h(seat.id)}"`}${
    seat.label === `Row ${seat.row}, seat ${seat.number}` ? '' : ` data-l="${h(seat.label)}"`
  }/>`;
}

/** The seats from..to (one row's run in plan order) as one group. */
function rowGroup(
  seats: readonly Seat[],
  from: number,
  to: number,
  statuses: string,
  order: ReadonlyMap<string, number>,
): string {
  const first = seats[from]!;
  const k = order.get(first.category)!;
  const step = to - from > 1 && seats[from + 1]!.number === first.number - 1 ? -1 : 1;
  const out = [
    `<g class="${colourClass(k)}" data-s="${h(first.section)}" data-r="${h(first.row)}"${first.number === 1 ? '' : ` data-n="${first.number}"`}${step === 1 ? '' : ' data-d="-1"'} transform="translate(0 ${n(first.y)})">`,
  ];
  let expected = first.number;
  for (let i = from; i < to; i++) {
    const seat = seats[i]!;
    const own = order.get(seat.category)!;
    out.push(seatElement(seat, first.y, expected, statuses[i] ?? 'a', own === k ? null : own));
    expected = seat.number + step;
  }
  out.push('</g>');
  return out.join('');
}

/** Every seat, in plan order, grouped by runs of one row. */
function drawSeats(seats: readonly Seat[], statuses: string, order: ReadonlyMap<string, number>): string {
  const out: string[] = [];
  let from = 0;
  while (from < seats.length) {
    const { section, row } = seats[from]!;
    let to = from + 1;
    while (to < seats.length && seats[to]!.section === section && seats[to]!.row === row) to++;
    out.push(rowGroup(seats, from, to, statuses, order));
    from = to;
  }
  return out.join('\n');
}

/** The stage: a third of the plan's width, as most halls' are, and never a speck. */
function stage(s: Strings, plan: SeatMapFacts['plan'], box: ReturnType<typeof bounds>): string {
  const width = Math.max(4, (box.w - 2) / 3);
  const { x, y } = plan.stage;
  return `<g class="stage" aria-hidden="true"><rect x="${n(x - width / 2)}" y="${n(y - 0.35)}" width="${n(width)}" height=".7" rx=".2"/><text x="${n(x)}" y="${n(y)}">${h(s.stage)}</text></g>`;
}

/** A swatch for the legend: a seat drawn with the map's own classes. */
const swatch = (classes: string) =>
  `<svg class="swatch" viewBox="-.5 -.5 1 1" aria-hidden="true" focusable="false"><circle r="${RADIUS}" class="${classes}"/></svg>`;

function legend(s: Strings, categories: readonly SeatCategory[], plan: SeatMapFacts['plan']): string {
  const items = categories.map(
    (c, k) =>
      `<li>${swatch(colourClass(k))}<span class="legend-name">${h(c.name)}</span> <span class="legend-price">${h(c.price)}</span>${
        c.onSale ? '' : ` <span class="option-note">${h(s.notOnSale)}</span>`
      }${c.membersOnly ? ` <span class="option-note">${h(s.membersOnly)}</span>` : ''}</li>`,
  );
  const marks = [
    `<li>${swatch('k0 m')}${h(s.seatLegend.yours)}</li>`,
    `<li>${swatch('s')}${h(s.seatLegend.taken)}</li>`,
    ...(plan.seats.some((seat) => seat.blocked) ? [`<li>${swatch('b')}${h(s.seatLegend.blocked)}</li>`] : []),
    ...(plan.seats.some((seat) => seat.accessible)
      ? [`<li>${swatch('k0 w')}${h(s.seatLegend.accessible)}</li>`]
      : []),
  ];
  return `<ul class="seat-legend" aria-label="${h(s.seatLegend.title)}">${items.join('')}${marks.join('')}</ul>`;
}

/** "Best available": a category and how many seats; the page script holds them. */
function bestAvailable(
  s: Strings,
  categories: readonly SeatCategory[],
  maxSeats: number,
  accessible: boolean,
) {
  const options = categories
    .map(
      (c) =>
        `<option value="${h(c.name)}"${c.onSale ? '' : ' disabled'}>${h(c.name)} · ${h(c.price)}</option>`,
    )
    .join('');
  return `<fieldset id="best" class="best" hidden><legend>${h(s.best.title)}</legend>
<div class="best-row">
<div class="field"><label for="best-category">${h(s.best.category)}</label><select id="best-category">${options}</select></div>
<div class="field"><label for="best-quantity">${h(s.best.quantity)}</label><input type="number" id="best-quantity" min="1" max="${maxSeats}" value="1" inputmode="numeric" aria-describedby="best-quantity-hint"></div>
</div>
<p class="hint" id="best-quantity-hint">${h(s.best.quantityHint(maxSeats))}</p>
${accessible ? `<div class="field check"><input type="checkbox" id="best-accessible"> <label for="best-accessible">${h(s.best.accessibleOnly)}</label></div>` : ''}
<button type="button" class="secondary" id="best-find">${h(s.best.find)}</button>
</fieldset>`;
}

/** The seat map's section of the page, above the booking form. */
export function renderSeatMap(
  s: Strings,
  map: SeatMapFacts,
  categories: readonly SeatCategory[],
  maxSeats: number,
): string {
  const { plan } = map;
  const box = bounds(plan);
  const order = new Map(categories.map((c, k) => [c.name, k]));
  const accessible = plan.seats.some((seat) => seat.accessible);
  return `<section id="seats" class="seats" aria-labelledby="seats-title">
<h2 id="seats-title">${h(s.seatsTitle)}</h2>
<p class="hint" id="seat-map-hint">${h(s.seatsHint(maxSeats))}</p>
${legend(s, categories, plan)}
<div class="map-tools" id="map-tools" hidden>
<button type="button" class="secondary" id="map-zoom-in">${h(s.zoomIn)}</button>
<button type="button" class="secondary" id="map-zoom-out">${h(s.zoomOut)}</button>
<button type="button" class="secondary" id="map-whole">${h(s.wholePlan)}</button>
</div>
<div class="map-frame">
<svg id="seat-map" class="seatmap" viewBox="${n(box.x)} ${n(box.y)} ${n(box.w)} ${n(box.h)}" role="img" aria-label="${h(s.seatMapAlt(plan.seats.length))}" focusable="false">
${stage(s, plan, box)}
${drawSeats(plan.seats, map.statuses, order)}
</svg>
</div>
<p class="field-error" id="seat-map-error" hidden></p>
<div id="seat-error" class="error" role="alert" hidden></div>
<p class="hint seat-status" id="seat-status" role="status" aria-live="polite"></p>
<div id="chosen" class="chosen" hidden>
<h3 id="chosen-title">${h(s.yourSeats)}</h3>
<p class="hold-timer" id="hold-timer"></p>
<ul id="chosen-list" aria-labelledby="chosen-title"></ul>
</div>
${bestAvailable(s, categories, maxSeats, accessible)}
</section>`;
}

/** What the page script needs beside the markup: the categories (by colour class) and limits. */
export function seatMapConfig(
  map: SeatMapFacts,
  categories: readonly SeatCategory[],
  maxSeats: number,
  bookable: boolean,
) {
  const box = bounds(map.plan);
  const sections = new Set(map.plan.seats.map((seat) => seat.section));
  return {
    planUpdatedAt: map.plan.updatedAt.toISOString(),
    box,
    categories: categories.map((c) => ({
      name: c.name,
      price: c.price,
      paise: c.paise,
      onSale: c.onSale,
    })),
    maxSeats,
    sections: sections.size > 1,
    bookable,
  };
}

/**
 * A seated event's ticket types are its seats' categories: the page script ticks the one of the
 * seats held, so the order summary, the price and a members-only tier's proof follow the seats.
 * The buyer never picks one here.
 */
export function seatTiers(categories: readonly SeatCategory[], proof: string): string {
  const rows = categories.map(
    (c, i) =>
      `<div class="option"><input type="radio" name="ticketType" id="tier-${i}" value="${h(c.name)}"${c.membersOnly ? ' data-members-only' : ''}><label for="tier-${i}"><span class="option-name">${h(c.name)}</span> <span class="option-price">${h(c.price)}</span></label></div>`,
  );
  return `<div id="tier" hidden>${rows.join('')}</div>${proof}`;
}

/** A seated team event: a name and email for each seat after the buyer's, added as seats are chosen. */
export function seatTeam(s: Strings, maxSeats: number): string {
  if (maxSeats < 2) return '';
  return `<fieldset id="team" data-max="${maxSeats - 1}" data-seated hidden><legend>${h(s.team)}</legend>
<p class="hint">${h(s.seatTeamHint)}</p>
<div id="team-list"></div>
</fieldset>`;
}
