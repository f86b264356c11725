// The SVG charts' arithmetic: gaps filled, windows capped, round axis steps, and
// the numbers told to screen readers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { barChart, dailyBars, niceMax, slotBars } from '../../src/dashboard/charts.js';

describe('dashboard charts', () => {
  it('fills the days between sales with zeros', () => {
    const day = Math.floor(Date.UTC(2030, 6, 10) / 86_400_000);
    const bars = dailyBars([
      { day, tickets: 3 },
      { day: day + 3, tickets: 1 },
    ]);
    assert.deepEqual(
      bars.map((b) => b.value),
      [3, 0, 0, 1],
    );
    assert.equal(bars[0]!.label, '10 Jul');
  });

  it('keeps only the last slots when there are too many, labelled in India time', () => {
    const slot = Math.floor(Date.UTC(2030, 6, 12, 13, 30) / 900_000); // 19:00 IST
    const bars = slotBars([
      { slot: slot - 500, arrivals: 9 },
      { slot, arrivals: 4 },
      { slot: slot + 1, arrivals: 2 },
    ]);
    assert.equal(bars.length, 96);
    assert.deepEqual(
      bars.slice(-2).map((b) => [b.label, b.value]),
      [
        ['19:00', 4],
        ['19:15', 2],
      ],
    );
  });

  it('chooses round axis steps', () => {
    assert.deepEqual(niceMax(0), { max: 1, step: 1 });
    assert.deepEqual(niceMax(3), { max: 3, step: 1 });
    assert.deepEqual(niceMax(37), { max: 40, step: 10 });
    assert.deepEqual(niceMax(180), { max: 200, step: 50 });
  });

  it('renders an SVG with a title and a description, and escapes labels', () => {
    const svg = barChart('c', 'Tickets <per> day', [{ label: 'a&b', value: 2 }], 'tickets').value;
    assert.match(svg, /<svg class="chart"[^>]* role="img" aria-labelledby="c-t c-d"/);
    assert.match(svg, /<title id="c-t">Tickets &lt;per&gt; day<\/title>/);
    assert.match(svg, /2 tickets from a&amp;b to a&amp;b/);
    assert.doesNotMatch(svg, /style=/);
    assert.match(barChart('e', 'Empty', [], 'x').value, /Nothing to show yet/);
  });
});
