// Paid confirmation: step 2 (the buyer's client reports the payment) and the
// gateway's paid notification both verify the payment and confirm through
// `confirmPaid`. Seats are claimed at confirmation; a confirmation that loses the race
// for the last seat is cancelled, and the payment already taken is refunded by a
// durable job. A payment for a booking cancelled before it was paid is refunded too.
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Mode } from '../../db/database.js';
import { enqueue } from '../../jobs/queue.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { conflict, notFound } from '../../lib/errors.js';
import * as events from '../events/events.service.js';
import type { GatewayPayment } from '../payments/gateway.js';
import { gatewayFailure, paymentNotVerified, verifyPayment } from '../payments/payments.service.js';
import * as audit from '../audit/audit.service.js';
import * as captures from '../payments/captures.repo.js';
import { canApply } from './lifecycle/booking-lifecycle.js';
import { changeBooking, SeatsGone } from './lifecycle/change-booking.js';
import type { RegisterDeps } from './register-deps.js';
import { soldOut } from './registrations.errors.js';
import { refundPaymentJob } from './registrations.jobs.js';
import * as repo from './registrations.repo.js';
import type { Db, RegistrationRow as Row } from './registrations.repo.js';

export interface Confirmation {
  registrationId: string;
  status: 'confirmed';
  orderId: string;
  paymentId: string;
}

/**
 * Confirms a pending paid registration against a verified, captured payment (`pay`).
 * Returns 'confirmed', 'already' (someone else settled it first) or 'sold_out' (the seats
 * went meanwhile: `lose_last_seat` cancels it and a durable job refunds the payment).
 */
async function confirmPaid(
  deps: RegisterDeps,
  reg: Row,
  payment: GatewayPayment,
  actor: audit.AuditActor,
): Promise<'confirmed' | 'already' | 'ended_unpaid' | 'sold_out'> {
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const attendeeIds = await repo.attendeeIds(deps.db, reg.id);
  if (!canApply('pay', reg)) return 'already';
  try {
    const moved = await deps.db.transaction().execute((trx) =>
      changeBooking(trx, deps, reg, actor, {
        event: 'pay',
        paymentId: payment.id,
        eventRow: event,
        attendeeIds,
      }),
    );
    if (!moved) {
      // Settled meanwhile. Ended before it was paid (cancelled, expired): nobody keeps this payment.
      const now = await repo.findRegistration(deps.db, reg.id);
      if (
        now &&
        now.status === 'cancelled' &&
        now.payment_id === null &&
        (await refundUnbooked(deps, now, payment))
      )
        return 'ended_unpaid';
      return 'already';
    }
    deps.kickJobs();
    return 'confirmed';
  } catch (err) {
    if (isUniqueViolation(err))
      throw paymentNotVerified('this payment is already bound to another registration');
    if (!(err instanceof SeatsGone)) throw err;
  }
  // Lost the race for the last seat: cancel, bind the payment, refund it durably.
  await deps.db.transaction().execute(async (trx) => {
    if (await changeBooking(trx, deps, reg, actor, { event: 'lose_last_seat', paymentId: payment.id })) {
      await enqueue(trx, deps, refundPaymentJob, {
        registrationId: reg.id,
        paymentId: payment.id,
        amount: Number(reg.amount_paise),
      });
    }
  });
  deps.kickJobs();
  return 'sold_out';
}

/**
 * A captured payment for a booking that was cancelled before it was paid: bind it and
 * refund it through the durable job, once (the bind is conditional).
 */
async function refundUnbooked(deps: RegisterDeps, reg: Row, payment: GatewayPayment): Promise<boolean> {
  const bound = await deps.db.transaction().execute(async (trx) => {
    const r = await repo.bindPaymentToEnded(trx, reg.id, payment.id);
    if (r) {
      await captures.recordCapture(
        trx,
        {
          mode: reg.mode,
          paymentId: payment.id,
          accountId: reg.account_id,
          registrationId: reg.id,
          capturedPaise: payment.amount,
        },
        deps.clock.now(),
      );
      await enqueue(trx, deps, refundPaymentJob, {
        registrationId: reg.id,
        paymentId: payment.id,
        amount: payment.amount,
      });
    }
    return r;
  });
  if (bound) deps.kickJobs();
  return bound;
}

async function loadRegistration(db: Db, eventId: string, registrationId: string): Promise<Row> {
  const reg = await repo.findRegistration(db, registrationId);
  if (!reg || reg.event_id !== eventId)
    throw notFound('no such registration for this event', 'registration_not_found');
  return reg;
}

/**
 * Step 2 for a registration no longer pending: the same confirmation again answers as
 * before; anything else is refused (a payment for a booking that ended unpaid is refunded).
 */
async function settledAnswer(
  deps: RegisterDeps,
  reg: Row,
  input: { orderId: string; paymentId: string },
  answer: Confirmation,
): Promise<Confirmation> {
  if (reg.status === 'confirmed') {
    if (reg.payment_id === input.paymentId && reg.order_id === input.orderId) return answer;
    throw paymentNotVerified('this registration is already confirmed with another payment');
  }
  if (reg.payment_id === input.paymentId && reg.status === 'cancelled') throw soldOut();
  // Paid after the organiser cancelled it: nobody keeps money for a booking that is gone.
  if (reg.payment_id === null && input.orderId === reg.order_id) {
    const payment = await deps
      .gatewayFor(reg.mode, reg.account_id)
      .fetchPayment(input.paymentId)
      .catch((err: unknown) => {
        throw gatewayFailure(err, 'look up the payment');
      });
    if (
      payment &&
      payment.orderId === reg.order_id &&
      payment.captured &&
      (await refundUnbooked(deps, reg, payment))
    ) {
      throw conflict(
        'registration_not_pending',
        `this registration was ${reg.status} before it was paid; the payment is being refunded`,
      );
    }
  }
  throw conflict('registration_not_pending', `this registration is ${reg.status}`);
}

export async function confirmStep2(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  input: { registrationId: string; orderId: string; paymentId: string },
): Promise<Confirmation> {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const reg = await loadRegistration(deps.db, event.id, input.registrationId);
  const answer: Confirmation = {
    registrationId: reg.id,
    status: 'confirmed',
    orderId: input.orderId,
    paymentId: input.paymentId,
  };

  if (reg.order_id === null)
    throw conflict('not_a_paid_registration', 'this registration has no payment to confirm');
  if (reg.status !== 'pending') return settledAnswer(deps, reg, input, answer);
  if (input.orderId !== reg.order_id)
    throw paymentNotVerified('orderId is not the order of this registration');
  const bound = await repo.findIdByPayment(deps.db, input.paymentId);
  if (bound !== undefined && bound !== reg.id)
    throw paymentNotVerified('this payment is already bound to another registration');

  const payment = await verifyPayment(
    deps.gatewayFor(reg.mode, reg.account_id),
    {
      orderId: reg.order_id,
      amountPaise: Number(reg.amount_paise),
      currency: reg.currency,
      paidFor: 'registration',
    },
    input.paymentId,
  );
  const outcome = await confirmPaid(deps, reg, payment, audit.actorOfKey(p));
  if (outcome === 'sold_out') throw soldOut();
  // Ended by another change while this payment was verified (the organiser's cancel, expiry): refunded by its job.
  if (outcome === 'ended_unpaid')
    throw conflict(
      'registration_not_pending',
      'this registration ended before this payment confirmed it; the payment is being refunded',
    );
  if (outcome === 'already') {
    const now = await loadRegistration(deps.db, event.id, reg.id);
    if (now.status === 'confirmed' && now.payment_id === input.paymentId) return answer;
    if (now.status === 'cancelled' && now.payment_id === input.paymentId) throw soldOut();
    throw paymentNotVerified('this registration was settled with another payment');
  }
  return answer;
}

/**
 * The gateway says an order was paid (notification, or the sandbox's stand-in).
 * Confirms the pending registration of that order exactly once; a repeat, or a
 * notification for an order we do not hold, changes nothing.
 */
export async function confirmFromGateway(
  deps: RegisterDeps,
  mode: Mode,
  orderId: string,
  payment: GatewayPayment,
  by: 'gateway_notification' | 'reconciliation' = 'gateway_notification',
): Promise<'confirmed' | 'ignored' | 'sold_out'> {
  const reg = await repo.findByOrder(deps.db, orderId, mode);
  if (!reg) return 'ignored';
  if (reg.status !== 'pending') {
    if (reg.payment_id === null && payment.orderId === orderId && payment.captured)
      await refundUnbooked(deps, reg, payment);
    return 'ignored';
  }
  if (
    payment.orderId !== orderId ||
    payment.amount !== Number(reg.amount_paise) ||
    payment.currency !== reg.currency ||
    !payment.captured
  ) {
    return 'ignored';
  }
  const outcome = await confirmPaid(deps, reg, payment, audit.systemActor(by));
  return outcome === 'already' || outcome === 'ended_unpaid' ? 'ignored' : outcome;
}
