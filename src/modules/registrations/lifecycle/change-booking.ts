// The one function that changes a booking's state (docs/decisions/20-booking-lifecycle.md). Every path —
// step 2, the gateway's notification, the sweep, approve, reject, cancel, refund, the
// attendee's page, transfer, expiry, event deletion, a refund found at the gateway — calls
// `changeBooking` inside its transaction: it checks the lifecycle table (who may act, from
// which state), runs the conditional update, writes what the change sets off
// (confirmation.ts), and appends the audit entry with its actor (booking-audit.ts). Of any number of
// concurrent changes to one booking exactly one moves the row; the others get undefined.
import type { Transaction } from 'kysely';
import type { Database, OfflinePaidDoc, RefundClaimDoc } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { conflict } from '../../../lib/errors.js';
import type { Ids } from '../../../lib/ids.js';
import * as audit from '../../audit/audit.service.js';
import * as captures from '../../payments/captures.repo.js';
import { applyConfirmation, applyTransfer, type EventFacts } from '../confirmation.js';
import { applyBookingEnd, applyPartialRefund, type EndRefund } from '../endings.js';
import type { RegistrationRow as Row } from '../registrations.repo.js';
import { changeEntry, rupees } from './booking-audit.js';
import { canApply, mayAct, TRANSITIONS, type BookingEvent } from './booking-lifecycle.js';
import * as repo from './lifecycle.repo.js';

export type ChangeDeps = { clock: Clock; ids: Ids; sendsWhatsApp?: boolean };

/** A change and the facts its effects need. */
export type BookingChange =
  | { event: 'pay'; paymentId: string; eventRow: EventFacts; attendeeIds: readonly string[] }
  | { event: 'approve'; eventRow: EventFacts; attendeeIds: readonly string[] }
  | { event: 'mark_paid'; paid: OfflinePaidDoc; eventRow: EventFacts; attendeeIds: readonly string[] }
  | { event: 'reject' | 'cancel' | 'expire' | 'lapse_unpaid' }
  | { event: 'lose_last_seat'; paymentId: string }
  | { event: 'claim_refund'; claim: RefundClaimDoc }
  | { event: 'complete_refund'; refundId: string | null }
  | { event: 'release_claim'; reason: string }
  | { event: 'refunded_at_gateway'; paymentId: string }
  | { event: 'refund_offline'; reason: string }
  | { event: 'transfer'; eventRow: EventFacts; holder: { name: string; email: string; ticketCode: string } };

/** Thrown inside the transaction when a confirmation finds its seats gone: the caller rolls back. */
export class SeatsGone extends Error {
  constructor() {
    super('no seats left for this booking');
  }
}

/** 409 for a booking not in a state `event` starts from (a booking mid-refund: `registration_changed`). */
export function refusal(event: BookingEvent, reg: Pick<Row, 'status'>) {
  if (reg.status === 'refunding')
    return conflict(
      'registration_changed',
      'a refund of this registration is in progress; read it again shortly',
    );
  const code = TRANSITIONS[event].refusal;
  return conflict(code, `this registration is ${reg.status}`);
}

/** What one kind of change wrote: the row after it and what the audit entry says. */
interface Applied {
  row: Row;
  after: Record<string, unknown>;
  before?: Record<string, unknown>;
  verb?: string;
}

type Apply<C extends BookingChange> = (
  trx: Transaction<Database>,
  deps: ChangeDeps,
  reg: Row,
  change: C,
) => Promise<Applied | undefined>;

const capture = (reg: Row, paymentId: string) => ({
  mode: reg.mode,
  paymentId,
  accountId: reg.account_id,
  registrationId: reg.id,
  capturedPaise: Number(reg.amount_paise),
});

/** `pay`, `approve`, `mark_paid`: confirmed, its payment recorded, everything a confirmation sets off; `SeatsGone` when no seat is left. */
const confirm: Apply<Extract<BookingChange, { event: 'pay' | 'approve' | 'mark_paid' }>> = async (
  trx,
  deps,
  reg,
  change,
) => {
  const now = deps.clock.now();
  const row = await repo.moveBooking(trx, reg, change.event, {
    pending_reason: null,
    confirmed_at: now,
    ...(change.event === 'pay' ? { payment_id: change.paymentId } : {}),
    ...(change.event === 'mark_paid' ? { offline_paid: JSON.stringify(change.paid) } : {}),
  });
  if (!row) return undefined;
  if (change.event === 'pay') await captures.recordCapture(trx, capture(reg, change.paymentId), now);
  if (
    !(await applyConfirmation(
      trx,
      deps,
      change.eventRow,
      { ...row, amount_paise: Number(row.amount_paise) },
      change.attendeeIds,
    ))
  )
    throw new SeatsGone();
  return {
    row,
    after: {
      status: row.status,
      ...(change.event === 'pay'
        ? { paymentId: change.paymentId, amount: rupees(Number(reg.amount_paise)) }
        : {}),
      ...(change.event === 'mark_paid'
        ? {
            method: change.paid.method,
            reference: change.paid.reference,
            amount: rupees(change.paid.amountPaise),
            paidAt: change.paid.paidAt,
          }
        : {}),
    },
  };
};

/** `reject`, `cancel`, `expire`, `lapse_unpaid`, `lose_last_seat`: ended with no money given back here (a lost seat's payment is refunded by its job). */
const end: Apply<
  Extract<BookingChange, { event: 'reject' | 'cancel' | 'expire' | 'lapse_unpaid' | 'lose_last_seat' }>
> = async (trx, deps, reg, change) => {
  const now = deps.clock.now();
  const bound = change.event === 'lose_last_seat' ? { payment_id: change.paymentId } : {};
  const row = await repo.moveBooking(trx, reg, change.event, {
    pending_reason: null,
    cancelled_at: now,
    ...bound,
  });
  if (!row) return undefined;
  if (change.event === 'lose_last_seat')
    await captures.recordCapture(trx, capture(reg, change.paymentId), now);
  const told = change.event === 'cancel' || change.event === 'lapse_unpaid';
  await applyBookingEnd(trx, deps, reg, undefined, told ? 'cancelled' : undefined);
  return { row, after: { status: row.status, ...(change.event === 'cancel' ? { refund: 0, kept: 0 } : {}) } };
};

/** `claim_refund`: the claim, its refund reserved against the capture (409 when it would exceed it). */
const claimRefund: Apply<Extract<BookingChange, { event: 'claim_refund' }>> = async (
  trx,
  deps,
  reg,
  { claim },
) => {
  const now = deps.clock.now();
  const row = await repo.moveBooking(trx, reg, 'claim_refund', {
    claim: JSON.stringify(claim),
    claimed_at: now,
  });
  if (!row) return undefined;
  if (!(await captures.reserveRefund(trx, capture(reg, reg.payment_id!), claim.refundPaise, now))) {
    throw conflict(
      'refund_exceeds_capture',
      'the refunds of this payment would exceed what was captured; read the booking again for what is left to refund',
    );
  }
  return {
    row,
    after: {
      status: row.status,
      to: claim.to,
      refund: rupees(claim.refundPaise),
      kept: rupees(claim.keptPaise),
      ...(claim.reason ? { reason: claim.reason } : {}),
    },
  };
};

/**
 * `complete_refund`: the claimed end (or, after a partial refund, confirmed again), with what
 * was given back added up, the refund in the ledger and the credit note, the seats of an
 * ended booking freed, and the buyer's mail.
 */
const completeRefund: Apply<Extract<BookingChange, { event: 'complete_refund' }>> = async (
  trx,
  deps,
  reg,
  change,
) => {
  const claim = reg.claim!;
  const refunded = reg.refunded_paise + claim.refundPaise;
  const partial = claim.to === 'confirmed';
  const set = partial
    ? { refunded_paise: refunded, claim: null, claimed_at: null }
    : {
        cancelled_at: deps.clock.now(),
        refund_id: change.refundId,
        kept_paise: claim.keptPaise,
        refunded_paise: refunded,
        claim: null,
        claimed_at: null,
      };
  const row = await repo.moveBooking(trx, reg, 'complete_refund', set, claim.to);
  if (!row) return undefined;
  const reason =
    claim.reason ?? (claim.to === 'cancelled' ? 'Booking cancelled and refunded' : 'Booking refunded');
  // A policy that keeps the whole price (`refund: 'none'`) refunds nothing: no refund entry, no credit note.
  const refund: EndRefund | undefined =
    claim.refundPaise > 0
      ? {
          reason,
          refundPaise: claim.refundPaise,
          amountPaise: Number(reg.amount_paise),
          refundedBeforePaise: reg.refunded_paise,
          ref: claim.key,
        }
      : undefined;
  if (partial) await applyPartialRefund(trx, deps, reg, refund!);
  else
    await applyBookingEnd(
      trx,
      deps,
      { ...reg, status: 'confirmed' },
      refund,
      claim.to as 'cancelled' | 'refunded',
    );
  const after = {
    status: row.status,
    refund: rupees(claim.refundPaise),
    kept: rupees(claim.keptPaise),
    ...(partial ? { refundedSoFar: rupees(refunded) } : {}),
    ...(claim.reason ? { reason: claim.reason } : {}),
  };
  return { row, verb: partial ? 'partial_refund' : claim.to === 'cancelled' ? 'cancel' : 'refund', after };
};

/** `release_claim`: the gateway refused; the booking is as it was, the reservation given back. */
const releaseClaim: Apply<Extract<BookingChange, { event: 'release_claim' }>> = async (
  trx,
  _deps,
  reg,
  change,
) => {
  const row = await repo.moveBooking(trx, reg, 'release_claim', { claim: null, claimed_at: null });
  if (!row) return undefined;
  await captures.releaseRefund(trx, reg.mode, reg.payment_id!, reg.claim!.refundPaise);
  return { row, after: { status: row.status, reason: change.reason } };
};

/**
 * `refunded_at_gateway`, `refund_offline`: refunded in full outside the service's own refund — at
 * the gateway's dashboard, or by the organiser outside the gateway for a booking paid outside it
 * (its ledger's offline refund; no gateway is asked). Seats freed, the credit note issued.
 */
const refundedElsewhere: Apply<
  Extract<BookingChange, { event: 'refunded_at_gateway' | 'refund_offline' }>
> = async (trx, deps, reg, change) => {
  const amount = Number(reg.amount_paise);
  const row = await repo.moveBooking(trx, reg, change.event, {
    pending_reason: null,
    cancelled_at: deps.clock.now(),
    refunded_paise: amount,
  });
  if (!row) return undefined;
  const offline = change.event === 'refund_offline';
  if (!offline) await captures.refundedInFull(trx, reg.mode, change.paymentId);
  const left = amount - reg.refunded_paise;
  const reason = offline ? change.reason : 'Booking refunded in full';
  const refund = { reason, refundPaise: left, amountPaise: amount, refundedBeforePaise: reg.refunded_paise };
  await applyBookingEnd(trx, deps, reg, { ...refund, ref: '', offline }, 'refunded');
  return {
    row,
    after: { status: row.status, refund: rupees(left), kept: 0, ...(offline ? { offline } : {}) },
  };
};

/** `transfer`: a new holder and ticket code (the giver's phone and WhatsApp consent are theirs, not the holder's); the ticket mail to them, a mail to the giver. */
const transfer: Apply<Extract<BookingChange, { event: 'transfer' }>> = async (
  trx,
  deps,
  reg,
  { eventRow, holder },
) => {
  const previous = reg.ticket_code
    ? [...reg.previous_ticket_codes, reg.ticket_code]
    : reg.previous_ticket_codes;
  const row = await repo.transferHolder(trx, reg.id, {
    ...holder,
    previousCodes: previous,
    currentCode: reg.ticket_code,
  });
  if (!row) return undefined;
  await applyTransfer(trx, deps, eventRow, reg.id, { name: reg.name, email: reg.email }, holder);
  return {
    row,
    before: { holder: { name: reg.name, email: reg.email } },
    after: { holder: { name: holder.name, email: holder.email } },
  };
};

const APPLY: { [E in BookingChange['event']]: Apply<Extract<BookingChange, { event: E }>> } = {
  pay: confirm,
  approve: confirm,
  mark_paid: confirm,
  reject: end,
  cancel: end,
  expire: end,
  lapse_unpaid: end,
  lose_last_seat: end,
  claim_refund: claimRefund,
  complete_refund: completeRefund,
  release_claim: releaseClaim,
  refunded_at_gateway: refundedElsewhere,
  refund_offline: refundedElsewhere,
  transfer,
};

/**
 * Applies `change` to `reg` (as the caller read it) inside `trx`: the row after it, or
 * undefined when the booking moved meanwhile (nothing written). Throws the table's 409 when
 * the booking is not in a state the change starts from, and `SeatsGone` when a confirmation
 * finds no seat (the caller's transaction must roll back).
 */
export async function changeBooking(
  trx: Transaction<Database>,
  deps: ChangeDeps,
  reg: Row,
  actor: audit.AuditActor,
  change: BookingChange,
): Promise<Row | undefined> {
  if (!mayAct(change.event, actor.kind)) throw new Error(`${actor.kind} may not ${change.event} a booking`);
  if (!canApply(change.event, reg)) throw refusal(change.event, reg);
  const applied = await (APPLY[change.event] as Apply<BookingChange>)(trx, deps, reg, change);
  if (!applied) return undefined;
  const verb = applied.verb ?? TRANSITIONS[change.event].audit!;
  await audit.recordChange(
    trx,
    deps,
    changeEntry(reg, actor, verb, applied.before ?? { status: reg.status }, applied.after),
  );
  return applied.row;
}
