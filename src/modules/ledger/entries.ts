// What each money event writes to the ledger, as signed paise. Pure: the service
// adds ids and times. Credits to the organiser are positive, debits negative.
//
// Refund policy (docs/guides/ledger-and-payouts.md): a full refund returns the gross to the
// buyer (a debit of the gross) and gives the organiser back the platform fee (the
// service keeps no fee on a sale that did not happen); the gateway charge is not
// given back, because Razorpay keeps its fee on a refunded payment.
import type { LedgerKind } from '../../db/database.js';

export interface EntryLine {
  kind: LedgerKind;
  amountPaise: number;
}

function check(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new RangeError(`${name} must be a whole number of paise, 0 or more`);
}

/** A paid booking confirmed: the gross in, the platform fee and the gateway charge out. */
export function saleLines(
  grossPaise: number,
  platformFeePaise: number,
  gatewayFeePaise: number,
): EntryLine[] {
  check('grossPaise', grossPaise);
  check('platformFeePaise', platformFeePaise);
  check('gatewayFeePaise', gatewayFeePaise);
  return nonZero([
    { kind: 'ticket_sale', amountPaise: grossPaise },
    { kind: 'platform_fee', amountPaise: -platformFeePaise },
    { kind: 'gateway_fee', amountPaise: -gatewayFeePaise },
  ]);
}

/**
 * A booking paid outside the gateway (docs/decisions/24-payment-outside-the-gateway.md): the gross
 * the organiser already holds (`offline_sale`, never payable) and the platform fee, charged
 * against the balance. No gateway charge: no gateway was used.
 */
export function offlineSaleLines(grossPaise: number, platformFeePaise: number): EntryLine[] {
  check('grossPaise', grossPaise);
  check('platformFeePaise', platformFeePaise);
  return nonZero([
    { kind: 'offline_sale', amountPaise: grossPaise },
    { kind: 'platform_fee', amountPaise: -platformFeePaise },
  ]);
}

/** An offline sale refunded in full by the organiser: the gross back (never payable), the platform fee reversed. */
export function offlineRefundLines(grossPaise: number, platformFeePaise: number): EntryLine[] {
  check('grossPaise', grossPaise);
  check('platformFeePaise', platformFeePaise);
  return nonZero([
    { kind: 'offline_refund', amountPaise: -grossPaise },
    { kind: 'platform_fee_reversal', amountPaise: platformFeePaise },
  ]);
}

/** Kinds that record money the organiser holds outside the service: in the ledger, never in a balance. */
export const NEVER_PAYABLE = ['offline_sale', 'offline_refund'] as const;

/** A full refund of a confirmed paid booking: the gross back to the buyer, the platform fee reversed. */
export function refundLines(grossPaise: number, platformFeePaise: number): EntryLine[] {
  check('grossPaise', grossPaise);
  check('platformFeePaise', platformFeePaise);
  return nonZero([
    { kind: 'ticket_refund', amountPaise: -grossPaise },
    { kind: 'platform_fee_reversal', amountPaise: platformFeePaise },
  ]);
}

/**
 * The last refund of a sale, from the sale's own entries: what is left of its gross back
 * (all of it, or what earlier partial refunds left) and the platform fee it was charged
 * reversed. Nothing when the entries hold no sale (a booking never confirmed).
 */
export function refundOfSale(entries: readonly EntryLine[]): EntryLine[] {
  const sale = entries.find((e) => e.kind === 'ticket_sale');
  if (!sale) return [];
  const platformFee = -(entries.find((e) => e.kind === 'platform_fee')?.amountPaise ?? 0);
  const refundedBefore = -net(entries.filter((e) => e.kind === 'ticket_refund'));
  return refundLines(Math.max(0, sale.amountPaise - refundedBefore), platformFee);
}

/** A membership payment (a fixed term or one subscription charge): the gross in, the gateway charge out. */
export function membershipLines(grossPaise: number, gatewayFeePaise: number): EntryLine[] {
  check('grossPaise', grossPaise);
  check('gatewayFeePaise', gatewayFeePaise);
  return nonZero([
    { kind: 'membership_payment', amountPaise: grossPaise },
    { kind: 'gateway_fee', amountPaise: -gatewayFeePaise },
  ]);
}

export function net(lines: readonly EntryLine[]): number {
  return lines.reduce((s, l) => s + l.amountPaise, 0);
}

function nonZero(lines: EntryLine[]): EntryLine[] {
  return lines.filter((l) => l.amountPaise !== 0);
}
