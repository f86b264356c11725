// Good standing, computed on read from the clock: never by a job that might not run.
// Pure.
import type { MembershipStatus, PlanKind } from '../../db/database.js';

export type DisplayStatus =
  | 'pending_authorisation'
  | 'active'
  | 'past_due'
  | 'cancelling'
  | 'ended'
  | 'expired';

export interface StandingInput {
  status: MembershipStatus;
  kind: PlanKind;
  validUntil: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
}

export function computeStanding(
  m: StandingInput,
  now: Date,
): { goodStanding: boolean; displayStatus: DisplayStatus } {
  const t = now.getTime();
  const paidUp = m.validUntil !== null && m.validUntil.getTime() > t;
  if (m.status === 'ended' || (m.endedAt !== null && m.endedAt.getTime() <= t))
    return { goodStanding: false, displayStatus: 'ended' };
  if (m.status === 'created' || m.status === 'pending_payment')
    return { goodStanding: false, displayStatus: 'pending_authorisation' };
  if (m.status === 'halted') return { goodStanding: false, displayStatus: 'past_due' };
  if (m.kind === 'fixed_term') {
    // A lapsed fixed term stays `active` in storage; it reads as expired.
    if (!paidUp) return { goodStanding: false, displayStatus: m.cancelAtPeriodEnd ? 'ended' : 'expired' };
    return { goodStanding: true, displayStatus: m.cancelAtPeriodEnd ? 'cancelling' : 'active' };
  }
  // Recurring: authorised counts as joined; a cancelled-at-period-end mandate ends with its period.
  if (m.cancelAtPeriodEnd) {
    if (m.validUntil !== null && !paidUp) return { goodStanding: false, displayStatus: 'ended' };
    return { goodStanding: true, displayStatus: 'cancelling' };
  }
  if (m.status === 'active' && m.validUntil !== null && !paidUp)
    return { goodStanding: false, displayStatus: 'past_due' };
  return { goodStanding: true, displayStatus: 'active' };
}

/** Fixed-term renewal: in the last 30 days of a term, or after expiry. */
export const RENEWAL_WINDOW_DAYS = 30;
export function inRenewalWindow(validUntil: Date | null, now: Date): boolean {
  if (validUntil === null) return true;
  return validUntil.getTime() - now.getTime() <= RENEWAL_WINDOW_DAYS * 86_400_000;
}

/** Adds calendar months in UTC, clamping to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** A renewal extends from the current end while the term runs, or from the payment after expiry. */
export function renewedUntil(validUntil: Date | null, paidAt: Date, termMonths: number): Date {
  const from = validUntil !== null && validUntil.getTime() > paidAt.getTime() ? validUntil : paidAt;
  return addMonths(from, termMonths);
}

export function periodEnd(from: Date, period: 'weekly' | 'monthly' | 'quarterly' | 'yearly'): Date {
  switch (period) {
    case 'weekly':
      return new Date(from.getTime() + 7 * 86_400_000);
    case 'monthly':
      return addMonths(from, 1);
    case 'quarterly':
      return addMonths(from, 3);
    case 'yearly':
      return addMonths(from, 12);
  }
}
