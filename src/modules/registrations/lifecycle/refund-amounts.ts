// The amounts of a booking's refund and the key that makes it one refund at the gateway
// (docs/decisions/20-booking-lifecycle.md, docs/decisions/28-a-persons-day.md): what is left to give back, how much a refund gives, how a
// partial refund ends, what the booking keeps. Pure; refund-claim.ts claims and refunds with
// them; test/unit/refund-amounts.test.ts.
import type { ClaimedStatus } from './booking-lifecycle.js';

/**
 * The gateway's idempotency key for a booking's refund: the same change always makes the same
 * refund. What was refunded before is part of it, so a second partial refund of the same
 * amount is a refund of its own.
 */
export function refundKey(
  registrationId: string,
  to: ClaimedStatus,
  refundPaise: number,
  refundedBeforePaise = 0,
): string {
  const tag = to === 'cancelled' ? 'c' : to === 'refunded' ? 'r' : 'p';
  return refundedBeforePaise === 0
    ? `${registrationId}-${tag}${refundPaise}`
    : `${registrationId}-${tag}${refundedBeforePaise}+${refundPaise}`;
}

/** What is left to give back of a booking's captured payment. */
export const refundablePaise = (reg: { amount_paise: number | string; refunded_paise: number }): number =>
  Math.max(0, Number(reg.amount_paise) - reg.refunded_paise);

/** What a refund that ends a booking gives back: what was asked (a cancellation policy keeps the rest), never more than is left nor less than 0; all that is left when nothing was asked. */
export function endingRefundPaise(leftPaise: number, askedPaise?: number): number {
  return Math.max(0, Math.min(askedPaise ?? leftPaise, leftPaise));
}

/** How a partial refund of `askedPaise` ends: refused beyond what is left, the booking refunded when it takes all that is left, else still confirmed. */
export function partRefundOutcome(
  leftPaise: number,
  askedPaise: number,
): 'exceeds' | 'refunded' | 'confirmed' {
  if (askedPaise > leftPaise) return 'exceeds';
  return askedPaise === leftPaise ? 'refunded' : 'confirmed';
}

/** What the booking keeps of its price once this refund is given, after what was refunded before. */
export function keptPaise(
  amountPaise: number | string,
  refundedBeforePaise: number,
  refundPaise: number,
): number {
  return Number(amountPaise) - refundedBeforePaise - refundPaise;
}
