// The pure arithmetic of `npm run drop-sim` (bench/drop-sim.ts): a seeded random stream, the
// chi-square test of the pre-queue's order against a uniform shuffle, the count of inversions
// of later arrivals, percentiles, and the most sessions open at once. Unit-tested in
// test/unit/drop-sim-stats.test.ts.

import jStat from 'jstat';

/** The seeded generator the soak and reliability runs use, so a run's arrivals are the same for the same seed. */
export { seededRandom } from '../test/helpers/prng.js';

/**
 * The regularised upper incomplete gamma Q(a, x) = 1 − P(a, x), P from jStat (the chi-square tail
 * with df = 2a at 2x). The p-values compared here are far above the precision lost by the
 * subtraction.
 */
export function gammaQ(a: number, x: number): number {
  return x <= 0 ? 1 : 1 - jStat.lowRegGamma(a, x);
}

export interface ChiSquare {
  statistic: number;
  df: number;
  /** The chance of a statistic at least this large were the order a uniform shuffle. */
  p: number;
  groups: number;
}

/**
 * Whether places' positions are independent of their arrival: arrival rank and position (both
 * 0-based, 0 ≤ x < n) each cut into `groups` equal bands, the groups × groups table of counts
 * tested for independence (df = (groups − 1)²). Under a uniform shuffle every cell expects n / groups².
 */
export function orderIndependence(
  arrival: ArrayLike<number>,
  position: ArrayLike<number>,
  groups = 10,
): ChiSquare {
  const n = arrival.length;
  const table = new Float64Array(groups * groups);
  const rows = new Float64Array(groups);
  const cols = new Float64Array(groups);
  for (let i = 0; i < n; i++) {
    const a = Math.min(groups - 1, Math.floor((arrival[i]! * groups) / n));
    const b = Math.min(groups - 1, Math.floor((position[i]! * groups) / n));
    table[a * groups + b]! += 1;
    rows[a]! += 1;
    cols[b]! += 1;
  }
  let statistic = 0;
  for (let a = 0; a < groups; a++)
    for (let b = 0; b < groups; b++) {
      const expected = (rows[a]! * cols[b]!) / n;
      if (expected > 0) statistic += (table[a * groups + b]! - expected) ** 2 / expected;
    }
  const df = (groups - 1) ** 2;
  return { statistic, df, p: gammaQ(df / 2, statistic / 2), groups };
}

/**
 * Pairs that came in arrival order but stand the other way round: `time[i]` is when arrival i
 * came (non-decreasing in i; equal times are simultaneous and never counted), `position[i]` its
 * place (1 ≤ position ≤ maxPosition, distinct). A Fenwick tree over positions: O(n log n).
 */
export function inversions(
  time: ArrayLike<number>,
  position: ArrayLike<number>,
  maxPosition: number,
): number {
  const tree = new Int32Array(maxPosition + 1);
  const below = (p: number) => {
    let s = 0;
    for (let i = p; i > 0; i -= i & -i) s += tree[i]!;
    return s;
  };
  let inserted = 0;
  let count = 0;
  let start = 0;
  for (let i = 0; i <= time.length; i++) {
    if (i < time.length && time[i] === time[start]) continue;
    // Arrivals start..i-1 came at one time: count them against the earlier ones, then insert them.
    for (let j = start; j < i; j++) count += inserted - below(position[j]!);
    for (let j = start; j < i; j++) {
      for (let k = position[j]!; k <= maxPosition; k += k & -k) tree[k]! += 1;
      inserted += 1;
    }
    start = i;
  }
  return count;
}

/** The q-quantile (0..1) of the first `n` values (sorted in place). */
export function quantile(values: Float64Array, n: number, q: number): number {
  if (n === 0) return Number.NaN;
  const sorted = values.subarray(0, n).sort();
  return sorted[Math.min(n - 1, Math.ceil(q * n) - 1)]!;
}

/** The most sessions open at once: each starts at `starts[i]` (non-decreasing) and lasts `lengthMs`. */
export class OpenSessions {
  readonly #lengthMs: number;
  #starts: number[] = [];
  #head = 0;
  most = 0;
  constructor(lengthMs: number) {
    this.#lengthMs = lengthMs;
  }
  start(at: number): void {
    while (this.#head < this.#starts.length && this.#starts[this.#head]! + this.#lengthMs <= at) this.#head++;
    this.#starts.push(at);
    if (this.#head > 10_000) {
      this.#starts = this.#starts.slice(this.#head);
      this.#head = 0;
    }
    this.most = Math.max(this.most, this.#starts.length - this.#head);
  }
}
