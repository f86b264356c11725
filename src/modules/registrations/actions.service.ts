// What an organiser does to a booking after it exists: approve, reject, cancel,
// refund, transfer. Gateway calls come first; when the gateway fails nothing local
// changes (502).
import type { KeyPrincipal } from '../../shared/auth.js';
import { type AppError, badRequest, conflict, notFound } from '../../shared/errors.js';
import * as audit from '../audit/audit.service.js';
import * as events from '../events/events.service.js';
import { assertDeliverable } from '../mail/deliverable.js';
import { gatewayFailure, refundAtGateway } from '../payments/payments.service.js';
import { unrefundedPaise } from '../payments/refund-amount.js';
import { applyBookingEnd, applyConfirmation, applyTransfer } from './confirmation.js';
import type { RegisterDeps } from './register.service.js';
import * as repo from './registrations.repo.js';
import type { Db, RegistrationRow as Row } from './registrations.repo.js';
import * as orderChecks from '../payments/order-checks.js';

export async function loadOwnedRegistration(db: Db, p: KeyPrincipal, eventId: string, registrationId: string): Promise<Row> {
  const event = await events.loadOwnedEvent(db, p, eventId);
  const reg = await repo.findRegistration(db, registrationId);
  if (!reg || reg.event_id !== event.id) throw notFound('no such registration for this event', 'registration_not_found');
  return reg;
}

async function reload(db: Db, id: string): Promise<Row> {
  return (await repo.findRegistration(db, id))!;
}

function changedMeanwhile(): AppError {
  return conflict('registration_changed', 'this registration changed meanwhile; read it again');
}

export async function approve(deps: RegisterDeps, p: KeyPrincipal, eventId: string, registrationId: string): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status === 'confirmed') return reg;
  if (reg.status !== 'pending' || reg.pending_reason !== 'approval') {
    throw conflict('not_awaiting_approval', `this registration is ${reg.status}${reg.pending_reason === 'payment' ? ' awaiting payment' : ''}, not awaiting approval`);
  }
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const attendeeIds = await repo.attendeeIds(deps.db, reg.id);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.settlePending(trx, reg.id, 'confirmed', deps.clock.now()))) return;
    // The approval stays pending when the seats are gone; the organiser may raise capacity.
    if (!(await applyConfirmation(trx, deps, event, { ...reg, amount_paise: Number(reg.amount_paise) }, attendeeIds))) {
      throw conflict('sold_out', 'no seats left for this booking; it stays pending');
    }
    await recordChange(trx, deps, reg, { kind: 'key', keyId: p.keyId }, { action: 'approved', registrationId: reg.id });
  });
  deps.kickJobs();
  return reload(deps.db, reg.id);
}

export async function reject(deps: RegisterDeps, p: KeyPrincipal, eventId: string, registrationId: string): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status !== 'pending' || reg.pending_reason !== 'approval') throw conflict('not_awaiting_approval', `this registration is ${reg.status}, not awaiting approval`);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.settlePending(trx, reg.id, 'cancelled', deps.clock.now()))) return;
    await applyBookingEnd(trx, deps, { ...reg, status: 'pending' });
    await recordChange(trx, deps, reg, { kind: 'key', keyId: p.keyId }, { action: 'rejected', registrationId: reg.id });
  });
  return reload(deps.db, reg.id);
}

/**
 * Who changed a booking: the organiser (a key, or the dashboard acting through one) or
 * the attendee from their own page. Handed to `recordChange`.
 */
export type Actor = { kind: 'key'; keyId: string } | { kind: 'attendee'; registrationId: string } | { kind: 'system'; reason: string };

export type BookingChange =
  | { action: 'approved' | 'rejected'; registrationId: string }
  | { action: 'cancelled' | 'refunded'; registrationId: string; refundPaise: number; keptPaise: number }
  | { action: 'transferred'; registrationId: string; from: { name: string; email: string }; to: { name: string; email: string } };

const VERB: Record<BookingChange['action'], string> = { approved: 'approve', rejected: 'reject', cancelled: 'cancel', refunded: 'refund', transferred: 'transfer' };

/** The audit log's actor for a booking's change. */
function auditActor(reg: Pick<Row, 'account_id' | 'name'>, actor: Actor): audit.AuditActor {
  if (actor.kind === 'key') return audit.actorOfKey({ userId: reg.account_id, keyId: actor.keyId });
  if (actor.kind === 'attendee') return { kind: 'attendee', id: actor.registrationId, display: reg.name };
  return audit.systemActor(actor.reason);
}

/**
 * The one place every change to a booking passes, inside its transaction, with who made
 * it: appended to the audit log (product-decisions §17) as `registration.<verb>`.
 */
async function recordChange(trx: Db, deps: Pick<RegisterDeps, 'clock' | 'ids'>, reg: Row, actor: Actor, change: BookingChange): Promise<void> {
  const { action, registrationId: _id, ...facts } = change;
  const money = (paise: number) => paise / 100;
  const after =
    'refundPaise' in facts
      ? { status: action, refund: money(facts.refundPaise), kept: money(facts.keptPaise) }
      : 'to' in facts
        ? { holder: facts.to }
        : { status: action === 'approved' ? 'confirmed' : 'cancelled' };
  const before = 'from' in facts ? { holder: facts.from } : { status: reg.status };
  await audit.recordChange(trx, deps, { accountId: reg.account_id, mode: reg.mode, actor: auditActor(reg, actor), action: `registration.${VERB[action]}`, target: { type: 'registration', id: reg.id }, before, after });
}

/**
 * Ends a booking. `cancelled` refunds a paid booking in full; `refunded` is the
 * organiser's explicit refund. Seats are freed either way.
 */
export async function end(deps: RegisterDeps, p: KeyPrincipal, eventId: string, registrationId: string, to: 'cancelled' | 'refunded'): Promise<Row> {
  return endLoaded(deps, await loadOwnedRegistration(deps.db, p, eventId, registrationId), to, { kind: 'key', keyId: p.keyId });
}

/**
 * Ends a loaded booking: the refund at the gateway first (all of it unless `refundPaise`
 * says less, as an attendee's cancellation policy may), then in one transaction the status,
 * the seats (freed to the waitlist), the ledger and the change's record.
 */
export async function endLoaded(deps: RegisterDeps, reg: Row, to: 'cancelled' | 'refunded', actor: Actor, refundPaise?: number): Promise<Row> {
  if (reg.status === 'cancelled' || reg.status === 'refunded') throw conflict('already_ended', `this registration is already ${reg.status}`);
  const paid = reg.status === 'confirmed' && reg.payment_id !== null && Number(reg.amount_paise) > 0;
  if (to === 'refunded' && !paid) throw conflict('nothing_to_refund', 'this registration has no captured payment to refund');
  const amount = paid ? Number(reg.amount_paise) : 0;
  const refund = Math.min(refundPaise ?? amount, amount);

  let refundId: string | null = null;
  if (refund > 0) {
    // Should the refund's answer be lost, reconciliation finds the refund and ends the booking.
    if (reg.order_id !== null) await orderChecks.reopenOrderCheck(deps, reg.order_id);
    try {
      refundId = (await refundAtGateway(deps.gatewayFor(reg.mode, reg.account_id), { paymentId: reg.payment_id!, amountPaise: refund, notes: { registrationId: reg.id } })).id;
    } catch (err) {
      throw gatewayFailure(err, 'refund the payment');
    }
  }
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.endBooking(trx, reg.id, reg.status, to, deps.clock.now(), refundId, amount - refund))) throw changedMeanwhile();
    // Seats or the promo reservation back; the refund in the ledger (all of it with the
    // platform-fee reversal and the credit note, or the part refunded), with the change.
    const reason = to === 'cancelled' ? 'Booking cancelled and refunded' : 'Booking refunded';
    await applyBookingEnd(trx, deps, reg, refund > 0 ? { reason, part: { refundPaise: refund, amountPaise: amount } } : undefined);
    await recordChange(trx, deps, reg, actor, { action: to, registrationId: reg.id, refundPaise: refund, keptPaise: amount - refund });
  });
  deps.kickJobs();
  return reload(deps.db, reg.id);
}

export async function transfer(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  input: { name: string; email: string },
): Promise<Row> {
  return transferLoaded(deps, await loadOwnedRegistration(deps.db, p, eventId, registrationId), input, { kind: 'key', keyId: p.keyId });
}

/** Reissues a confirmed booking's ticket to another person: a new ticketCode, the ticket mail to them. */
export async function transferLoaded(deps: RegisterDeps, reg: Row, input: { name: string; email: string }, actor: Actor): Promise<Row> {
  if (reg.status !== 'confirmed') throw conflict('not_confirmed', `only a confirmed ticket can be transferred; this one is ${reg.status}`);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  const email = await assertDeliverable(deps.checkEmail, input.email);
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const ticketCode = deps.ids.make('tkt', 16);
  const previousCodes = reg.ticket_code ? [...reg.previous_ticket_codes, reg.ticket_code] : reg.previous_ticket_codes;
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.transferHolder(trx, reg.id, { name, email, ticketCode, previousCodes, currentCode: reg.ticket_code }))) throw changedMeanwhile();
    await applyTransfer(trx, deps, event, reg.id);
    await recordChange(trx, deps, reg, actor, { action: 'transferred', registrationId: reg.id, from: { name: reg.name, email: reg.email }, to: { name, email } });
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
    } else if (reg.status === 'pending') {
      await endLoaded(deps, reg, 'cancelled', DELETION);
      if (reg.order_id === null) continue;
      await orderChecks.reopenOrderCheck(deps, reg.order_id);
      const payments = await gateway().fetchOrderPayments(reg.order_id).catch((err: unknown) => {
        throw gatewayFailure(err, 'look up the order’s payments');
      });
      for (const payment of payments) {
        const amount = unrefundedPaise(payment);
        if (amount === 0) continue;
        await refundAtGateway(gateway(), { paymentId: payment.id, amountPaise: amount, notes: { registrationId: reg.id, reason: 'event_deleted' } }).catch((err: unknown) => {
          throw gatewayFailure(err, 'refund the payment');
        });
      }
    } else if (reg.payment_id !== null) {
      const payment = await gateway().fetchPayment(reg.payment_id).catch((err: unknown) => {
        throw gatewayFailure(err, 'look up the payment');
      });
      const amount = payment ? unrefundedPaise(payment) : 0;
      if (payment && amount > 0) {
        const refund = await refundAtGateway(gateway(), { paymentId: payment.id, amountPaise: amount, notes: { registrationId: reg.id, reason: 'event_deleted' } }).catch((err: unknown) => {
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
 * gateway): cancelled. It held no seat (seats are taken at confirmation); its promo
 * code's reserved use goes back. A payment that arrives later is refunded like any for a
 * cancelled booking.
 */
export function expireUnpaid(deps: Pick<RegisterDeps, 'db' | 'clock' | 'ids'>, registrationId: string): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const ended = await repo.expireUnpaid(trx, registrationId, deps.clock.now());
    if (ended) await applyBookingEnd(trx, deps, { ...ended, status: 'pending' });
    return ended !== undefined;
  });
}

/**
 * A confirmed booking whose payment the gateway has fully refunded (a refund whose
 * answer was lost, or one made in the gateway's dashboard): ended as refunded, seats
 * freed, and the refund written to the ledger with it.
 */
export async function endRefundedAtGateway(deps: Pick<RegisterDeps, 'db' | 'clock' | 'ids'>, registrationId: string, refundedPaymentId: string): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const reg = await repo.endRefundedPayment(trx, registrationId, refundedPaymentId, deps.clock.now());
    if (!reg) return false;
    await applyBookingEnd(trx, deps, { ...reg, status: 'confirmed' }, { reason: 'Booking refunded in full' });
    return true;
  });
}
