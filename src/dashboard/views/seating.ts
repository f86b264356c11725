// The seating plan screens: the account's plans with a form to make one from a grid, and one plan
// drawn as it is (a server-rendered SVG, a seat per circle coloured by category, blocked seats
// crossed, accessible ones ringed, the stage marked), with forms to rename it and to block,
// release or mark seats by name. The counts are in a table beside the drawing.
import { categoriesOf, type SeatingPlanRow } from '../../modules/seating/seating-plans.js';
import { html, type Html } from '../html.js';
import { csrfField, when } from '../layout.js';

export const planPath = (id: string, rest = '') =>
  `/dashboard/seating-plans/${encodeURIComponent(id)}${rest}`;

/** Categories are coloured by their order in the plan; past eight the colours repeat. */
const CATEGORY_CLASSES = 8;

export type PlanSummary = Pick<SeatingPlanRow, 'id' | 'name' | 'seat_count' | 'updated_at'>;

/** The plans; `manage`: the role may make and change plans (otherwise no forms). */
export function plansPage(csrf: string, plans: readonly PlanSummary[], manage = true): Html {
  return html`<p>A seating plan is drawn once and used by any number of events: an event with a plan sells each category of seats as the ticket type of the same name.</p>
${
  plans.length === 0
    ? html`<p class="muted" id="plans-empty">No seating plans yet.</p>`
    : html`<div class="table-wrap"><table class="cards-narrow" id="plans"><caption class="muted">${plans.length} ${plans.length === 1 ? 'plan' : 'plans'}</caption>
<thead><tr><th scope="col">Name</th><th scope="col" class="num">Seats</th><th scope="col">Changed</th></tr></thead>
<tbody>${plans.map(
        (p) =>
          html`<tr><th scope="row" data-label="Name"><a href="${planPath(p.id)}">${p.name}</a></th><td data-label="Seats" class="num">${p.seat_count}</td><td data-label="Changed" class="nowrap">${when(p.updated_at)}</td></tr>`,
      )}</tbody></table></div>`
}
${manage ? newPlanForm(csrf) : ''}`;
}

function newPlanForm(csrf: string): Html {
  return html`<form method="post" action="/dashboard/seating-plans" class="card" id="new-plan">${csrfField(csrf)}
<h2>New plan from a grid</h2>
<div class="field"><label for="sp-name">Name</label><input id="sp-name" name="name" required maxlength="200" placeholder="Main hall"></div>
<div class="field"><label for="sp-section">Section</label><input id="sp-section" name="section" maxlength="40" value="Stalls"></div>
<div class="field"><label for="sp-rows">Rows</label><input id="sp-rows" name="rows" type="number" min="1" max="200" value="10" required></div>
<div class="field"><label for="sp-seats">Seats in each row</label><input id="sp-seats" name="seatsPerRow" type="number" min="1" max="500" value="20" required></div>
<div class="field"><label for="sp-categories">Categories, front row first</label><input id="sp-categories" name="categories" maxlength="2000" value="Gold, Silver" aria-describedby="sp-categories-help"><p class="hint" id="sp-categories-help">One per row from the front, separated by commas; the last one fills the rows after it.</p></div>
<div class="field"><label for="sp-aisles">Aisles after seat numbers</label><input id="sp-aisles" name="aisleAfter" maxlength="200" placeholder="10" aria-describedby="sp-aisles-help"><p class="hint" id="sp-aisles-help">Seat numbers an aisle follows, separated by commas; empty for none.</p></div>
<div class="field"><label for="sp-numbering">Seat 1 is, seen from the stage, on the</label><select id="sp-numbering" name="numbering"><option value="left-to-right">left</option><option value="right-to-left">right</option></select></div>
<div class="field"><label for="sp-curve">Curve of the rows (0 for straight)</label><input id="sp-curve" name="curve" type="number" min="0" max="50" step="0.5" value="0"></div>
<button>Make the plan</button>
</form>`;
}

export function planPage(csrf: string, plan: SeatingPlanRow, manage = true): Html {
  const categories = categoriesOf(plan.layout);
  const order = new Map<string, number>();
  for (const s of plan.layout.seats) if (!order.has(s.category)) order.set(s.category, order.size);
  const blocked = plan.layout.seats.filter((s) => s.blocked).length;
  const accessible = plan.layout.seats.filter((s) => s.accessible).length;
  return html`<p><a href="/dashboard/seating-plans">← Seating plans</a></p>
${drawing(plan, order)}
<section class="card" aria-labelledby="plan-numbers"><h2 id="plan-numbers">Categories</h2>
<div class="table-wrap"><table id="plan-categories"><thead><tr><th scope="col">Category</th><th scope="col" class="num">Seats for sale</th></tr></thead>
<tbody>${categories.map(
    (c) =>
      html`<tr><td><span class="swatch cat-${order.get(c.name)! % CATEGORY_CLASSES}" aria-hidden="true"></span> ${c.name}</td><td class="num">${c.seats}</td></tr>`,
  )}</tbody></table></div>
<p>${plan.seat_count} seats in all; ${blocked} blocked, ${accessible} accessible.</p>
</section>
${manage ? planForms(csrf, plan) : ''}`;
}

function planForms(csrf: string, plan: SeatingPlanRow): Html {
  return html`<form method="post" action="${planPath(plan.id, '/seats')}" class="card" id="edit-seats">${csrfField(csrf)}
<h2>Block, release or mark seats</h2>
<div class="field"><label for="es-seats">Seats</label><textarea id="es-seats" name="seats" rows="2" maxlength="20000" required aria-describedby="es-seats-help"></textarea><p class="hint" id="es-seats-help">Rows and numbers separated by commas, such as A1, A2, C5-C12. Where rows repeat across sections, put the section first: Balcony:A1-A4.</p></div>
<div class="field"><label for="es-action">Make them</label><select id="es-action" name="action"><option value="block">blocked (not for sale)</option><option value="release">for sale again</option><option value="accessible">accessible</option><option value="not-accessible">not accessible</option></select></div>
<button>Change the seats</button>
</form>
<form method="post" action="${planPath(plan.id, '/name')}" class="card" id="rename-plan">${csrfField(csrf)}
<h2>Name</h2>
<div class="field"><label for="rp-name">Name</label><input id="rp-name" name="name" required maxlength="200" value="${plan.name}"></div>
<button>Rename</button>
</form>`;
}

/** The plan drawn to scale: seats at their places, the stage as a bar, in the plan's own units. */
function drawing(plan: SeatingPlanRow, order: Map<string, number>): Html {
  const { seats, stage } = plan.layout;
  const xs = [...seats.map((s) => s.x), stage.x];
  const ys = [...seats.map((s) => s.y), stage.y];
  const [minX, maxX, minY, maxY] = [
    Math.min(...xs) - 1,
    Math.max(...xs) + 1,
    Math.min(...ys) - 1,
    Math.max(...ys) + 1,
  ];
  const n = (v: number) => Number(v.toFixed(2));
  // A third of the plan's width, as most halls' stages are, and never a speck.
  const stageWidth = Math.max(4, (maxX - minX) / 3);
  return html`<figure class="card seat-plan">
<svg class="plan" viewBox="${n(minX)} ${n(minY)} ${n(maxX - minX)} ${n(maxY - minY)}" role="img" aria-labelledby="plan-t plan-d" focusable="false">
<title id="plan-t">${plan.name}</title>
<desc id="plan-d">${seats.length} seats in ${order.size} ${order.size === 1 ? 'category' : 'categories'}, and the stage; the table below gives the counts.</desc>
<rect class="stage" x="${n(stage.x - stageWidth / 2)}" y="${n(stage.y - 0.3)}" width="${n(stageWidth)}" height="0.6"><title>Stage</title></rect>
${seats.map(
  (s) =>
    html`<circle class="seat cat-${order.get(s.category)! % CATEGORY_CLASSES}${s.blocked ? ' blocked' : ''}${s.accessible ? ' accessible' : ''}" cx="${n(s.x)}" cy="${n(s.y)}" r="0.4"><title>${s.label}${s.section === '' ? '' : `, ${s.section}`}, ${s.category}${s.blocked ? ', blocked' : ''}${s.accessible ? ', accessible' : ''}</title></circle>`,
)}
</svg>
<figcaption>${plan.name}, seen from above with the stage as a bar: seats coloured by category, grey seats blocked, ringed seats accessible. Changed ${when(plan.updated_at)}.</figcaption>
</figure>`;
}
