// What an organiser (or the attendee, or the service) does to a booking after it exists:
// approve, reject, cancel, refund, transfer, expiry, deletion, a refund found at the
// gateway. Each is a thin use case over the booking lifecycle (lifecycle/): the state
// change, its effects and its audit entry are `changeBooking`'s; a refund is claimed before
// the gateway is asked (lifecycle/refund-claim.ts).
import type { KeyPrincipal } from '../../http/auth.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import * as audit from '../audit/audit.service.js';
import * as events from '../events/events.service.js';
import { assertDeliverable } from '../mail/deliverable.js';
import { gatewayFailure, refundAtGateway } from '../payments/payments.service.js';
import { canApply, holdsPayment } from './lifecycle/booking-lifecycle.js';
import { changeBooking, refusal, SeatsGone } from './lifecycle/change-booking.js';
import { changedMeanwhile, endWithRefund, finishClaim, refundPart } from './lifecycle/refund-claim.js';
import { unrefundedPaise } from '../payments/refund-amount.js';
import type { RegisterDeps } from './register.service.js';
import * as repo from './registrations.repo.js';
import type { Db, RegistrationRow as Row } from './registrations.repo.js';
import * as orderChecks from '../payments/order-checks.js';

export async function loadOwnedRegistration(
  db: Db,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
): Promise<Row> {
  const event = await events.loadOwnedEvent(db, p, eventId);
  const reg = await repo.findRegistration(db, registrationId);
  if (!reg || reg.event_id !== event.id)
    throw notFound('no such registration for this event', 'registration_not_found');
  return reg;
}

async function reload(db: Db, id: string): Promise<Row> {
  return (await repo.findRegistration(db, id))!;
}

/**
 * Who changed a booking: the organiser (a key, or the dashboard acting through one) or
 * the attendee from their own page, or the service itself. The audit log's actor.
 */
export type Actor =
  | { kind: 'key'; keyId: string; personId?: string | undefined }
  | { kind: 'attendee'; registrationId: string }
  | { kind: 'system'; reason: string };

/** The audit log's actor for a booking's change. */
export function auditActor(reg: Pick<Row, 'account_id' | 'name'>, actor: Actor): audit.AuditActor {
  if (actor.kind === 'key')
    return audit.actorOfKey({
      userId: reg.account_id,
      keyId: actor.keyId,
      ...(actor.personId === undefined ? {} : { personId: actor.personId }),
    });
  if (actor.kind === 'attendee') return { kind: 'attendee', id: actor.registrationId, display: reg.name };
  return audit.systemActor(actor.reason);
}

export async function approve(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status === 'confirmed') return reg;
  if (reg.status !== 'pending' || reg.pending_reason !== 'approval') {
    throw conflict(
      'not_awaiting_approval',
      `this registration is ${reg.status}${reg.pending_reason === 'payment' ? ' awaiting payment' : ''}, not awaiting approval`,
    );
  }
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const attendeeIds = await repo.attendeeIds(deps.db, reg.id);
  try {
    await deps.db.transaction().execute(async (trx) => {
      // The approval stays pending when the seats are gone; the organiser may raise capacity.
      const moved = await changeBooking(trx, deps, reg, auditActor(reg, { kind: 'key', keyId: p.keyId }), {
        event: 'approve',
        eventRow: event,
        attendeeIds,
      });
      if (!moved) throw changedMeanwhile();
    });
  } catch (err) {
    if (err instanceof SeatsGone)
      throw conflict('sold_out', 'no seats left for this booking; it stays pending');
    throw err;
  }
  deps.kickJobs();
  return reload(deps.db, reg.id);
}

export async function reject(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status !== 'pending' || reg.pending_reason !== 'approval')
    throw conflict('not_awaiting_approval', `this registration is ${reg.status}, not awaiting approval`);
  await deps.db.transaction().execute(async (trx) => {
    const moved = await changeBooking(trx, deps, reg, auditActor(reg, { kind: 'key', keyId: p.keyId }), {
      event: 'reject',
    });
    if (!moved) throw changedMeanwhile();
  });
  return reload(deps.db, reg.id);
}

/**
 * Ends a booking. `cancelled` refunds a paid booking in full; `refunded` is the
 * organiser's explicit refund. Seats are freed either way.
 */
export async function end(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  to: 'cancelled' | 'refunded',
): Promise<Row> {
  return endLoaded(deps, await loadOwnedRegistration(deps.db, p, eventId, registrationId), to, {
    kind: 'key',
    keyId: p.keyId,
  });
}

/**
 * Ends a loaded booking through the lifecycle: a paid one by a claimed refund (all of it
 * unless `refundPaise` says less, as an attendee's cancellation policy may), anything else
 * by `cancel`, in one transaction with its seats (freed to the waitlist), ledger and audit entry.
 */
export async function endLoaded(
  deps: RegisterDeps,
  reg: Row,
  to: 'cancelled' | 'refunded',
  actor: Actor,
  refundPaise?: number,
): Promise<Row> {
  if (reg.status === 'cancelled' || reg.status === 'refunded')
    throw conflict('already_ended', `this registration is already ${reg.status}`);
  if (reg.status === 'refunding') throw refusal('claim_refund', reg);
  const paid = reg.status === 'confirmed' && holdsPayment(reg);
  if (to === 'refunded' && !paid)
    throw conflict(
      'nothing_to_refund',
      reg.offline_paid !== null
        ? 'this registration was paid outside the gateway: record the refund you gave with `offline: true`'
        : 'this registration has no captured payment to refund',
    );
  const who = auditActor(reg, actor);
  if (paid) return endWithRefund(deps, reg, to, who, refundPaise);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await changeBooking(trx, deps, reg, who, { event: 'cancel' }))) throw changedMeanwhile();
  });
  deps.kickJobs();
  return reload(deps.db, reg.id);
}

/** The reason of a partial refund: required, one short paragraph (the buyer's mail and the credit note carry it). */
const REASON_MAX = 300;

/**
 * The organiser gives back part of a paid booking (docs/decisions/28-a-persons-day.md), which stays
 * confirmed: `amountPaise` more than 0 and at most what is left to refund (all that is left
 * ends it refunded), with a reason. Through the lifecycle: claimed, refunded at the gateway
 * with an idempotency key, completed; a credit note for the part where an invoice exists.
 */
export async function refundPartOf(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  input: { amountPaise: number; reason: string },
): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  const reason = input.reason.trim().replace(/\s+/g, ' ');
  if (reason === '')
    throw badRequest(
      'invalid_field',
      'reason must not be empty: the buyer’s mail and the credit note give it',
      { field: 'reason' },
    );
  if (reason.length > REASON_MAX)
    throw badRequest('invalid_field', `reason must be at most ${REASON_MAX} characters`, { field: 'reason' });
  if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise <= 0)
    throw badRequest('invalid_amount', 'amount must be more than 0, in rupees with at most two decimals', {
      field: 'amount',
    });
  if (reg.status === 'refunding') throw refusal('claim_refund', reg);
  if (reg.status !== 'confirmed')
    throw conflict('already_ended', `this registration is ${reg.status}; nothing more can be refunded`);
  if (!holdsPayment(reg))
    throw conflict('nothing_to_refund', 'this registration has no captured payment to refund');
  return refundPart(deps, reg, auditActor(reg, { kind: 'key', keyId: p.keyId }), input.amountPaise, reason);
}

export async function transfer(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  input: { name: string; email: string },
): Promise<Row> {
  return transferLoaded(deps, await loadOwnedRegistration(deps.db, p, eventId, registrationId), input, {
    kind: 'key',
    keyId: p.keyId,
  });
}

/** Reissues a confirmed booking's ticket to another person: a new ticketCode, the ticket mail to them. */
export async function transferLoaded(
  deps: RegisterDeps,
  reg: Row,
  input: { name: string; email: string },
  actor: Actor,
): Promise<Row> {
  if (reg.status !== 'confirmed')
    throw conflict('not_confirmed', `only a confirmed ticket can be transferred; this one is ${reg.status}`);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  const email = await assertDeliverable(deps.checkEmail, input.email);
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const ticketCode = deps.ids.make('tkt', 16);
  await deps.db.transaction().execute(async (trx) => {
    const moved = await changeBooking(trx, deps, reg, auditActor(reg, actor), {
      event: 'transfer',
      eventRow: event,
      holder: { name, email, ticketCode },
    });
    if (!moved) throw changedMeanwhile();
  });
  deps.kickJobs();
  return reload(deps.db, reg.id);
}

/**
 * Before an event is deleted (staff, `force=true`): every booking's money is settled
 * through the usual paths, each refund recorded in the ledger with it. A confirmed paid
 * booking is refunded and ends `refunded`; a pending one ends `cancelled` (its promo
 * reservation released) and anything already captured on its order is refunded, the
 * order watched by reconciliation for a payment that comes later; a captured payment of
 * a booking that ended unpaid and whose refund job has not run is refunded now.
 * Answers how many bookings still hold money (0 when all is settled).
 */
const DELETION: Actor = { kind: 'system', reason: 'event_deleted' };

export async function settleEventPayments(deps: RegisterDeps, eventId: string): Promise<number> {
  for (const reg of await repo.withPaymentsInFlight(deps.db, eventId)) {
    const gateway = () => deps.gatewayFor(reg.mode, reg.account_id);
    if (reg.status === 'confirmed') {
      await endLoaded(deps, reg, reg.payment_id === null ? 'cancelled' : 'refunded', DELETION);
    } else if (reg.status === 'refunding') {
      // A refund claimed and not finished: asked again with its own key.
      await finishClaim(deps, reg);
    } else if (reg.status === 'pending') {
      await endLoaded(deps, reg, 'cancelled', DELETION);
      if (reg.order_id === null) continue;
      await orderChecks.reopenOrderCheck(deps, reg.order_id);
      const payments = await gateway()
        .fetchOrderPayments(reg.order_id)
        .catch((err: unknown) => {
          throw gatewayFailure(err, 'look up the order’s payments');
        });
      for (const payment of payments) {
        const amount = unrefundedPaise(payment);
        if (amount === 0) continue;
        await refundAtGateway(gateway(), {
          paymentId: payment.id,
          amountPaise: amount,
          notes: { registrationId: reg.id, reason: 'event_deleted' },
        }).catch((err: unknown) => {
          throw gatewayFailure(err, 'refund the payment');
        });
      }
    } else if (reg.payment_id !== null) {
      const payment = await gateway()
        .fetchPayment(reg.payment_id)
        .catch((err: unknown) => {
          throw gatewayFailure(err, 'look up the payment');
        });
      const amount = payment ? unrefundedPaise(payment) : 0;
      if (payment && amount > 0) {
        const refund = await refundAtGateway(gateway(), {
          paymentId: payment.id,
          amountPaise: amount,
          notes: { registrationId: reg.id, reason: 'event_deleted' },
        }).catch((err: unknown) => {
          throw gatewayFailure(err, 'refund the payment');
        });
        await repo.setRefundId(deps.db, reg.id, refund.id);
      } else {
        await repo.setRefundId(deps.db, reg.id, 'refunded_before_deletion');
      }
    }
  }
  return (await repo.withPaymentsInFlight(deps.db, eventId)).length;
}

/**
 * A paid booking left unpaid past its expiry (reconciliation found no payment at the
 * gateway): cancelled by the service. It held no seat (seats are taken at confirmation); its
 * promo code's reserved use goes back. A payment that arrives later is refunded like any for
 * a cancelled booking.
 */
export async function expireUnpaid(
  deps: Pick<RegisterDeps, 'db' | 'clock' | 'ids'>,
  registrationId: string,
): Promise<boolean> {
  const reg = await repo.findRegistration(deps.db, registrationId);
  if (!reg || !canApply('expire', reg)) return false;
  const moved = await deps.db
    .transaction()
    .execute((trx) =>
      changeBooking(trx, deps, reg, audit.systemActor('checkout_window_passed'), { event: 'expire' }),
    );
  return moved !== undefined;
}

/**
 * A confirmed booking whose payment the gateway has fully refunded (a refund made in the
 * gateway's dashboard): ended as refunded by the service, seats freed, and the refund
 * written to the ledger with it.
 */
export async function endRefundedAtGateway(
  deps: Pick<RegisterDeps, 'db' | 'clock' | 'ids'>,
  registrationId: string,
  refundedPaymentId: string,
): Promise<boolean> {
  const reg = await repo.findRegistration(deps.db, registrationId);
  if (!reg || reg.payment_id !== refundedPaymentId || !canApply('refunded_at_gateway', reg)) return false;
  const moved = await deps.db.transaction().execute((trx) =>
    changeBooking(trx, deps, reg, audit.systemActor('refunded_at_gateway'), {
      event: 'refunded_at_gateway',
      paymentId: refundedPaymentId,
    }),
  );
  return moved !== undefined;
}
