// Capacity arithmetic, pure. The availability route and the seat check at
// registration both call `computeAvailability`, so the numbers a caller reads are
// the numbers that are enforced.
import type { TierDoc, TrackDoc } from '../../db/database.js';

/** Seats held by confirmed registrations, by tier name and by track index. */
export interface SeatUsage {
  total: number;
  byTier: ReadonlyMap<string, number>;
  byTrack: ReadonlyMap<number, number>;
}

export interface TierAvailability {
  name: string;
  price: number;
  capacity: number;
  taken: number;
  remaining: number | null;
  soldOut: boolean;
  membersOnly: boolean;
  onSale: boolean;
}

export interface Availability {
  capacity: number;
  taken: number;
  remaining: number | null;
  soldOut: boolean;
  tiers: TierAvailability[];
}

/** 0 capacity means unlimited: remaining is then null. */
export function remainingOf(capacity: number, taken: number): number | null {
  return capacity === 0 ? null : Math.max(0, capacity - taken);
}

/** The tightest of several limits; null only when every limit is unlimited. */
export function tightest(...limits: (number | null)[]): number | null {
  let out: number | null = null;
  for (const l of limits) if (l !== null) out = out === null ? l : Math.min(out, l);
  return out;
}

export function tierOnSale(tier: Pick<TierDoc, 'availableFrom' | 'availableUntil'>, now: Date): boolean {
  // The null checks are for the types (Date.parse(null) is NaN, and no comparison with NaN is
  // true): mutating either to `true` leaves an equivalent mutant that survives.
  if (tier.availableFrom !== null && now.getTime() < Date.parse(tier.availableFrom)) return false;
  if (tier.availableUntil !== null && now.getTime() > Date.parse(tier.availableUntil)) return false;
  return true;
}

export function computeAvailability(
  event: { capacity: number; tiers: readonly TierDoc[]; tracks: readonly TrackDoc[] },
  usage: SeatUsage,
  now: Date,
  trackIndex?: number,
): Availability {
  const eventRemaining = remainingOf(event.capacity, usage.total);
  let capacity = event.capacity;
  let taken = usage.total;
  let remaining = eventRemaining;
  if (trackIndex !== undefined) {
    const track = event.tracks[trackIndex];
    if (!track) throw new RangeError(`no track ${trackIndex}`);
    capacity = track.capacity;
    taken = usage.byTrack.get(trackIndex) ?? 0;
    // A track seat is also an event seat.
    remaining = tightest(remainingOf(track.capacity, taken), eventRemaining);
  }
  const tiers = event.tiers.map((tier) => {
    const tierTaken = usage.byTier.get(tier.name) ?? 0;
    const tierRemaining = tightest(remainingOf(tier.capacity, tierTaken), remaining);
    return {
      name: tier.name,
      price: tier.pricePaise / 100,
      capacity: tier.capacity,
      taken: tierTaken,
      remaining: tierRemaining,
      soldOut: tierRemaining === 0,
      membersOnly: tier.membersOnly,
      onSale: tierOnSale(tier, now),
    };
  });
  return { capacity, taken, remaining, soldOut: remaining === 0, tiers };
}
