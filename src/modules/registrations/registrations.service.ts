// Registrations: reading and counting, for this module's routes and for the modules
// above it (events' analytics and delete guard, tickets, check-in, broadcast).
// Registering and paying live in register.service.ts and confirm-payment.service.ts.
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import type { BookingCounts } from '../events/events.service.js';
import type { TicketHolder } from '../tickets/tickets.jobs.js';
import { badRequest } from '../../lib/errors.js';
import { pageOf } from '../../http/paging.js';
import * as reports from './registration-reports.repo.js';
import * as repo from './registrations.repo.js';
import type { AttendeeRow, Db } from './registrations.repo.js';

export type { Audience, AttendeeRow, RegistrationRow } from './registrations.repo.js';

export async function eventCounts(db: Kysely<Database>, eventId: string): Promise<BookingCounts> {
  const out: BookingCounts = {
    total: 0,
    confirmed: 0,
    pending: 0,
    cancelled: 0,
    refunded: 0,
    checkedIn: 0,
    revenuePaise: 0,
  };
  for (const r of await repo.statusCounts(db, eventId)) {
    out.total += r.n;
    // A refund in progress still counts as confirmed until it completes.
    out[r.status === 'refunding' ? 'confirmed' : r.status] += r.n;
    if (r.status === 'confirmed') {
      out.checkedIn += r.checkedIn;
      out.revenuePaise += r.amountPaise;
    }
  }
  return out;
}

/** One page of an event's registrations (oldest first) with their people, and the total. */
export async function listRegistrationsPage(
  db: Db,
  eventId: string,
  page: { limit: number; startingAfter?: string | undefined },
) {
  if (page.startingAfter !== undefined && !(await repo.isBookingOf(db, page.startingAfter, eventId))) {
    throw badRequest('invalid_cursor', 'startingAfter is not a cursor this list gave');
  }
  const { items, hasMore, nextCursor } = pageOf(
    await repo.listByEvent(db, eventId, page.limit, page.startingAfter),
    page.limit,
    (r) => r.id,
  );
  // One page's ids at most (≤ 1,000), never the whole event's, in the attendee lookup.
  const people = await attendeesOf(
    db,
    items.map((r) => r.id),
  );
  return { items, people, hasMore, nextCursor, count: await repo.countByEvent(db, eventId) };
}
export type { RegistrationSearch } from './registration-reports.repo.js';
/** One page of an event's registrations, newest first, optionally searched and filtered. */
export const searchRegistrations = reports.searchByEvent;
export const anyBookingOnTracksFrom = reports.anyOnTracksFrom;
/** For the dashboard's charts and door progress. */
export const salesOverTime = reports.salesByDay;
export const arrivalsPer15Minutes = reports.arrivalsBySlot;
export const doorProgress = reports.doorCounts;
/** How many bookings of an event hold money not yet settled (a delete waits for 0). */
export async function paymentsInFlight(db: Db, eventId: string): Promise<number> {
  return (await repo.withPaymentsInFlight(db, eventId)).length;
}
export const findRegistration = repo.findRegistration;
export const findByTicketCode = repo.findByTicketCode;
export const findByPreviousTicketCode = repo.findByPreviousTicketCode;

/** The people on each booking, the primary first. */
export async function attendeesOf(
  db: Db,
  registrationIds: readonly string[],
): Promise<Map<string, AttendeeRow[]>> {
  const out = new Map<string, AttendeeRow[]>();
  if (registrationIds.length === 0) return out;
  for (const r of await repo.attendeesOf(db, registrationIds)) {
    const list = out.get(r.registration_id) ?? [];
    list.push(r);
    out.set(r.registration_id, list);
  }
  return out;
}

/** Who holds each of these tickets, and on which booking (tickets no longer there are left out). */
export async function ticketHolders(
  db: Db,
  attendeeIds: readonly string[],
): Promise<Map<string, TicketHolder>> {
  const attendees = await repo.findAttendeesById(db, attendeeIds);
  const bookings = new Map(
    (await repo.findRegistrationsById(db, [...new Set(attendees.map((a) => a.registration_id))])).map((r) => [
      r.id,
      r,
    ]),
  );
  const out = new Map<string, TicketHolder>();
  for (const attendee of attendees) {
    const booking = bookings.get(attendee.registration_id);
    if (booking) out.set(attendee.id, { attendee, booking });
  }
  return out;
}

/** The people of an event's bookings in an audience, one per email address (the first found). */
export async function audienceOf(
  db: Db,
  eventId: string,
  audience: repo.Audience,
  trackIndex: number | undefined,
) {
  const rows = await repo.peopleOf(db, eventId, audience, trackIndex);
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = r.email.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The booking (in any state) a gateway payment is bound to, if any (reconciliation asks). */
export const findBookingIdByPayment = (db: Db, paymentId: string) => repo.findIdByPayment(db, paymentId);

/** The booking that holds a gateway order in a mode (reconciliation asks). */
export function findByGatewayOrder(db: Db, orderId: string, mode: Mode) {
  return repo.findByOrder(db, orderId, mode);
}

/** The booking that holds a gateway order, on one event: for the hosted checkout's confirmation. */
export function findByOrder(db: Db, eventId: string, orderId: string) {
  return repo.findOrderOnEvent(db, eventId, orderId);
}

/** One booking by its id, in any state (the hosted page's confirmation reads it by its token). */
export async function findBooking(db: Db, id: string) {
  return (await repo.findRegistrationsById(db, [id]))[0];
}

export type { ExportFilter as RegistrationExportFilter } from './registration-reports.repo.js';

/**
 * An event's bookings for an export, oldest first, `batchSize` at a time with their people:
 * each batch is read when the reader asks for it (keyset pages, no transaction held between
 * them), so an export of any size holds one batch in memory.
 */
export async function* exportBatches(
  db: Kysely<Database>,
  eventId: string,
  filter: reports.ExportFilter,
  batchSize: number,
) {
  let after: string | undefined;
  for (;;) {
    const rows = await reports.exportPage(db, eventId, filter, after, batchSize);
    if (rows.length === 0) return;
    yield {
      rows,
      people: await attendeesOf(
        db,
        rows.map((r) => r.id),
      ),
    };
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.id;
  }
}
