// An event's waitlist and self-service settings (docs/decisions/18-waitlist-and-attendee-page.md): the organiser's
// input checked into the stored shape, what the API shows, and the pure rules read from
// them (which waitlist applies to a choice, whether the attendee's page may still change a
// booking, and the refund a cancellation gives, to the paisa).
import type { SelfServiceDoc, WaitlistDoc } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';

export const DEFAULT_OFFER_MINUTES = 60;
export const DEFAULT_CUTOFF_HOURS = 24;

export interface WaitlistInput {
  enabled?: boolean;
  offerMinutes?: number;
}

export interface SelfServiceInput {
  transfer?: boolean;
  cancel?: boolean;
  cutoffHours?: number;
  refund?: 'full' | 'none' | { feePercent: number };
}

export function validateWaitlist(
  input: WaitlistInput,
  base: WaitlistDoc | null | undefined,
  field = 'waitlist',
): WaitlistDoc {
  const offerMinutes = input.offerMinutes ?? base?.offerMinutes ?? DEFAULT_OFFER_MINUTES;
  if (!Number.isInteger(offerMinutes) || offerMinutes < 1 || offerMinutes > 10_080) {
    throw badRequest(
      'invalid_field',
      `${field}.offerMinutes must be a whole number of minutes from 1 to 10080 (a week)`,
    );
  }
  return { enabled: input.enabled ?? base?.enabled ?? false, offerMinutes };
}

export function validateSelfService(input: SelfServiceInput, base: SelfServiceDoc | null): SelfServiceDoc {
  const out: SelfServiceDoc = { ...presentedDefaults(base) };
  if (input.transfer !== undefined) out.transfer = input.transfer;
  if (input.cancel !== undefined) out.cancel = input.cancel;
  if (input.cutoffHours !== undefined) out.cutoffHours = input.cutoffHours;
  if (input.refund !== undefined) {
    if (typeof input.refund === 'string') out.refund = input.refund;
    else {
      const bp = Math.round(input.refund.feePercent * 100);
      if (
        !(input.refund.feePercent >= 0 && input.refund.feePercent <= 100) ||
        Math.abs(bp - input.refund.feePercent * 100) > 1e-6
      ) {
        throw badRequest(
          'invalid_field',
          'selfService.refund.feePercent must be 0 to 100 with at most two decimals',
        );
      }
      out.refund = { feeBasisPoints: bp };
    }
  }
  return out;
}

function presentedDefaults(doc: SelfServiceDoc | null): SelfServiceDoc {
  return doc ?? { transfer: false, cancel: false, cutoffHours: DEFAULT_CUTOFF_HOURS, refund: 'full' };
}

export function presentWaitlist(doc: WaitlistDoc | null | undefined) {
  return { enabled: doc?.enabled ?? false, offerMinutes: doc?.offerMinutes ?? DEFAULT_OFFER_MINUTES };
}

export function presentSelfService(doc: SelfServiceDoc | null) {
  const d = presentedDefaults(doc);
  return {
    transfer: d.transfer,
    cancel: d.cancel,
    cutoffHours: d.cutoffHours,
    refund: typeof d.refund === 'string' ? d.refund : { feePercent: d.refund.feeBasisPoints / 100 },
  };
}

/** The waitlist that applies to a choice: the track's own when it has one, else the event's. */
export function waitlistFor(
  event: { waitlist: WaitlistDoc | null; tracks: readonly { waitlist?: WaitlistDoc | null }[] },
  subEventId: number | null,
) {
  const own = subEventId === null ? undefined : event.tracks[subEventId]?.waitlist;
  return presentWaitlist(own ?? event.waitlist);
}

/** The policy as stored, defaults filled in. */
export const selfServicePolicy = presentedDefaults;

/** The last moment the attendee's page may change a booking: `cutoffHours` before the event starts. */
export function selfServiceCutoff(policy: SelfServiceDoc, startAt: Date | null): Date | null {
  return startAt === null ? null : new Date(startAt.getTime() - policy.cutoffHours * 3_600_000);
}

export function selfServiceOpen(policy: SelfServiceDoc, startAt: Date | null, now: Date): boolean {
  const cutoff = selfServiceCutoff(policy, startAt);
  return cutoff === null || now.getTime() < cutoff.getTime();
}

/**
 * What a cancellation from the attendee's page refunds of `paidPaise`: all of it, none, or
 * all but the fee, the fee rounded half up to the paisa.
 */
export function policyRefundPaise(policy: SelfServiceDoc, paidPaise: number): number {
  if (!Number.isSafeInteger(paidPaise) || paidPaise < 0)
    throw new RangeError('paidPaise must be a whole number of paise');
  if (policy.refund === 'full') return paidPaise;
  if (policy.refund === 'none') return 0;
  const fee = Math.floor((paidPaise * policy.refund.feeBasisPoints + 5_000) / 10_000);
  return paidPaise - Math.min(fee, paidPaise);
}
