// The event setup screen: details, tracks, ticket tiers, seating, the prices buyers see,
// questions and promo codes.
import type { PriceRow } from '../../modules/events/events.service.js';
import { html, type Html } from '../html.js';
import { type PlanChoice, seatingSection } from './event-seating.js';
import { csrfField, rupees, when } from '../layout.js';
import {
  eventForm,
  eventTabs,
  type EventView,
  localInput,
  priceTableView,
  type PromoView,
  trackNumber,
  trackTimes,
} from './events.js';

export function setup(
  csrf: string,
  e: EventView,
  promos: PromoView[],
  prices: PriceRow[],
  plans: PlanChoice[],
  /** Whether the role reaches the seating plans screen (a member limited to events does not). */
  plansScreen = true,
): Html {
  const base = `/dashboard/events/${encodeURIComponent(e.id)}`;
  return html`${eventTabs(e, 'setup')}
<h2>Event details</h2>
${eventForm(csrf, base, e, 'Save changes')}

${tracksSection(csrf, e, base)}

${tiersSection(csrf, e, base)}

${seatingSection(csrf, e, base, plans, plansScreen)}

${priceTableView(e, prices)}

${questionsSection(csrf, e, base)}

${promosSection(csrf, promos, base)}`;
}

function tracksSection(csrf: string, e: EventView, base: string): Html {
  return html`<section aria-labelledby="tracks-h"><h2 id="tracks-h">Tracks</h2>
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
</section>`;
}

function tiersSection(csrf: string, e: EventView, base: string): Html {
  return html`<section aria-labelledby="tiers-h"><h2 id="tiers-h">Ticket tiers</h2>
${
  e.specialPrices.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Tier</th><th scope="col" class="num">Price</th><th scope="col" class="num">Capacity</th><th scope="col">Members only</th><th scope="col"><span class="muted">Remove</span></th></tr></thead>
<tbody>${e.specialPrices.map(
        (
          t,
        ) => html`<tr><td>${t.name}</td><td class="num"><form method="post" action="${base}/tiers/price" class="tier-price">${csrfField(csrf)}<input type="hidden" name="name" value="${t.name}"><input name="price" type="number" min="0" step="0.01" required value="${t.price}" aria-label="Price of ${t.name} in rupees"> <button class="secondary" aria-label="Save the price of ${t.name}">Save</button></form></td><td class="num">${t.capacity || '—'}</td><td>${t.membersOnly ? 'yes' : 'no'}</td>
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
</section>`;
}

function questionsSection(csrf: string, e: EventView, base: string): Html {
  return html`<section aria-labelledby="q-h"><h2 id="q-h">Questions</h2>
${
  e.customFields.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Label</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col"><span class="muted">Remove</span></th></tr></thead>
<tbody>${e.customFields.map(
        (
          f,
        ) => html`<tr><td class="mono">${f.name}</td><td>${f.label}</td><td>${f.type}${f.options ? ` (${f.options.join(', ')})` : ''}</td><td>${f.required ? 'yes' : 'no'}</td>
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
</section>`;
}

function promosSection(csrf: string, promos: PromoView[], base: string): Html {
  return html`<section aria-labelledby="promo-h"><h2 id="promo-h">Promo codes</h2>
${
  promos.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Code</th><th scope="col">Discount</th><th scope="col">Valid</th><th scope="col" class="num">Used</th></tr></thead>
<tbody>${promos.map(
        (
          p,
        ) => html`<tr><td class="mono">${p.code}</td><td>${p.discountPercent !== null ? `${p.discountPercent} %` : rupees(p.discountAmount ?? 0)}</td>
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
