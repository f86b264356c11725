// The subscription state machine: what a gateway subscription event does to a
// membership. Pure. Deliveries come at least once and in any order, so it is
// idempotent and order-tolerant: an ended membership stays ended, and a late
// `authenticated` never moves an active one back.
import type { MembershipStatus } from '../../db/database.js';
import type { PlanPeriod } from '../payments/gateway.js';
import { periodEnd } from './standing.js';

export type SubscriptionEvent =
  | 'authenticated'
  | 'activated'
  | 'charged'
  | 'halted'
  | 'cancelled'
  | 'completed'
  | 'pending'
  | 'resumed';

export const SUBSCRIPTION_EVENTS: readonly SubscriptionEvent[] = [
  'authenticated',
  'activated',
  'charged',
  'halted',
  'cancelled',
  'completed',
  'pending',
  'resumed',
];

export function isSubscriptionEvent(value: string): value is SubscriptionEvent {
  return (SUBSCRIPTION_EVENTS as readonly string[]).includes(value);
}

export interface SubscriptionState {
  status: MembershipStatus;
  validUntil: Date | null;
}

/** How long a cancel's claim to end a membership now holds: past it, its process is taken to have died. */
export const ENDING_CLAIM_STALE_MS = 5 * 60_000;

/** Whether a cancel that ends the membership now holds it (claimed, and not so long ago that it died). */
export function endingClaimHeld(claimedAt: Date | null, now: Date): boolean {
  return claimedAt !== null && now.getTime() - claimedAt.getTime() < ENDING_CLAIM_STALE_MS;
}

/** What changes. `authorised` also tells the organiser (subscription.authenticated). */
export type SubscriptionChange =
  | { status: 'authorised' }
  | { status: 'active'; validUntil: Date }
  | { status: 'halted' }
  | { status: 'ended'; endedAt: Date };

/**
 * The change an event makes, or null when it changes nothing.
 * `now` is the account's clock; `currentEnd` the end of the paid period when the gateway
 * says it; `period` the plan's billing period (monthly when the plan has none).
 */
export function nextSubscriptionState(
  m: SubscriptionState,
  event: SubscriptionEvent,
  at: { now: Date; period: PlanPeriod | null; currentEnd?: Date | null | undefined },
): SubscriptionChange | null {
  if (m.status === 'ended') return null;
  switch (event) {
    case 'authenticated':
      return m.status === 'created' ? { status: 'authorised' } : null;
    case 'activated':
    case 'charged':
    case 'resumed': {
      // A period is added from the later of now and the current end; `activated` keeps a
      // current end it already has. The end never moves back.
      const base = m.validUntil !== null && m.validUntil.getTime() > at.now.getTime() ? m.validUntil : at.now;
      const until =
        at.currentEnd ??
        (event === 'activated' && m.validUntil !== null
          ? m.validUntil
          : periodEnd(base, at.period ?? 'monthly'));
      return {
        status: 'active',
        validUntil: m.validUntil !== null && m.validUntil.getTime() > until.getTime() ? m.validUntil : until,
      };
    }
    case 'halted':
      return { status: 'halted' };
    case 'pending':
      return null;
    case 'cancelled':
    case 'completed':
      return { status: 'ended', endedAt: at.now };
  }
}
