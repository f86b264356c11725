// What an organiser does to a booking after it exists (product-decisions §5):
// approve, reject, cancel, refund, transfer. Gateway calls come first; when the
// gateway fails nothing local changes (502).
import type { Kysely, Selectable } from 'kysely';
import type { Database, RegistrationsTable } from '../../db/database.js';
import { enqueue } from '../../jobs/queue.js';
import type { KeyPrincipal } from '../../shared/auth.js';
import { AppError, badGateway, conflict, notFound } from '../../shared/errors.js';
import * as events from '../events/events.service.js';
import { GatewayError } from '../payments/gateway.js';
import { onConfirmed, scopesFor, TICKET_EMAIL_TOPIC, type RegisterDeps } from './register.service.js';
import * as promos from './promo.service.js';
import * as orderChecks from '../reconciliation/order-checks.js';

type Row = Selectable<RegistrationsTable>;

export async function loadOwnedRegistration(db: Kysely<Database>, p: KeyPrincipal, eventId: string, registrationId: string): Promise<Row> {
  const event = await events.loadOwnedEvent(db, p, eventId);
  const reg = await db.selectFrom('registrations').selectAll().where('id', '=', registrationId).executeTakeFirst();
  if (!reg || reg.event_id !== event.id) throw notFound('no such registration for this event', 'registration_not_found');
  return reg;
}

async function reload(db: Kysely<Database>, id: string): Promise<Row> {
  return (await db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirst())!;
}

function seatScopes(reg: Row): string[] {
  const scopes = scopesFor(reg.ticket_type, reg.sub_event_id);
  if (Number(reg.amount_paise) > 0) scopes.push(events.PAID_SCOPE);
  return scopes;
}

export async function approve(deps: RegisterDeps, p: KeyPrincipal, eventId: string, registrationId: string): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status === 'confirmed') return reg;
  if (reg.status !== 'pending' || reg.pending_reason !== 'approval') {
    throw conflict('not_awaiting_approval', `this registration is ${reg.status}${reg.pending_reason === 'payment' ? ' awaiting payment' : ''}, not awaiting approval`);
  }
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const attendees = await deps.db.selectFrom('attendees').select('id').where('registration_id', '=', reg.id).orderBy('idx').execute();
  await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('registrations')
      .set({ status: 'confirmed', pending_reason: null, confirmed_at: deps.clock.now() })
      .where('id', '=', reg.id)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    if (!updated) return;
    await onConfirmed(trx, deps, event, { ...reg, amount_paise: Number(reg.amount_paise) }, attendees.map((a) => a.id));
    if (reg.promo_code) await promos.countUseByCode(trx, reg.event_id, reg.promo_code);
    // The approval stays pending when the seats are gone; the organiser may raise capacity.
    if (!(await events.claimSeats(trx, reg.event_id, scopesFor(reg.ticket_type, reg.sub_event_id), reg.quantity))) {
      throw conflict('sold_out', 'no seats left for this booking; it stays pending');
    }
  });
  deps.kickJobs();
  return reload(deps.db, reg.id);
}

export async function reject(deps: RegisterDeps, p: KeyPrincipal, eventId: string, registrationId: string): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status !== 'pending' || reg.pending_reason !== 'approval') throw conflict('not_awaiting_approval', `this registration is ${reg.status}, not awaiting approval`);
  await deps.db
    .updateTable('registrations')
    .set({ status: 'cancelled', pending_reason: null, cancelled_at: deps.clock.now() })
    .where('id', '=', reg.id)
    .where('status', '=', 'pending')
    .execute();
  return reload(deps.db, reg.id);
}

/**
 * Ends a booking. `cancelled` refunds a paid booking in full; `refunded` is the
 * organiser's explicit refund. Seats are freed either way.
 */
export async function end(deps: RegisterDeps, p: KeyPrincipal, eventId: string, registrationId: string, to: 'cancelled' | 'refunded'): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status === 'cancelled' || reg.status === 'refunded') throw conflict('already_ended', `this registration is already ${reg.status}`);
  const paid = reg.status === 'confirmed' && reg.payment_id !== null && Number(reg.amount_paise) > 0;
  if (to === 'refunded' && !paid) throw conflict('nothing_to_refund', 'this registration has no captured payment to refund');

  let refundId: string | null = null;
  if (paid) {
    // Should the refund's answer be lost, reconciliation finds the refund and ends the booking.
    if (reg.order_id !== null) await orderChecks.reopenOrderCheck(deps, reg.order_id);
    try {
      const refund = await deps.gatewayFor(reg.mode, reg.account_id).refundPayment(reg.payment_id!, Number(reg.amount_paise), { registrationId: reg.id });
      refundId = refund.id;
    } catch (err) {
      if (err instanceof GatewayError) {
        throw err.kind === 'rejected'
          ? new AppError(502, 'gateway_refused', `the payment gateway refused the refund: ${err.message}; nothing changed`)
          : badGateway('the payment gateway failed or timed out; nothing changed');
      }
      throw err;
    }
  }
  await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('registrations')
      .set({ status: to, pending_reason: null, cancelled_at: deps.clock.now(), refund_id: refundId })
      .where('id', '=', reg.id)
      .where('status', '=', reg.status)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw conflict('registration_changed', 'this registration changed meanwhile; read it again');
    if (reg.status === 'confirmed') await events.releaseSeats(trx, reg.event_id, seatScopes(reg), reg.quantity);
  });
  return reload(deps.db, reg.id);
}

export async function transfer(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  input: { name: string; email: string },
): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (reg.status !== 'confirmed') throw conflict('not_confirmed', `only a confirmed ticket can be transferred; this one is ${reg.status}`);
  const name = input.name.trim();
  if (name === '') throw new AppError(400, 'invalid_name', 'name must not be empty');
  const checked = await deps.checkEmail(input.email);
  if (!checked.ok) throw new AppError(400, 'undeliverable_email', `email cannot receive mail: ${checked.message}`);
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const ticketCode = deps.ids.make('tkt', 16);
  const previous = reg.ticket_code ? [...reg.previous_ticket_codes, reg.ticket_code] : reg.previous_ticket_codes;
  await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('registrations')
      .set({ name, email: checked.email, ticket_code: ticketCode, previous_ticket_codes: JSON.stringify(previous) })
      .where('id', '=', reg.id)
      .where('status', '=', 'confirmed')
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw conflict('registration_changed', 'this registration changed meanwhile; read it again');
    await trx.updateTable('attendees').set({ name, email: checked.email, checked_in_at: null }).where('registration_id', '=', reg.id).where('idx', '=', 0).execute();
    if (event.ticket_emails_enabled) await enqueue(trx, deps, TICKET_EMAIL_TOPIC, { attendeeId: reg.id });
  });
  deps.kickJobs();
  return reload(deps.db, reg.id);
}

/** The refund job: a sold-out confirmation whose payment was already captured. Idempotent. */
export async function refundJob(deps: RegisterDeps, payload: { registrationId: string; paymentId: string; amount: number }): Promise<void> {
  const reg = await deps.db.selectFrom('registrations').selectAll().where('id', '=', payload.registrationId).executeTakeFirst();
  if (!reg || reg.refund_id !== null) return;
  const gateway = deps.gatewayFor(reg.mode, reg.account_id);
  const payment = await gateway.fetchPayment(payload.paymentId);
  if (payment && payment.amountRefunded >= payload.amount) return;
  const refund = await gateway.refundPayment(payload.paymentId, payload.amount, { registrationId: reg.id, reason: 'sold_out' });
  await deps.db.updateTable('registrations').set({ refund_id: refund.id }).where('id', '=', reg.id).execute();
}

/**
 * A paid booking left unpaid past its expiry (reconciliation found no payment at the
 * gateway): cancelled. It held no seat and had counted no promo use (both are taken at
 * confirmation); a payment that arrives later is refunded like any for a cancelled booking.
 */
export async function expireUnpaid(deps: Pick<RegisterDeps, 'db' | 'clock'>, registrationId: string): Promise<boolean> {
  const r = await deps.db
    .updateTable('registrations')
    .set({ status: 'cancelled', pending_reason: null, cancelled_at: deps.clock.now() })
    .where('id', '=', registrationId)
    .where('status', '=', 'pending')
    .where('pending_reason', '=', 'payment')
    .where('payment_id', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * A confirmed booking whose payment the gateway has fully refunded (a refund whose
 * answer was lost, or one made in the gateway's dashboard): ended as refunded, seats freed.
 */
export async function endRefundedAtGateway(deps: Pick<RegisterDeps, 'db' | 'clock'>, registrationId: string, refundedPaymentId: string): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const reg = await trx
      .updateTable('registrations')
      .set({ status: 'refunded', pending_reason: null, cancelled_at: deps.clock.now() })
      .where('id', '=', registrationId)
      .where('status', '=', 'confirmed')
      .where('payment_id', '=', refundedPaymentId)
      .returningAll()
      .executeTakeFirst();
    if (reg) await events.releaseSeats(trx, reg.event_id, seatScopes(reg), reg.quantity);
    return reg !== undefined;
  });
}
