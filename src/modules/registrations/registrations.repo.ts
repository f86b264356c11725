// Queries on the tables registrations own: registrations and attendees.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  AttendeesTable,
  Database,
  Mode,
  RegistrationStatus,
  RegistrationsTable,
} from '../../db/database.js';

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

/** Every status but confirmed: the bookings whose people in count apart from the confirmed ones. */
const NOT_CONFIRMED = ['pending', 'refunding', 'cancelled', 'refunded'] as const satisfies readonly Exclude<
  RegistrationStatus,
  'confirmed'
>[];
// A status added to RegistrationStatus and left out here would have its people in counted as
// confirmed: this fails to compile until it is listed.
const everyOtherStatus: [Exclude<RegistrationStatus, 'confirmed' | (typeof NOT_CONFIRMED)[number]>] extends [
  never,
]
  ? true
  : never = true;
void everyOtherStatus;

/**
 * An event's bookings by status: how many, their amount, and how many have someone in (the
 * attendees hold the door state). Index-only reads (migration 0092), none of them a probe per
 * booking: the counts and amounts from registrations_event_counts; the bookings with someone
 * in from attendees_event_in, each once; and, of those, the few not confirmed (someone came in,
 * then the booking was cancelled), found from the bookings not confirmed. The confirmed
 * bookings with someone in are the difference.
 */
export async function statusCounts(db: Db, eventId: string) {
  const { rows } = await sql<{ status: RegistrationStatus; n: number; checked_in: number; amount: string }>`
    with s as (
      select status, count(*)::int as n, coalesce(sum(amount_paise), 0)::text as amount
      from registrations where event_id = ${eventId} group by status
    ),
    inside as (
      select count(*)::int as n
      from (select distinct registration_id from attendees where event_id = ${eventId} and checked_in_at is not null) d
    ),
    off as (
      select r.status, count(distinct r.id)::int as n
      from registrations r join attendees a on a.registration_id = r.id
      where r.event_id = ${eventId} and r.status in (${sql.join(NOT_CONFIRMED.map((x) => sql.lit(x)))})
        and a.event_id = ${eventId} and a.checked_in_at is not null
      group by r.status
    )
    select s.status, s.n, s.amount,
      case when s.status = 'confirmed' then (select n from inside) - coalesce((select sum(n) from off), 0)::int
        else coalesce((select n from off where off.status = s.status), 0) end as checked_in
    from s`.execute(db);
  return rows.map((r) => ({
    status: r.status,
    n: r.n,
    checkedIn: r.checked_in,
    amountPaise: Number(r.amount),
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

/** The booking's people, each beside the booking's event (migration 0092). */
export async function insertAttendees(
  db: Db,
  booking: { id: string; event_id: string },
  people: readonly NewAttendee[],
): Promise<void> {
  await db
    .insertInto('attendees')
    .values(
      people.map((a) => ({
        ...a,
        registration_id: booking.id,
        event_id: booking.event_id,
        checked_in_at: null,
      })),
    )
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
