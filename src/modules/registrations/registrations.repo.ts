// Queries on the tables registrations own: registrations and attendees.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AttendeesTable, Database, Mode, RegistrationsTable } from '../../db/database.js';

export type Db = Kysely<Database> | Transaction<Database>;
export type RegistrationRow = Selectable<RegistrationsTable>;
export type AttendeeRow = Selectable<AttendeesTable>;

// ---------------------------------------------------------------- reading

export function findRegistration(db: Db, id: string): Promise<RegistrationRow | undefined> {
  return db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByOrder(db: Db, orderId: string, mode: Mode): Promise<RegistrationRow | undefined> {
  return db
    .selectFrom('registrations')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('mode', '=', mode)
    .executeTakeFirst();
}

/** The registration a payment is bound to, if any. */
export async function findIdByPayment(db: Db, paymentId: string): Promise<string | undefined> {
  return (
    await db.selectFrom('registrations').select('id').where('payment_id', '=', paymentId).executeTakeFirst()
  )?.id;
}

/** One page of an event's bookings, oldest first: `limit + 1` rows after the booking `after`. */
export function listByEvent(
  db: Db,
  eventId: string,
  limit: number,
  after?: string,
): Promise<RegistrationRow[]> {
  let q = db.selectFrom('registrations as r').selectAll('r').where('r.event_id', '=', eventId);
  if (after !== undefined) {
    // A row-value comparison the index registrations_event_order walks from the cursor on (an
    // EXISTS per row read every booking before the cursor again: slow on deep pages).
    q = q.where(
      sql<boolean>`(r.created_at, r.id) > (select c.created_at, c.id from registrations c where c.id = ${after} and c.event_id = ${eventId})`,
    );
  }
  return q
    .orderBy('r.created_at')
    .orderBy('r.id')
    .limit(limit + 1)
    .execute();
}

export async function isBookingOf(db: Db, id: string, eventId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('registrations')
      .select('id')
      .where('id', '=', id)
      .where('event_id', '=', eventId)
      .executeTakeFirst()) !== undefined
  );
}

export async function countByEvent(db: Db, eventId: string): Promise<number> {
  return Number(
    (
      await db
        .selectFrom('registrations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_id', '=', eventId)
        .executeTakeFirstOrThrow()
    ).n,
  );
}

/**
 * Bookings of an event whose money is not settled: a payment in flight (pending with a
 * gateway order), captured and kept (confirmed paid), or captured for a booking that
 * ended before it was paid and whose refund has not been recorded yet.
 */
export function withPaymentsInFlight(db: Db, eventId: string): Promise<RegistrationRow[]> {
  return db
    .selectFrom('registrations')
    .selectAll()
    .where('event_id', '=', eventId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('order_id', 'is not', null)]),
        eb.and([eb('status', '=', 'confirmed'), eb('amount_paise', '>', 0)]),
        eb('status', '=', 'refunding'),
        eb.and([
          eb('status', '=', 'cancelled'),
          eb('payment_id', 'is not', null),
          eb('refund_id', 'is', null),
        ]),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function statusCounts(db: Db, eventId: string) {
  // A booking counts as checked in once anyone on it is in (the attendees hold the door state).
  const rows = await db
    .selectFrom('registrations as r')
    .select([
      'r.status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) =>
        eb.fn
          .count<number>(
            eb
              .case()
              .when(
                eb.exists(
                  eb
                    .selectFrom('attendees as a')
                    .select('a.id')
                    .whereRef('a.registration_id', '=', 'r.id')
                    .where('a.checked_in_at', 'is not', null),
                ),
              )
              .then(1)
              .end(),
          )
          .as('checked_in'),
      (eb) => eb.fn.sum<number>('r.amount_paise').as('amount'),
    ])
    .where('r.event_id', '=', eventId)
    .groupBy('r.status')
    .execute();
  return rows.map((r) => ({
    status: r.status,
    n: Number(r.n),
    checkedIn: Number(r.checked_in),
    amountPaise: Number(r.amount ?? 0),
  }));
}

const BOOKING_COLUMNS = [
  'r.id',
  'r.event_id',
  'r.status',
  'r.ticket_type',
  'r.ticket_code',
  'r.sub_event_id',
] as const;

export function findByTicketCode(db: Db, code: string) {
  return db
    .selectFrom('registrations as r')
    .select(BOOKING_COLUMNS)
    .where('r.ticket_code', '=', code)
    .executeTakeFirst();
}

/** A booking of this event that once carried `code`, before a transfer. */
export function findByPreviousTicketCode(db: Db, eventId: string, code: string) {
  return db
    .selectFrom('registrations as r')
    .select(BOOKING_COLUMNS)
    .where(sql<boolean>`r.previous_ticket_codes @> ${JSON.stringify([code])}::jsonb`)
    .where('r.event_id', '=', eventId)
    .executeTakeFirst();
}

export type Audience = 'confirmed' | 'checked_in' | 'not_checked_in' | 'pending' | 'all';

/** The people of an event's bookings in an audience, oldest booking first. */
export function peopleOf(db: Db, eventId: string, audience: Audience, trackIndex: number | undefined) {
  let q = db
    .selectFrom('attendees as a')
    .innerJoin('registrations as r', 'r.id', 'a.registration_id')
    .select(['a.name', 'a.email'])
    .where('r.event_id', '=', eventId);
  if (trackIndex !== undefined) q = q.where('r.sub_event_id', '=', trackIndex);
  switch (audience) {
    case 'confirmed':
      q = q.where('r.status', '=', 'confirmed');
      break;
    case 'checked_in':
      q = q.where('r.status', '=', 'confirmed').where('a.checked_in_at', 'is not', null);
      break;
    case 'not_checked_in':
      q = q.where('r.status', '=', 'confirmed').where('a.checked_in_at', 'is', null);
      break;
    case 'pending':
      q = q.where('r.status', '=', 'pending');
      break;
    case 'all':
      q = q.where('r.status', 'in', ['confirmed', 'pending']);
      break;
  }
  return q.orderBy('r.created_at').orderBy('a.idx').orderBy('a.id').execute();
}

export function findAttendeesById(db: Db, attendeeIds: readonly string[]): Promise<AttendeeRow[]> {
  if (attendeeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('attendees')
    .selectAll()
    .where('id', '=', sql<string>`any(${[...attendeeIds]}::text[])`)
    .execute();
}

export function findRegistrationsById(db: Db, ids: readonly string[]): Promise<RegistrationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('registrations')
    .selectAll()
    .where('id', '=', sql<string>`any(${[...ids]}::text[])`)
    .execute();
}

/** The ids of the people on a booking, the primary first. */
export async function attendeeIds(db: Db, registrationId: string): Promise<string[]> {
  return (
    await db
      .selectFrom('attendees')
      .select('id')
      .where('registration_id', '=', registrationId)
      .orderBy('idx')
      .execute()
  ).map((a) => a.id);
}

export function attendeesOf(db: Db, registrationIds: readonly string[]): Promise<AttendeeRow[]> {
  return db
    .selectFrom('attendees')
    .selectAll()
    .where('registration_id', 'in', registrationIds)
    .orderBy('idx')
    .execute();
}

// ---------------------------------------------------------------- writing

export interface NewAttendee {
  id: string;
  idx: number;
  name: string;
  email: string;
}

export async function insertAttendees(
  db: Db,
  registrationId: string,
  people: readonly NewAttendee[],
): Promise<void> {
  await db
    .insertInto('attendees')
    .values(people.map((a) => ({ ...a, registration_id: registrationId, checked_in_at: null })))
    .execute();
}

/** Binds a payment to an ended booking that has none yet; false when it was bound already. */
export async function bindPaymentToEnded(db: Db, id: string, paymentId: string): Promise<boolean> {
  const r = await db
    .updateTable('registrations')
    .set({ payment_id: paymentId })
    .where('id', '=', id)
    .where('payment_id', 'is', null)
    .where('status', 'in', ['cancelled', 'refunded'])
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

export async function setFees(
  db: Db,
  id: string,
  fees: { platform: number; gateway: number },
): Promise<void> {
  await db
    .updateTable('registrations')
    .set({ platform_fee_paise: fees.platform, gateway_fee_paise: fees.gateway })
    .where('id', '=', id)
    .execute();
}

export async function setRefundId(db: Db, id: string, refundId: string): Promise<void> {
  await db.updateTable('registrations').set({ refund_id: refundId }).where('id', '=', id).execute();
}

/** Sets or clears the door state of people on a booking; returns the indexes it changed. */
export async function setCheckedIn(
  db: Db,
  registrationId: string,
  indexes: readonly number[],
  at: Date | null,
): Promise<number[]> {
  const rows = await db
    .updateTable('attendees')
    .set({ checked_in_at: at })
    .where('registration_id', '=', registrationId)
    .where('idx', 'in', indexes)
    .where('checked_in_at', at === null ? 'is not' : 'is', null)
    .returning('idx')
    .execute();
  return rows.map((r) => r.idx);
}

export function findOrderOnEvent(db: Db, eventId: string, orderId: string) {
  return db
    .selectFrom('registrations')
    .select(['id', 'status', 'order_id', 'pending_reason', 'amount_paise', 'currency'])
    .where('order_id', '=', orderId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
}

/**
 * How many bookings of an event wait for payment from this email (any case) or this
 * client address. Called in the transaction that writes a new one, under its locks.
 */
export async function countAwaitingPayment(
  db: Db,
  eventId: string,
  by: { email: string } | { clientAddress: string },
): Promise<number> {
  let q = db
    .selectFrom('registrations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_id', '=', eventId)
    .where('status', '=', 'pending')
    // A booking awaiting a payment outside the gateway holds its seats for days: it counts too.
    .where('pending_reason', 'in', ['payment', 'offline_payment']);
  q =
    'email' in by
      ? q.where(sql<string>`lower(email)`, '=', by.email.toLowerCase())
      : q.where('client_address', '=', by.clientAddress);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
