import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TierDoc, TrackDoc } from '../../src/db/database.js';
import {
  computeAvailability,
  remainingOf,
  tierOnSale,
  tightest,
  type SeatUsage,
} from '../../src/modules/events/availability.js';

const NOW = new Date('2030-01-10T10:00:00Z');
const tier = (t: Partial<TierDoc> & { name: string }): TierDoc => ({
  pricePaise: 100_00,
  capacity: 0,
  membersOnly: false,
  availableFrom: null,
  availableUntil: null,
  ...t,
});
const track = (t: Partial<TrackDoc>): TrackDoc => ({
  title: 'Track',
  pricePaise: 0,
  capacity: 0,
  date: null,
  ...t,
});
const usage = (
  total: number,
  byTier: [string, number][] = [],
  byTrack: [number, number][] = [],
): SeatUsage => ({ total, byTier: new Map(byTier), byTrack: new Map(byTrack) });

describe('capacity arithmetic', () => {
  it('treats capacity 0 as unlimited and never goes below zero', () => {
    assert.equal(remainingOf(0, 50), null);
    assert.equal(remainingOf(10, 4), 6);
    assert.equal(remainingOf(10, 12), 0);
  });

  it('takes the tightest of several limits, null only when all are unlimited', () => {
    assert.equal(tightest(null, 5, 3), 3);
    assert.equal(tightest(null, null), null);
    assert.equal(tightest(0, null), 0);
    assert.equal(tightest(5, null), 5, 'an unlimited limit after a finite one changes nothing');
    assert.equal(tightest(null, 7), 7);
    assert.equal(tightest(), null);
  });

  it('sells a tier only inside its window', () => {
    assert.equal(tierOnSale({ availableFrom: null, availableUntil: null }, NOW), true);
    assert.equal(tierOnSale({ availableFrom: '2030-01-11T00:00:00Z', availableUntil: null }, NOW), false);
    assert.equal(tierOnSale({ availableFrom: null, availableUntil: '2030-01-09T00:00:00Z' }, NOW), false);
    assert.equal(
      tierOnSale({ availableFrom: '2030-01-01T00:00:00Z', availableUntil: '2030-02-01T00:00:00Z' }, NOW),
      true,
    );
    // Both ends of the window are inside it.
    assert.equal(tierOnSale({ availableFrom: NOW.toISOString(), availableUntil: null }, NOW), true);
    assert.equal(tierOnSale({ availableFrom: null, availableUntil: NOW.toISOString() }, NOW), true);
    assert.equal(
      tierOnSale({ availableFrom: null, availableUntil: new Date(NOW.getTime() - 1).toISOString() }, NOW),
      false,
    );
    assert.equal(
      tierOnSale({ availableFrom: new Date(NOW.getTime() + 1).toISOString(), availableUntil: null }, NOW),
      false,
    );
  });
});

describe('computeAvailability', () => {
  it('counts the event seats left and marks a full event sold out', () => {
    const a = computeAvailability({ capacity: 100, tiers: [], tracks: [] }, usage(40), NOW);
    assert.deepEqual([a.capacity, a.taken, a.remaining, a.soldOut], [100, 40, 60, false]);
    const full = computeAvailability({ capacity: 100, tiers: [], tracks: [] }, usage(100), NOW);
    assert.equal(full.remaining, 0);
    assert.equal(full.soldOut, true);
  });

  it('leaves an unlimited event unlimited', () => {
    const a = computeAvailability({ capacity: 0, tiers: [], tracks: [] }, usage(1000), NOW);
    assert.equal(a.remaining, null);
    assert.equal(a.soldOut, false);
  });

  it('holds a tier to the tighter of its own capacity and the event’s', () => {
    const tiers = [
      tier({ name: 'VIP', capacity: 10 }),
      tier({ name: 'Early', capacity: 50 }),
      tier({ name: 'Open' }),
    ];
    const a = computeAvailability(
      { capacity: 100, tiers, tracks: [] },
      usage(90, [
        ['VIP', 4],
        ['Early', 45],
      ]),
      NOW,
    );
    const by = new Map(a.tiers.map((t) => [t.name, t]));
    assert.equal(by.get('VIP')!.remaining, 6, 'the tier’s own 6 left is tighter than the event’s 10');
    assert.equal(by.get('Early')!.remaining, 5);
    assert.equal(by.get('Open')!.remaining, 10, 'an unlimited tier gets what the event has left');
    assert.equal(by.get('VIP')!.taken, 4);
    assert.equal(by.get('VIP')!.price, 100, 'rupees');
  });

  it('marks a tier sold out when either limit is reached, and reports whether it is on sale', () => {
    const tiers = [
      tier({ name: 'VIP', capacity: 4 }),
      tier({ name: 'Later', availableFrom: '2030-02-01T00:00:00Z' }),
    ];
    const a = computeAvailability({ capacity: 100, tiers, tracks: [] }, usage(10, [['VIP', 4]]), NOW);
    assert.equal(a.tiers[0]!.soldOut, true);
    assert.equal(a.tiers[1]!.soldOut, false);
    assert.equal(a.soldOut, false);
    assert.equal(a.tiers[1]!.onSale, false);
    assert.equal(a.tiers[0]!.onSale, true);
  });

  it('reads a track’s own counter and holds it to the event’s seats too', () => {
    const tracks = [track({ capacity: 30 }), track({ capacity: 0 })];
    const a = computeAvailability({ capacity: 50, tiers: [], tracks }, usage(45, [], [[0, 10]]), NOW, 0);
    assert.deepEqual([a.capacity, a.taken, a.remaining], [30, 10, 5], 'a track seat is also an event seat');
    const b = computeAvailability({ capacity: 50, tiers: [], tracks }, usage(20, [], [[0, 10]]), NOW, 0);
    assert.equal(b.remaining, 20, 'the track’s own 20 left');
    const c = computeAvailability({ capacity: 50, tiers: [], tracks }, usage(20), NOW, 1);
    assert.deepEqual([c.taken, c.remaining], [0, 30]);
  });

  it('refuses a track index that does not exist', () => {
    assert.throws(() => computeAvailability({ capacity: 0, tiers: [], tracks: [] }, usage(0), NOW, 2), {
      name: 'RangeError',
      message: 'no track 2',
    });
  });
});
