// Server-rendered SVG charts: no script, no styles inline (the CSP allows neither),
// a <title> and <desc> for screen readers and the numbers in a table beside each chart.
import { html, type Html } from './html.js';

export interface Bar {
  label: string;
  value: number;
}

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;
const SLOT_MS = 15 * 60_000;

const dayLabel = (day: number) =>
  new Date(day * DAY_MS).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const slotLabel = (slot: number) => new Date(slot * SLOT_MS + IST_OFFSET_MS).toISOString().slice(11, 16);

/** Days (IST) from the first sale to the last, gaps filled with 0; at most the last `max` days. */
export function dailyBars(rows: readonly { day: number; tickets: number }[], max = 60): Bar[] {
  return fill(
    rows.map((r) => ({ key: r.day, value: r.tickets })),
    max,
    dayLabel,
  );
}

/** 15-minute slots (labelled in IST) from the first arrival to the last; at most the last `max` slots. */
export function slotBars(rows: readonly { slot: number; arrivals: number }[], max = 96): Bar[] {
  return fill(
    rows.map((r) => ({ key: r.slot, value: r.arrivals })),
    max,
    slotLabel,
  );
}

function fill(rows: { key: number; value: number }[], max: number, label: (k: number) => string): Bar[] {
  if (rows.length === 0) return [];
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const last = Math.max(...rows.map((r) => r.key));
  const first = Math.max(Math.min(...rows.map((r) => r.key)), last - max + 1);
  const out: Bar[] = [];
  for (let k = first; k <= last; k++) out.push({ label: label(k), value: byKey.get(k) ?? 0 });
  return out;
}

/** A step for the y axis that gives at most about five gridlines of round numbers. */
export function niceMax(value: number): { max: number; step: number } {
  if (value <= 0) return { max: 1, step: 1 };
  const rough = value / 4;
  const mag = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= rough)!;
  const stepped = Math.max(1, step);
  return { max: Math.ceil(value / stepped) * stepped, step: stepped };
}

export function barChart(id: string, title: string, bars: readonly Bar[], unit: string): Html {
  if (bars.length === 0) return html`<p class="muted">Nothing to show yet.</p>`;
  const W = 640;
  const H = 220;
  const left = 40;
  const bottom = 28;
  const top = 10;
  const plotW = W - left - 10;
  const plotH = H - top - bottom;
  const { max, step } = niceMax(Math.max(...bars.map((b) => b.value)));
  // Few bars stay bars, not slabs.
  const bw = Math.min(plotW / bars.length, 48);
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const grid = [];
  for (let v = 0; v <= max; v += step) {
    grid.push(
      html`<line class="axis" x1="${left}" x2="${W - 10}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`,
    );
  }
  const every = Math.ceil(bars.length / 8);
  const total = bars.reduce((s, b) => s + b.value, 0);
  const peak = bars.reduce((a, b) => (b.value > a.value ? b : a), bars[0]!);
  return html`<figure class="card">
<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-t ${id}-d" focusable="false">
<title id="${id}-t">${title}</title>
<desc id="${id}-d">${total} ${unit} from ${bars[0]!.label} to ${bars[bars.length - 1]!.label}; the most, ${peak.value}, at ${peak.label}.</desc>
${grid}
${bars.map((b, i) => {
  const h = (b.value / max) * plotH;
  return html`<rect class="bar" x="${(left + i * bw + bw * 0.1).toFixed(1)}" y="${(top + plotH - h).toFixed(1)}" width="${Math.max(1, bw * 0.8).toFixed(1)}" height="${h.toFixed(1)}"><title>${b.label}: ${b.value}</title></rect>`;
})}
${bars.map((b, i) => (i % every === 0 ? html`<text x="${(left + i * bw + bw / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${b.label}</text>` : ''))}
</svg>
<figcaption>${title}</figcaption>
<details><summary>The numbers</summary><div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col" class="num">${unit}</th></tr></thead>
<tbody>${bars.filter((b) => b.value > 0).map((b) => html`<tr><td>${b.label}</td><td class="num">${b.value}</td></tr>`)}</tbody></table></div></details>
</figure>`;
}
