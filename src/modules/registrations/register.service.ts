// Registering and paying. The rules, HTTP-free:
// - a free booking on one seat counter confirms in one statement that claims the seat
//   and writes the booking, its people and its jobs; other free bookings in one
//   transaction that claims the seats;
// - paid step 1 files a pending registration and a gateway order;
// - paid step 2 (or the gateway's paid notification) verifies the payment and confirms;
// - seats are claimed at confirmation, by one conditional UPDATE of the seat counters,
//   last in the transaction so the counter rows stay locked as briefly as possible;
// - a confirmation that loses the race for the last seat is cancelled, and a payment
//   already taken for it is refunded by a durable job.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Mode, RegistrationsTable } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { enqueue } from '../../jobs/queue.js';
import type { KeyPrincipal } from '../../shared/auth.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, badGateway, badRequest, conflict, forbidden, notFound } from '../../shared/errors.js';
import type { Ids } from '../../shared/ids.js';
import * as events from '../events/events.service.js';
import { computeAvailability, tierOnSale } from '../events/availability.js';
import { soldOutMarks } from '../events/sold-out.js';
import { GatewayError, type GatewayPayment, type PaymentGateway } from '../payments/gateway.js';
import { bookingFees } from './fees.js';
import { validateAnswers } from './answers.js';
import * as promos from './promo.service.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import * as orderChecks from '../reconciliation/order-checks.js';

export interface RegisterDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  gatewayFor(mode: Mode, accountId: string): PaymentGateway;
  checkEmail(email: string): Promise<{ ok: true; email: string } | { ok: false; message: string }>;
  hasGoodStanding(accountId: string, mode: Mode, email: string): Promise<boolean>;
  /** Called after a commit that enqueued jobs, so a local worker picks them up at once. */
  kickJobs(): void;
}

export interface RegisterInput {
  name: string;
  email: string;
  phone?: string | undefined;
  customFields?: Record<string, unknown> | undefined;
  teamMembers?: { name: string; email: string }[] | undefined;
  promoCode?: string | undefined;
  ticketType?: string | undefined;
  subEventId?: string | undefined;
}

export type RegisterResult =
  | { kind: 'free'; registrationId: string; status: 'confirmed' | 'pending'; ticketIds: string[] }
  | { kind: 'order'; registrationId: string; orderId: string; amount: number; currency: string; key: string };

type Row = import('kysely').Selectable<RegistrationsTable>;

export const TICKET_EMAIL_TOPIC = 'ticket.email';
export const REFUND_TOPIC = 'payment.refund';

/** Seat scopes a booking holds: the event, its tier, its track. */
export function scopesFor(ticketType: string, subEventId: number | null): string[] {
  const scopes = [events.EVENT_SCOPE];
  if (ticketType !== 'General') scopes.push(events.tierScope(ticketType));
  if (subEventId !== null) scopes.push(events.trackScope(subEventId));
  return scopes;
}

async function checkEmailOrRefuse(deps: RegisterDeps, email: string, field: string): Promise<string> {
  const r = await deps.checkEmail(email);
  if (!r.ok) throw badRequest('undeliverable_email', `${field} cannot receive mail: ${r.message}`);
  return r.email;
}

// ---------------------------------------------------------------- step 1 / free

export async function register(deps: RegisterDeps, p: KeyPrincipal, eventId: string, input: RegisterInput): Promise<RegisterResult> {
  if (soldOutMarks.isSoldOut(eventId, p.userId, p.mode, deps.clock.now().getTime())) throw soldOut();
  const event = await events.loadOwnedEventWithTaken(deps.db, p, eventId);
  if (event.mode === 'live' && event.status !== 'published') {
    throw conflict('event_not_published', 'this event is a draft and cannot take registrations');
  }
  const now = deps.clock.now();

  // Who: names and deliverable emails.
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  const email = await checkEmailOrRefuse(deps, input.email, 'email');
  const team = input.teamMembers ?? [];
  if (team.length > 0 && event.max_team_size < 2) throw badRequest('not_a_team_event', 'this event takes no team members');
  if (1 + team.length > event.max_team_size && event.max_team_size >= 2) {
    throw badRequest('team_too_large', `a team may have at most ${event.max_team_size} people including the primary`);
  }
  const members: { name: string; email: string }[] = [];
  for (const [i, m] of team.entries()) {
    const n = m.name.trim();
    if (n === '') throw badRequest('invalid_name', `teamMembers[${i}].name must not be empty`);
    members.push({ name: n, email: await checkEmailOrRefuse(deps, m.email, `teamMembers[${i}].email`) });
  }
  const quantity = 1 + members.length;
  const answers = validateAnswers(event.custom_fields, input.customFields ?? {});

  // What: track, tier, price.
  let subEventId: number | null = null;
  let unitPaise = Number(event.price_paise);
  if (input.subEventId !== undefined) {
    subEventId = events.parseTrackIndex(input.subEventId, 'subEventId');
    const track = event.tracks[subEventId];
    if (!track) throw notFound(`no track at index ${subEventId}`, 'track_not_found');
    unitPaise = track.pricePaise;
  }
  let ticketType = 'General';
  if (input.ticketType !== undefined && input.ticketType !== 'General') {
    const tier = event.special_prices.find((t) => t.name === input.ticketType);
    if (!tier) throw badRequest('unknown_ticket_type', `ticketType "${input.ticketType}" is not one of this event's tiers`);
    if (!tierOnSale(tier, now)) throw conflict('tier_not_on_sale', `ticketType "${tier.name}" is not on sale now`);
    if (tier.membersOnly && !(await deps.hasGoodStanding(event.account_id, event.mode, email))) {
      throw forbidden('members_only', `ticketType "${tier.name}" is for members in good standing only`);
    }
    ticketType = tier.name;
    unitPaise = tier.pricePaise;
  }
  const promo = input.promoCode === undefined ? undefined : await promos.findUsable(deps.db, event.id, input.promoCode, now);
  const amountPaise = promo ? promos.applyDiscount(promo, unitPaise * quantity) : unitPaise * quantity;

  const scopes = scopesFor(ticketType, subEventId);
  const oneStatement = amountPaise === 0 && !event.requires_approval && scopes.length === 1 && !promo;
  // Sold out as last read: refuse without another round trip (the claim still enforces).
  if (event.capacity > 0 && event.seats_taken + quantity > event.capacity) {
    if (event.seats_taken >= event.capacity) soldOutMarks.mark(event.id, event.account_id, event.mode, now.getTime());
    throw soldOut();
  }
  if (!oneStatement) {
    // Fail early when already sold out (and before any gateway order); the claim at
    // confirmation is what enforces.
    const availability = computeAvailability(
      { capacity: event.capacity, tiers: event.special_prices, tracks: event.tracks },
      await events.usageFor(deps.db, event.id),
      now,
      subEventId ?? undefined,
    );
    const tierLeft = ticketType === 'General' ? availability.remaining : availability.tiers.find((t) => t.name === ticketType)!.remaining;
    if (tierLeft !== null && tierLeft < quantity) throw soldOut();
  }

  const registrationId = deps.ids.make('reg', 16);
  const base = {
    id: registrationId,
    event_id: event.id,
    account_id: event.account_id,
    mode: event.mode,
    name,
    email,
    phone: input.phone?.trim() || null,
    ticket_type: ticketType,
    sub_event_id: subEventId,
    quantity,
    amount_paise: amountPaise,
    custom_fields: JSON.stringify(answers),
    promo_code: promo?.code ?? null,
    ticket_code: null,
    created_at: now,
    refund_id: null,
    cancelled_at: null,
  };
  const attendees = [{ id: registrationId, idx: 0, name, email }, ...members.map((m, i) => ({ id: deps.ids.make('tkt', 16), idx: i + 1, ...m }))];

  if (oneStatement) {
    // The common free booking holds one seat counter: claim it and write the booking,
    // its people and its jobs in one statement, so the counter row is locked only for
    // that statement and its commit. When the claim finds no seat, nothing is written.
    const booking = { ...base, currency: event.currency };
    const jobs = await confirmationJobs(deps, event, booking, attendees.map((a) => a.id));
    // VALUES needs a row even when ticket mail is off; that row is filtered out.
    const ticketRows = jobs.ticketJobs.length > 0 ? jobs.ticketJobs : [{ id: '', topic: '', payload: '{}', maxAttempts: 0 }];
    const written = await sql<{ n: number }>`
      with claim as (
        update seat_counters set taken = taken + ${quantity}
        where event_id = ${event.id} and scope = ${events.EVENT_SCOPE} and (capacity = 0 or taken + ${quantity} <= capacity)
        returning scope
      ),
      booking as (
        insert into registrations (id, event_id, account_id, mode, status, name, email, phone, ticket_type, sub_event_id, quantity,
          amount_paise, custom_fields, promo_code, created_at, confirmed_at)
        select ${registrationId}, ${event.id}, ${event.account_id}, ${event.mode}, 'confirmed', ${name}, ${email}, ${base.phone},
          ${ticketType}, ${subEventId}::int, ${quantity}::int, 0, ${base.custom_fields}::jsonb, null, ${now}::timestamptz, ${now}::timestamptz
        from claim
        returning id
      ),
      people as (
        insert into attendees (id, registration_id, idx, name, email)
        select v.id, v.registration_id, v.idx, v.name, v.email
        from (values ${sql.join(attendees.map((a) => sql`(${a.id}, ${registrationId}, ${a.idx}::int, ${a.name}, ${a.email})`))}) as v(id, registration_id, idx, name, email)
        where exists (select 1 from booking)
      ),
      work as (
        insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
        select v.id, v.topic, v.payload::jsonb, ${now}::timestamptz, v.max_attempts, ${now}::timestamptz
        from (values ${sql.join(ticketRows.map((j) => sql`(${j.id}, ${j.topic}, ${j.payload}, ${j.maxAttempts}::int)`))}) as v(id, topic, payload, max_attempts)
        where exists (select 1 from booking) and ${jobs.ticketJobs.length > 0}::boolean
      ),
      hook as (
        insert into jobs (id, topic, payload, run_at, max_attempts, created_at)
        select ${jobs.webhook.id}, ${jobs.webhook.topic}, ${jobs.webhook.payload}::jsonb, ${now}::timestamptz, 1, ${now}::timestamptz
        from webhook_configs w
        where w.account_id = ${event.account_id} and w.mode = ${event.mode} and w.enabled
          and w.events @> '["registration.confirmed"]'::jsonb and exists (select 1 from booking)
      )
      select count(*)::int as n from booking`.execute(deps.db);
    if (written.rows[0]?.n !== 1) {
      // One seat asked and none claimed: the event is full.
      if (quantity === 1 && event.capacity > 0) soldOutMarks.mark(event.id, event.account_id, event.mode, now.getTime());
      throw soldOut();
    }
    deps.kickJobs();
    return { kind: 'free', registrationId, status: 'confirmed', ticketIds: attendees.map((a) => a.id) };
  }

  if (amountPaise === 0) {
    const awaitingApproval = event.requires_approval;
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('registrations')
        .values({
          ...base,
          status: awaitingApproval ? 'pending' : 'confirmed',
          pending_reason: awaitingApproval ? 'approval' : null,
          confirmed_at: awaitingApproval ? null : now,
          order_id: null,
          payment_id: null,
        })
        .execute();
      await trx.insertInto('attendees').values(attendees.map((a) => ({ ...a, registration_id: registrationId, checked_in_at: null }))).execute();
      if (!awaitingApproval) {
        if (promo) await promos.countUse(trx, promo.id);
        await onConfirmed(trx, deps, event, { ...base, currency: event.currency }, attendees.map((a) => a.id));
        if (!(await events.claimSeats(trx, event.id, scopesFor(ticketType, subEventId), quantity))) throw soldOut();
      }
    });
    if (!awaitingApproval) deps.kickJobs();
    return { kind: 'free', registrationId, status: awaitingApproval ? 'pending' : 'confirmed', ticketIds: attendees.map((a) => a.id) };
  }

  // Paid: the order first (outside any transaction), then the pending registration.
  const gateway = deps.gatewayFor(event.mode, event.account_id);
  // Written before the call: an order whose answer is lost is found by its receipt.
  await orderChecks.openOrderCheck(deps, { receipt: registrationId, kind: 'registration', mode: event.mode, accountId: event.account_id, amount: amountPaise, currency: event.currency });
  let order;
  try {
    order = await gateway.createOrder({
      amount: amountPaise,
      currency: event.currency,
      receipt: registrationId.slice(0, 40),
      notes: { registrationId, eventId: event.id },
    });
  } catch (err) {
    throw gatewayFailure(err);
  }
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('registrations')
      .values({ ...base, status: 'pending', pending_reason: 'payment', confirmed_at: null, order_id: order.id, payment_id: null })
      .execute();
    await trx.insertInto('attendees').values(attendees.map((a) => ({ ...a, registration_id: registrationId, checked_in_at: null }))).execute();
    await orderChecks.attachOrder(trx, registrationId, order.id);
  });
  return { kind: 'order', registrationId, orderId: order.id, amount: amountPaise, currency: event.currency, key: gateway.keyId };
}

function soldOut(): AppError {
  return conflict('sold_out', 'no seats left for this booking');
}

function gatewayFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof GatewayError) {
    return badGateway(err.kind === 'timeout' ? 'the payment gateway did not answer in time; nothing changed' : 'the payment gateway failed; nothing changed');
  }
  throw err;
}

/** The jobs a confirmation queues, as rows for the one-statement path (ids made here). */
async function confirmationJobs(deps: RegisterDeps, event: events.EventRow, booking: ConfirmedBooking, attendeeIds: readonly string[]) {
  const ticketJobs = event.ticket_emails_enabled
    ? attendeeIds.map((attendeeId) => ({ id: deps.ids.make('job'), topic: TICKET_EMAIL_TOPIC, payload: JSON.stringify({ attendeeId }), maxAttempts: 10 }))
    : [];
  const webhook = {
    id: deps.ids.make('job'),
    topic: webhooks.WEBHOOK_TOPIC,
    payload: JSON.stringify({ eventId: deps.ids.make('evt', 12), createdAt: deps.clock.now().toISOString(), ...confirmedEvent(deps, event, booking) }),
  };
  return { ticketJobs, webhook };
}

function confirmedEvent(deps: RegisterDeps, event: events.EventRow, booking: ConfirmedBooking) {
  return {
    accountId: event.account_id,
    mode: event.mode,
    type: 'registration.confirmed' as const,
    data: {
      registrationId: booking.id,
      eventId: event.id,
      eventTitle: event.title,
      eventSlug: event.slug,
      name: booking.name,
      email: booking.email,
      ticketType: booking.ticket_type,
      subEventId: booking.sub_event_id === null ? null : String(booking.sub_event_id),
      quantity: booking.quantity,
      amount: Number(booking.amount_paise) / 100,
      currency: booking.currency,
      status: 'confirmed',
      confirmedAt: deps.clock.now().toISOString(),
    },
  };
}

export interface ConfirmedBooking {
  id: string;
  name: string;
  email: string;
  ticket_type: string;
  sub_event_id: number | null;
  quantity: number;
  amount_paise: number;
  currency: string;
}

/**
 * Side effects of every confirmation (free, paid step 2, gateway notification,
 * approval), queued in the confirming transaction: a ticket mail per person and the
 * organiser's `registration.confirmed` webhook (the primary only, with quantity).
 */
export async function onConfirmed(
  trx: Transaction<Database>,
  deps: RegisterDeps,
  event: events.EventRow,
  booking: ConfirmedBooking,
  attendeeIds: readonly string[],
): Promise<void> {
  if (event.ticket_emails_enabled) {
    for (const attendeeId of attendeeIds) await enqueue(trx, deps, TICKET_EMAIL_TOPIC, { attendeeId });
  }
  await webhooks.emit(trx, deps, confirmedEvent(deps, event, booking));
}

// ---------------------------------------------------------------- confirmation

export interface Confirmation {
  registrationId: string;
  status: 'confirmed';
  orderId: string;
  paymentId: string;
}

class SoldOut extends Error {}

/**
 * Confirms a pending paid registration against a verified, captured payment.
 * Returns 'confirmed', 'already' (someone else confirmed it first) or 'sold_out'.
 */
async function confirmPaid(deps: RegisterDeps, reg: Row, payment: GatewayPayment): Promise<'confirmed' | 'already' | 'sold_out'> {
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const now = deps.clock.now();
  const attendeeIds = (await deps.db.selectFrom('attendees').select('id').where('registration_id', '=', reg.id).orderBy('idx').execute()).map((a) => a.id);
  try {
    const outcome = await deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('registrations')
        .set({ status: 'confirmed', pending_reason: null, confirmed_at: now, payment_id: payment.id })
        .where('id', '=', reg.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!updated) return 'already' as const;
      await onConfirmed(trx, deps, event, { ...reg, amount_paise: Number(reg.amount_paise) }, attendeeIds);
      if (reg.promo_code) await promos.countUseByCode(trx, reg.event_id, reg.promo_code);
      const scopes = [...scopesFor(reg.ticket_type, reg.sub_event_id), events.PAID_SCOPE];
      const claimed = await events.claimSeats(trx, reg.event_id, scopes, reg.quantity);
      if (!claimed) throw new SoldOut();
      if (reg.mode === 'live') {
        const soldBefore = claimed.get(events.PAID_SCOPE)! - reg.quantity;
        const fees = bookingFees(Math.floor(Number(reg.amount_paise) / reg.quantity), reg.quantity, soldBefore);
        await trx.updateTable('registrations').set({ platform_fee_paise: fees.platform, gateway_fee_paise: fees.gateway }).where('id', '=', reg.id).execute();
      }
      return 'confirmed' as const;
    });
    if (outcome === 'confirmed') deps.kickJobs();
    return outcome;
  } catch (err) {
    if (isUniqueViolation(err)) throw paymentNotVerified('this payment is already bound to another registration');
    if (!(err instanceof SoldOut)) throw err;
  }
  // Lost the race for the last seat: cancel, bind the payment, refund it durably.
  await deps.db.transaction().execute(async (trx) => {
    const cancelled = await trx
      .updateTable('registrations')
      .set({ status: 'cancelled', pending_reason: null, cancelled_at: now, payment_id: payment.id })
      .where('id', '=', reg.id)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    if (cancelled) await enqueue(trx, deps, REFUND_TOPIC, { registrationId: reg.id, paymentId: payment.id, amount: Number(reg.amount_paise) });
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
    const r = await trx
      .updateTable('registrations')
      .set({ payment_id: payment.id })
      .where('id', '=', reg.id)
      .where('payment_id', 'is', null)
      .where('status', 'in', ['cancelled', 'refunded'])
      .returning('id')
      .executeTakeFirst();
    if (r) await enqueue(trx, deps, REFUND_TOPIC, { registrationId: reg.id, paymentId: payment.id, amount: payment.amount });
    return r !== undefined;
  });
  if (bound) deps.kickJobs();
  return bound;
}

function paymentNotVerified(message: string): AppError {
  return new AppError(402, 'payment_not_verified', message);
}

async function loadRegistration(db: Kysely<Database>, eventId: string, registrationId: string): Promise<Row> {
  const reg = await db.selectFrom('registrations').selectAll().where('id', '=', registrationId).executeTakeFirst();
  if (!reg || reg.event_id !== eventId) throw notFound('no such registration for this event', 'registration_not_found');
  return reg;
}

export async function confirmStep2(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  input: { registrationId: string; orderId: string; paymentId: string },
): Promise<Confirmation> {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const reg = await loadRegistration(deps.db, event.id, input.registrationId);
  const answer: Confirmation = { registrationId: reg.id, status: 'confirmed', orderId: input.orderId, paymentId: input.paymentId };

  if (reg.order_id === null) throw conflict('not_a_paid_registration', 'this registration has no payment to confirm');
  if (reg.status === 'confirmed') {
    if (reg.payment_id === input.paymentId && reg.order_id === input.orderId) return answer;
    throw paymentNotVerified('this registration is already confirmed with another payment');
  }
  if (reg.status !== 'pending') {
    if (reg.payment_id === input.paymentId && reg.status === 'cancelled') throw soldOut();
    // Paid after the organiser cancelled it: nobody keeps money for a booking that is gone.
    if (reg.payment_id === null && input.orderId === reg.order_id) {
      const payment = await deps.gatewayFor(reg.mode, reg.account_id).fetchPayment(input.paymentId).catch((err: unknown) => {
        throw gatewayFailure(err);
      });
      if (payment && payment.orderId === reg.order_id && payment.captured && (await refundUnbooked(deps, reg, payment))) {
        throw conflict('registration_not_pending', `this registration was ${reg.status} before it was paid; the payment is being refunded`);
      }
    }
    throw conflict('registration_not_pending', `this registration is ${reg.status}`);
  }
  if (input.orderId !== reg.order_id) throw paymentNotVerified('orderId is not the order of this registration');
  const bound = await deps.db.selectFrom('registrations').select('id').where('payment_id', '=', input.paymentId).executeTakeFirst();
  if (bound && bound.id !== reg.id) throw paymentNotVerified('this payment is already bound to another registration');

  const payment = await verifiedPayment(deps, reg, input.paymentId);
  const outcome = await confirmPaid(deps, reg, payment);
  if (outcome === 'sold_out') throw soldOut();
  if (outcome === 'already') {
    const now = await loadRegistration(deps.db, event.id, reg.id);
    if (now.status === 'confirmed' && now.payment_id === input.paymentId) return answer;
    if (now.status === 'cancelled' && now.payment_id === input.paymentId) throw soldOut();
    throw paymentNotVerified('this registration was settled with another payment');
  }
  return answer;
}

/** Fetches the payment at the gateway and checks it against the registration; captures an authorised one. */
async function verifiedPayment(deps: RegisterDeps, reg: Row, paymentId: string): Promise<GatewayPayment> {
  const gateway = deps.gatewayFor(reg.mode, reg.account_id);
  let payment: GatewayPayment | null;
  try {
    payment = await gateway.fetchPayment(paymentId);
  } catch (err) {
    throw gatewayFailure(err);
  }
  if (!payment) throw paymentNotVerified('the gateway does not know this payment id');
  if (payment.orderId !== reg.order_id) throw paymentNotVerified('this payment belongs to another order');
  if (payment.amount !== Number(reg.amount_paise) || payment.currency !== reg.currency) {
    throw paymentNotVerified('the payment amount does not match the registration');
  }
  if (payment.status === 'authorized') {
    try {
      payment = await gateway.capturePayment(payment.id, payment.amount, payment.currency);
    } catch (err) {
      throw gatewayFailure(err);
    }
  }
  if (payment.status !== 'captured' || !payment.captured) throw paymentNotVerified(`the payment is ${payment.status}, not captured`);
  return payment;
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
): Promise<'confirmed' | 'ignored' | 'sold_out'> {
  const reg = await deps.db.selectFrom('registrations').selectAll().where('order_id', '=', orderId).where('mode', '=', mode).executeTakeFirst();
  if (!reg) return 'ignored';
  if (reg.status !== 'pending') {
    if (reg.payment_id === null && payment.orderId === orderId && payment.captured) await refundUnbooked(deps, reg, payment);
    return 'ignored';
  }
  if (payment.orderId !== orderId || payment.amount !== Number(reg.amount_paise) || payment.currency !== reg.currency || !payment.captured) {
    return 'ignored';
  }
  const outcome = await confirmPaid(deps, reg, payment);
  return outcome === 'already' ? 'ignored' : outcome;
}
