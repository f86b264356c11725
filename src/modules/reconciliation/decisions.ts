// What the reconciliation sweep decides, apart from the reads and gateway calls that feed it:
// reconcile.service.ts and stray-payments.ts ask the database and the gateway, then act on
// these answers. Pure; test/unit/reconciliation-decisions.test.ts.
import type { RegistrationStatus } from '../../db/database.js';
import type { GatewayPayment } from '../payments/gateway.js';

/** An order is asked again for a week after its creation, paid or not: a second payment may still come for it. */
export const WATCH_MS = 7 * 86_400_000;
/** The longest wait between two checks of one order. */
export const MAX_BACKOFF_MS = 86_400_000;

/**
 * The sweep takes the open orders created before this instant: RECONCILE_AFTER_MINUTES ago, or
 * the checkout window ago when that is shorter, so an unpaid booking is due by its window's end.
 */
export function dueBefore(started: Date, afterMinutes: number, checkoutWindowMinutes: number): Date {
  return new Date(started.getTime() - Math.min(afterMinutes, checkoutWindowMinutes) * 60_000);
}

/** When an order checked `checks` times before is asked again: RECONCILE_AFTER_MINUTES (at least a minute), doubled at each check, at most a day. */
export function nextCheckAt(now: Date, afterMinutes: number, checks: number): Date {
  const base = Math.max(60_000, afterMinutes * 60_000);
  const delay = Math.min(MAX_BACKOFF_MS, base * 2 ** Math.min(checks, 20));
  return new Date(now.getTime() + delay);
}

/** The next check, or `notAfter` when that comes sooner (an unpaid booking's window end). */
export function checkAfterOf(next: Date, notAfter?: Date): Date {
  return new Date(Math.min(next.getTime(), notAfter?.getTime() ?? Infinity));
}

/** Whether an order leaves the sweep now with this outcome: after its week, or at once when the gateway never made it. */
export function settlesNow(now: Date, createdAt: Date, outcome: string): boolean {
  return outcome === 'no_order' || now.getTime() - createdAt.getTime() >= WATCH_MS;
}

/** A payment that holds or may still hold money: authorised (not yet captured) or captured. */
export const isLive = (p: GatewayPayment): boolean => p.status === 'authorized' || p.status === 'captured';

/** Captured money not yet refunded in full. */
export const isUnrefunded = (p: GatewayPayment): boolean => p.captured && p.amountRefunded < p.amount;

/** What is left of a payment to refund. */
export const leftToRefund = (p: GatewayPayment): number => p.amount - p.amountRefunded;

/** Whether a stray payment's refund may go ahead: captured money on that very order, not refunded in full. */
export const refundableOn = (p: GatewayPayment, orderId: string): boolean =>
  p.orderId === orderId && isUnrefunded(p);

/** The gateway's idempotency key for a stray payment's refund: a retried or repeated refund is the same refund. */
export const strayRefundKey = (paymentId: string): string =>
  `stray_${paymentId}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);

/** A booking as the sweep reads it. */
export interface BookingFacts {
  status: RegistrationStatus;
  amount_paise: number | string;
  currency: string;
  payment_id: string | null;
  /** What a cancellation policy kept of its payment. */
  kept_paise: number;
}

/** Whether a payment is for this booking's price: its amount and currency. */
export const paysFor = (p: GatewayPayment, b: Pick<BookingFacts, 'amount_paise' | 'currency'>): boolean =>
  p.amount === Number(b.amount_paise) && p.currency === b.currency;

/** Whether an authorised payment is captured: only what a pending booking still waits for; any other authorisation lapses at the gateway. */
export const capturesFor = (
  p: GatewayPayment,
  b: Pick<BookingFacts, 'status' | 'amount_paise' | 'currency'>,
): boolean => b.status === 'pending' && paysFor(p, b);

/**
 * What becomes of a live payment of a booking's order once the payment path has had it:
 * bound to its booking, it is kept (confirmed, or the part a cancellation policy kept) or its
 * refund job is on the way (`refund_pending`); bound to none, captured money not yet refunded
 * is a stray the sweep refunds now; anything else leaves nothing to do.
 */
export function paymentFate(
  p: GatewayPayment,
  b: Pick<BookingFacts, 'status' | 'payment_id' | 'kept_paise'>,
): 'kept' | 'refund_pending' | 'stray' | 'nothing' {
  if (b.payment_id === p.id)
    return b.status !== 'confirmed' && p.captured && leftToRefund(p) > b.kept_paise
      ? 'refund_pending'
      : 'kept';
  return isUnrefunded(p) ? 'stray' : 'nothing';
}

/** Leave the sweep with this outcome (after the order's week), or be asked again (by `notAfter` at the latest). */
export type Settle = { act: 'settle'; outcome: string };
export type Later = { act: 'later'; outcome: string; notAfter?: Date };

/** What the sweep does with an order after its payments were seen to. */
export type Verdict =
  | Settle
  | Later
  /** End the booking as refunded at the gateway; settle `refunded_at_gateway`, or `confirmed` if the booking moved meanwhile. */
  | { act: 'end_refunded'; paymentId: string }
  /** Cancel the unpaid booking; ask again (`expired`), or, if it moved meanwhile, by `notAfter` (`unpaid`). */
  | { act: 'expire'; notAfter: Date };

/**
 * A registration order's verdict: an order no booking holds settles (its captured money was
 * refunded as a stray); a refund on the way is awaited; a confirmed booking settles, or ends
 * as refunded when the gateway refunded its payment in full; a pending booking is expired
 * past its checkout window and asked again by the window's end before it; an ended booking
 * settles once its payment is accounted for, or when its week is over.
 */
export function registrationVerdict(f: {
  booking: Pick<BookingFacts, 'status' | 'payment_id'> | undefined;
  payments: readonly GatewayPayment[];
  awaitingRefund: boolean;
  createdAt: Date;
  ageMs: number;
  checkoutWindowMinutes: number;
}): Verdict {
  const b = f.booking;
  if (!b)
    return { act: 'settle', outcome: f.payments.some((p) => p.captured) ? 'orphan_refunded' : 'orphaned' };
  if (f.awaitingRefund) return { act: 'later', outcome: 'refund_pending' };
  if (b.status === 'confirmed') {
    const kept = f.payments.find((p) => p.id === b.payment_id);
    return kept && kept.amountRefunded >= kept.amount
      ? { act: 'end_refunded', paymentId: kept.id }
      : { act: 'settle', outcome: 'confirmed' };
  }
  if (b.status === 'pending') {
    const windowMs = f.checkoutWindowMinutes * 60_000;
    const windowEnd = new Date(f.createdAt.getTime() + windowMs);
    return f.ageMs >= windowMs
      ? { act: 'expire', notAfter: windowEnd }
      : { act: 'later', outcome: 'unpaid', notAfter: windowEnd };
  }
  // Cancelled or refunded: whatever was captured has been refunded. A payment may still
  // come for a booking cancelled unpaid; it is watched for a week.
  if (b.payment_id !== null || f.ageMs >= WATCH_MS) return { act: 'settle', outcome: b.status };
  return { act: 'later', outcome: b.status };
}

/** Whether a payment is for a membership's pending order: its amount, in rupees. */
export const paysForPeriod = (
  p: GatewayPayment,
  m: { pending_amount_paise: number | string | null } | undefined,
): boolean => m !== undefined && p.amount === Number(m.pending_amount_paise) && p.currency === 'INR';

/**
 * A membership order's verdict: confirmed once a payment was recorded for it; otherwise asked
 * again for its week while a membership still waits for it or nothing was captured, then
 * settled (`refunded` when money was captured: it was refunded as a stray).
 */
export function membershipVerdict(f: {
  recorded: boolean;
  expected: boolean;
  anyCaptured: boolean;
  ageMs: number;
}): Settle | Later {
  if (f.recorded) return { act: 'settle', outcome: 'confirmed' };
  if (f.expected && f.ageMs < WATCH_MS) return { act: 'later', outcome: 'unpaid' };
  if (f.ageMs < WATCH_MS && !f.anyCaptured) return { act: 'later', outcome: 'not_expected' };
  return { act: 'settle', outcome: f.anyCaptured ? 'refunded' : 'unpaid' };
}
