// Registering, step 1, the writing: each booking register.service.ts has made and checked is
// written by one of three writers, by what it is: the common free booking in one statement
// (free-bookings.ts groups them), other free bookings in a transaction, and paid bookings as a
// gateway order first, then the pending registration.
import type { BillingDoc, Mode, OfflineMethod } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import * as events from '../events/events.service.js';
import { gatewayFailure } from '../payments/payments.service.js';
import * as audit from '../audit/audit.service.js';
import { applyConfirmation, confirmationEffects, oneStatementEffects } from './confirmation.js';
import { bookedEntry } from './lifecycle/booking-audit.js';
import * as lifecycle from './lifecycle/lifecycle.repo.js';
import * as promos from './promo.service.js';
import { soldOut } from './registrations.errors.js';
import type { RegisterDeps } from './register-deps.js';
import * as repo from './registrations.repo.js';
import { assertPendingRoom, lockPendingRoom } from './pending-room.js';
import { assertBuyerLimit, assertBuyerLimitEarly } from './buyer-limit.js';
import * as orderChecks from '../payments/order-checks.js';
import * as seatHolds from '../seat-holds/booked-seats.service.js';

export type RegisterResult =
  | { kind: 'free'; registrationId: string; status: 'confirmed' | 'pending'; ticketIds: string[] }
  | { kind: 'order'; registrationId: string; orderId: string; amount: number; currency: string; key: string }
  | {
      kind: 'offline';
      registrationId: string;
      amount: number;
      currency: string;
      awaitingPayment: { method: OfflineMethod; reference: string; payBy: Date };
    };

/** The registration row of a booking, before its writer adds what its path sets. */
export interface NewBooking {
  id: string;
  event_id: string;
  account_id: string;
  mode: Mode;
  name: string;
  email: string;
  phone: string | null;
  whatsapp_opt_in: boolean;
  ticket_type: string;
  sub_event_id: number | null;
  quantity: number;
  amount_paise: number;
  currency: string;
  custom_fields: string;
  promo_code: string | null;
  ticket_code: null;
  created_at: Date;
  refund_id: null;
  cancelled_at: null;
  waitlist_entry_id: string | null;
}

/** A booking made and about to be written, with what its writers need. */
export interface Booking {
  deps: RegisterDeps;
  p: KeyPrincipal;
  event: Awaited<ReturnType<typeof events.loadOwnedEventWithTaken>>;
  booking: NewBooking;
  people: { id: string; idx: number; name: string; email: string }[];
  ticketIds: string[];
  quantity: number;
  promo: Awaited<ReturnType<typeof promos.findUsable>> | undefined;
  /** A seated event's held seats, given to the booking as it is written. */
  held?: seatHolds.HeldSeats | undefined;
  now: Date;
}

/**
 * The common free booking holds one seat counter: one statement claims it and writes
 * everything the confirmation sets off, for this booking and any that queued behind the
 * counter's last statement. When no seat is left, nothing is written.
 */
export async function bookInOneStatement({
  deps,
  p,
  event,
  booking,
  people,
  ticketIds,
  quantity,
  now,
}: Booking): Promise<RegisterResult> {
  const registrationId = booking.id;
  const effects = oneStatementEffects(deps, confirmationEffects(deps, event, booking, ticketIds));
  const auditRow = audit.entryRow(
    deps,
    bookedEntry({ ...booking, status: 'confirmed' }, audit.actorOfKey(p)),
  );
  const written = await deps.freeBookings.book({
    row: booking,
    people,
    scope: events.EVENT_SCOPE,
    ...effects,
    auditRow,
  });
  if (!written) {
    // One seat asked and none claimed: the event is full.
    if (quantity === 1 && event.capacity > 0) events.markSoldOut(event, now, deps.soldOutMemoryMs);
    throw soldOut();
  }
  deps.kickJobs();
  return { kind: 'free', registrationId, status: 'confirmed', ticketIds };
}

/** A free booking written in a transaction: one awaiting approval, or holding several seat counters, a promo code or an offer. */
export async function bookFree({
  deps,
  p,
  event,
  booking,
  people,
  ticketIds,
  promo,
  held,
  now,
}: Booking): Promise<RegisterResult> {
  const awaitingApproval = event.requires_approval;
  await deps.db.transaction().execute(async (trx) => {
    await assertBuyerLimit(trx, event, booking);
    const row = { ...booking, confirmed_at: awaitingApproval ? null : now, order_id: null, payment_id: null };
    await lifecycle.insertBooking(trx, awaitingApproval ? 'await_approval' : 'book', row);
    await audit.recordChange(
      trx,
      deps,
      bookedEntry({ ...row, status: awaitingApproval ? 'pending' : 'confirmed' }, audit.actorOfKey(p)),
    );
    await repo.insertAttendees(trx, booking, people);
    if (held) await seatHolds.attachHold(trx, deps.clock, held, booking.id, ticketIds);
    // Reserved with the booking: a use when confirmed now, held while it awaits approval.
    if (promo) await promos.reserveUse(trx, event.id, promo.code);
    if (!awaitingApproval && !(await applyConfirmation(trx, deps, event, booking, ticketIds)))
      throw soldOut();
  });
  if (!awaitingApproval) deps.kickJobs();
  return {
    kind: 'free',
    registrationId: booking.id,
    status: awaitingApproval ? 'pending' : 'confirmed',
    ticketIds,
  };
}

/** Paid: the order first (outside any transaction), then the pending registration. */
export async function bookPaid(
  { deps, p, event, booking, people, ticketIds, promo, held }: Booking,
  {
    email,
    billing,
    clientAddress,
  }: { email: string; billing: BillingDoc | null; clientAddress: string | null },
): Promise<RegisterResult> {
  const registrationId = booking.id;
  const amountPaise = booking.amount_paise;
  // Refused before any gateway order; checked again under locks where the booking is written.
  await assertPendingRoom(deps.db, event.id, email, clientAddress);
  await assertBuyerLimitEarly(deps.db, event, booking);
  const gateway = deps.gatewayFor(event.mode, event.account_id);
  // Written before the call: an order whose answer is lost is found by its receipt.
  await orderChecks.openOrderCheck(deps, {
    receipt: registrationId,
    kind: 'registration',
    mode: event.mode,
    accountId: event.account_id,
    amount: amountPaise,
    currency: event.currency,
  });
  let order;
  try {
    order = await gateway.createOrder({
      amount: amountPaise,
      currency: event.currency,
      receipt: registrationId.slice(0, 40),
      notes: { registrationId, eventId: event.id },
    });
  } catch (err) {
    throw gatewayFailure(err, 'create the order');
  }
  await deps.db.transaction().execute(async (trx) => {
    // Refused here (a race past the early check), the order is held by no booking and
    // settled by reconciliation, like one whose promo code's last use went meanwhile.
    await lockPendingRoom(trx, event.id, email, clientAddress);
    await assertPendingRoom(trx, event.id, email, clientAddress);
    await assertBuyerLimit(trx, event, booking);
    const row = {
      ...booking,
      confirmed_at: null,
      order_id: order.id,
      payment_id: null,
      client_address: clientAddress,
      billing: billing === null ? null : JSON.stringify(billing),
    };
    await lifecycle.insertBooking(trx, 'await_payment', row);
    await audit.recordChange(trx, deps, bookedEntry({ ...row, status: 'pending' }, audit.actorOfKey(p)));
    await repo.insertAttendees(trx, row, people);
    // The seats are the booking's through its checkout window; a hold lapsed meanwhile writes
    // nothing, and the order, held by no booking, is settled by reconciliation.
    if (held) await seatHolds.attachHold(trx, deps.clock, held, registrationId, ticketIds);
    await orderChecks.attachOrder(trx, registrationId, order.id);
    // The code's use is reserved with the order. Should the last use have gone meanwhile,
    // nothing is written and the order, held by no booking, is settled by reconciliation.
    if (promo) await promos.reserveUse(trx, event.id, promo.code);
  });
  return {
    kind: 'order',
    registrationId,
    orderId: order.id,
    amount: amountPaise,
    currency: event.currency,
    key: gateway.keyId,
  };
}
