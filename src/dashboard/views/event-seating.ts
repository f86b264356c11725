// The event setup screen's seating (docs/decisions/23-reserved-seating.md): which of the account's
// plans the event's seats are sold from (with tracks, every track's, one plan for all of them: a
// track of its own plan is set through the API), chosen in one select. Seating adds a tier for
// each of the plan's categories the event lacks, at the event's price; the tiers table then sets
// each category's price.
import { html, type Html } from '../html.js';
import { csrfField } from '../layout.js';
import type { EventView } from './events.js';

export interface PlanChoice {
  id: string;
  name: string;
  seats: number;
}

/** The plan the event (or every one of its tracks) is sold from; undefined when its tracks differ. */
function planOf(e: EventView): string | null | undefined {
  if (e.tracks.length === 0) return e.seatingPlanId;
  const ids = new Set(e.tracks.map((t) => t.seatingPlanId));
  return ids.size === 1 ? [...ids][0]! : undefined;
}

export function seatingSection(
  csrf: string,
  e: EventView,
  base: string,
  plans: PlanChoice[],
  plansScreen = true,
): Html {
  const current = planOf(e);
  const name = plans.find((p) => p.id === current)?.name;
  const what = e.tracks.length > 0 ? 'every track' : 'the event';
  const now =
    current === undefined
      ? 'Its tracks are sold from different plans (set through the API).'
      : current === null
        ? 'Not seated: buyers get a ticket, not a seat.'
        : `Seated: ${what} sold from ${name ?? current}.`;
  return html`<section aria-labelledby="seating-h"><h2 id="seating-h">Seating</h2>
<p id="seating-now">${now}</p>
${
  plans.length === 0
    ? html`<p class="muted">No seating plans yet: ${plansScreen ? html`<a href="/dashboard/seating-plans">make one</a>` : 'an owner or admin makes one under Seating plans'} to sell seats.</p>`
    : html`<form method="post" action="${base}/seating" class="card">${csrfField(csrf)}
<label for="seating-plan">Sell ${what}’s seats from</label>
<select id="seating-plan" name="seatingPlanId" aria-describedby="seating-hint">
<option value=""${current === null ? html` selected` : ''}>No seating plan</option>
${plans.map(
  (p) =>
    html`<option value="${p.id}"${p.id === current ? html` selected` : ''}>${p.name} (${String(p.seats)} seats)</option>`,
)}
</select>
<p class="hint" id="seating-hint">Each category of the plan is sold as the ticket tier of that name: a missing tier is added at the event’s price (set its price in the tiers above). Capacities become the plan’s seats.${e.tracks.length > 0 ? ' Each track is a showing of its own: a seat is sold once in each.' : ''}</p>
<p><button>Save seating</button></p></form>`
}
</section>`;
}
