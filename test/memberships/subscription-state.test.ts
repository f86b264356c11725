// The subscription state machine as a pure function: what each gateway event does to a
// membership, in any order and any number of times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MembershipStatus } from '../../src/db/database.js';
import {
  endingClaimHeld,
  ENDING_CLAIM_STALE_MS,
  isSubscriptionEvent,
  nextSubscriptionState,
  SUBSCRIPTION_EVENTS,
  type SubscriptionEvent,
} from '../../src/modules/memberships/subscription-state.js';

const DAY = 86_400_000;
const NOW = new Date('2025-01-31T12:00:00.000Z');
const later = (days: number) => new Date(NOW.getTime() + days * DAY);
const at = { now: NOW, period: 'monthly' as const };
const next = (
  status: MembershipStatus,
  validUntil: Date | null,
  event: SubscriptionEvent,
  over: Partial<Parameters<typeof nextSubscriptionState>[2]> = {},
) => nextSubscriptionState({ status, validUntil }, event, { ...at, ...over });

describe('subscription state machine', () => {
  it('knows the eight gateway subscription events and nothing else', () => {
    const events = [
      'authenticated',
      'activated',
      'charged',
      'halted',
      'cancelled',
      'completed',
      'pending',
      'resumed',
    ];
    assert.deepEqual(SUBSCRIPTION_EVENTS, events);
    for (const e of events) assert.equal(isSubscriptionEvent(e), true, e);
    for (const e of ['', 'paused', 'subscription.charged', 'Charged'])
      assert.equal(isSubscriptionEvent(e), false, e);
  });

  it('an ended membership stays ended whatever comes', () => {
    for (const event of SUBSCRIPTION_EVENTS) assert.equal(next('ended', later(10), event), null, event);
  });

  it('authenticated authorises a created mandate, and only that', () => {
    assert.deepEqual(next('created', null, 'authenticated'), { status: 'authorised' });
    for (const status of ['authorised', 'active', 'halted'] as const) {
      assert.equal(
        next(status, later(10), 'authenticated'),
        null,
        `a late authenticated leaves ${status} alone`,
      );
    }
  });

  it('charged adds a period from the current end while it runs', () => {
    assert.deepEqual(next('active', new Date('2025-02-10T00:00:00.000Z'), 'charged'), {
      status: 'active',
      validUntil: new Date('2025-03-10T00:00:00.000Z'),
    });
  });

  it('charged adds a period from now when there is no end yet or it has passed', () => {
    const fromNow = { status: 'active', validUntil: new Date('2025-02-28T12:00:00.000Z') };
    assert.deepEqual(next('authorised', null, 'charged'), fromNow, 'month-end clamped: 31 Jan + 1 month');
    assert.deepEqual(next('halted', later(-5), 'charged'), fromNow);
    assert.deepEqual(next('active', later(-5), 'resumed'), fromNow);
  });

  it('uses the plan period, monthly when the plan has none', () => {
    assert.deepEqual(next('authorised', null, 'charged', { period: 'weekly' }), {
      status: 'active',
      validUntil: later(7),
    });
    assert.deepEqual(next('authorised', null, 'charged', { period: 'yearly' }), {
      status: 'active',
      validUntil: new Date('2026-01-31T12:00:00.000Z'),
    });
    assert.deepEqual(next('authorised', null, 'charged', { period: null }), {
      status: 'active',
      validUntil: new Date('2025-02-28T12:00:00.000Z'),
    });
  });

  it('takes the gateway’s current end when it sends one, but never moves the end back', () => {
    assert.deepEqual(next('active', later(3), 'charged', { currentEnd: later(40) }), {
      status: 'active',
      validUntil: later(40),
    });
    assert.deepEqual(next('active', later(50), 'charged', { currentEnd: later(40) }), {
      status: 'active',
      validUntil: later(50),
    });
    assert.deepEqual(next('authorised', null, 'activated', { currentEnd: later(40) }), {
      status: 'active',
      validUntil: later(40),
    });
  });

  it('activated keeps an end it already has, and starts a period when there is none', () => {
    assert.deepEqual(next('active', later(3), 'activated'), { status: 'active', validUntil: later(3) });
    assert.deepEqual(next('halted', later(-3), 'activated'), { status: 'active', validUntil: later(-3) });
    assert.deepEqual(next('authorised', null, 'activated'), {
      status: 'active',
      validUntil: new Date('2025-02-28T12:00:00.000Z'),
    });
  });

  it('halted halts; pending changes nothing', () => {
    assert.deepEqual(next('active', later(3), 'halted'), { status: 'halted' });
    assert.deepEqual(next('created', null, 'halted'), { status: 'halted' });
    assert.equal(next('active', later(3), 'pending'), null);
  });

  it('cancelled and completed end it now, on the account’s clock', () => {
    assert.deepEqual(next('active', later(3), 'cancelled'), { status: 'ended', endedAt: NOW });
    assert.deepEqual(next('created', null, 'completed'), { status: 'ended', endedAt: NOW });
  });

  it('a cancel’s claim to end it now holds until it is five minutes old (its process is then taken to have died)', () => {
    assert.equal(endingClaimHeld(null, NOW), false);
    assert.equal(endingClaimHeld(NOW, NOW), true);
    assert.equal(endingClaimHeld(new Date(NOW.getTime() - ENDING_CLAIM_STALE_MS + 1), NOW), true);
    assert.equal(endingClaimHeld(new Date(NOW.getTime() - ENDING_CLAIM_STALE_MS), NOW), false);
  });
});
