// How many buyers at the head of a queue are admitted at a moment, from the room's cursor: `base`
// admitted at `anchorMs`, then one every 60 000 / rate ms. Pure, so the Redis script
// (redis-scripts.ts) and the PostgreSQL store compute the same thing.

export interface Cursor {
  base: number;
  anchorMs: number;
  /** admitPerMinute the cursor runs at. */
  rate: number;
}

/** Later arrivals score this plus their arrival number, after every place of the shuffled pre-queue. */
export const LATE_OFFSET = 1_000_000_000_000;

const grown = (c: Cursor, now: number) => Math.floor((Math.max(0, now - c.anchorMs) * c.rate) / 60_000);

/**
 * The admitted count at `now` for a queue of `total` places, and the cursor to keep: re-anchored when
 * the rate changed (the old rate counts until now) or when admission caught up with the queue (a
 * slot nobody was waiting for is not saved up for a burst of later arrivals).
 */
export function advance(
  c: Cursor,
  now: number,
  rate: number,
  total: number,
): { admitted: number; cursor: Cursor; changed: boolean } {
  const reach = c.base + grown(c, now);
  if (c.rate !== rate || reach > total) {
    const admitted = Math.min(total, reach);
    return { admitted, cursor: { base: admitted, anchorMs: now, rate }, changed: true };
  }
  return { admitted: reach, cursor: c, changed: false };
}

/** Seconds until the place at `rank` (0-based) is admitted, by the cursor. */
export function secondsUntil(c: Cursor, rank: number, now: number): number {
  const at = c.anchorMs + Math.ceil(((rank + 1 - c.base) * 60_000) / c.rate);
  return Math.max(0, Math.ceil((at - now) / 1000));
}
