// The arithmetic of `npm run drop-sim` (bench/drop-sim-stats.ts) and its section of
// BENCHMARKS.md (bench/drop-sim-report.ts): a wrong test statistic or a lost section must fail
// here, not in a million-arrival run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { END, START, sectionOf, withSection } from '../../bench/drop-sim-report.js';
import {
  gammaQ,
  inversions,
  OpenSessions,
  orderIndependence,
  quantile,
  seededRandom,
} from '../../bench/drop-sim-stats.js';

describe('drop-sim statistics', () => {
  it('computes the chi-square tail as tables give it', () => {
    // chi-square with df = 2: Q(1, x / 2) = exp(-x / 2).
    assert.ok(Math.abs(gammaQ(1, 3) - Math.exp(-3)) < 1e-12);
    // df = 80 at its 5 % critical value 101.88 and its 0.1 % one 124.84; df = 10 at 1 %, 23.209.
    assert.ok(Math.abs(gammaQ(40, 101.88 / 2) - 0.05) < 1e-4);
    assert.ok(Math.abs(gammaQ(40, 124.84 / 2) - 0.001) < 1e-5);
    assert.ok(Math.abs(gammaQ(5, 23.209 / 2) - 0.01) < 1e-5);
    assert.equal(gammaQ(3, 0), 1);
  });

  it('does not reject a shuffled order and rejects an order kept by arrival', () => {
    const random = seededRandom(7);
    const n = 20_000;
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const arrival = order.map((_, i) => i);
    assert.ok(orderIndependence(arrival, order).p > 0.001);
    const kept = orderIndependence(arrival, arrival);
    assert.equal(kept.df, 81);
    assert.ok(kept.p < 1e-12);
  });

  it('counts inversions between arrivals at different times only', () => {
    assert.equal(inversions([0, 1, 2, 3], [1, 2, 3, 4], 4), 0);
    assert.equal(inversions([0, 1, 2, 3], [4, 3, 2, 1], 4), 6);
    // Arrivals at one moment may stand in either order.
    assert.equal(inversions([0, 0, 1, 1], [2, 1, 4, 3], 4), 0);
    assert.equal(inversions([0, 0, 1], [1, 3, 2], 3), 1);
  });

  it('takes quantiles and the most sessions open at once', () => {
    const v = Float64Array.from([5, 1, 4, 2, 3, 0, 0]);
    assert.equal(quantile(v, 5, 0.5), 3);
    assert.equal(quantile(v, 5, 1), 5);
    const s = new OpenSessions(10);
    for (const at of [0, 1, 2, 10, 11, 25]) s.start(at);
    assert.equal(s.most, 3);
  });

  it('replaces its section of BENCHMARKS.md and leaves the rest', () => {
    const section = `${START}\n## Drop simulation\nnew\n${END}\n`;
    const doc = `# Benchmarks\n\nbefore\n\n${START}\nold\n${END}\n\n## After\n`;
    const next = withSection(doc, section);
    assert.equal(next, `# Benchmarks\n\nbefore\n\n${section}\n## After\n`);
    assert.equal(sectionOf(next), section);
    assert.equal(withSection('# Benchmarks\n', section), `# Benchmarks\n\n${section}`);
  });
});
