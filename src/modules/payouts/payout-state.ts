// The payout state machine, pure: what a gateway status means, which moves are allowed,
// and what one report from the gateway (or the sandbox) changes on a payout row.
// `applyPayoutState` in payouts.service.ts is the one writer that applies it.
import type { PayoutStatus } from '../../db/database.js';

/** Our status for a gateway status; anything not final is still processing. */
export function statusFor(gatewayStatus: string): PayoutStatus {
  switch (gatewayStatus) {
    case 'processed':
      return 'processed';
    case 'reversed':
      return 'reversed';
    case 'failed':
    case 'rejected':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'processing';
  }
}

/** Forward only; `reversed` may follow `processed` (the bank returned the money). */
export function canMove(from: PayoutStatus, to: PayoutStatus): boolean {
  if (from === 'processing') return to !== 'processing';
  return from === 'processed' && to === 'reversed';
}

export function creditsBack(status: PayoutStatus): boolean {
  return status === 'failed' || status === 'cancelled' || status === 'reversed';
}

export interface StateUpdate {
  status: PayoutStatus;
  gatewayPayoutId?: string | null;
  gatewayStatus?: string | null;
  utr?: string | null;
  failureReason?: string | null;
}

/** The fields of a payout row a report reads. */
export interface PayoutState {
  status: PayoutStatus;
  gateway_payout_id: string | null;
  gateway_status: string | null;
  utr: string | null;
}

export interface PayoutStateChange {
  /** The columns to write (nothing when the report changes nothing). */
  set: {
    status?: PayoutStatus;
    gateway_payout_id?: string;
    gateway_status?: string;
    utr?: string;
    failure_reason?: string;
  };
  changed: boolean;
  /** The move is to failed, cancelled or reversed: the amount is credited back with it. */
  creditBack: boolean;
}

/**
 * What one report changes: the status moves only along canMove, and the UTR and the
 * gateway's id are kept when first seen. Stored text is cut to its column's length.
 */
export function payoutStateChange(p: PayoutState, update: StateUpdate): PayoutStateChange {
  const set: PayoutStateChange['set'] = {};
  let changed = false;
  let creditBack = false;
  if (update.gatewayPayoutId && p.gateway_payout_id === null) {
    set.gateway_payout_id = update.gatewayPayoutId;
    changed = true;
  }
  // The bank's reference of a payout that was paid (a late one for a failed payout is noise).
  if (update.utr && p.utr === null && p.status !== 'failed' && p.status !== 'cancelled') {
    set.utr = update.utr.slice(0, 64);
    changed = true;
  }
  if (canMove(p.status, update.status)) {
    set.status = update.status;
    if (update.gatewayStatus) set.gateway_status = update.gatewayStatus.slice(0, 40);
    if (update.failureReason && update.status !== 'processed')
      set.failure_reason = update.failureReason.slice(0, 500);
    changed = true;
    creditBack = creditsBack(update.status);
  } else if (p.status === 'processing' && update.gatewayStatus && update.gatewayStatus !== p.gateway_status) {
    set.gateway_status = update.gatewayStatus.slice(0, 40);
    changed = true;
  }
  return { set, changed, creditBack };
}
