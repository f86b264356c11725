// The only writes of a booking's status (test/architecture/booking-status-writes.test.ts
// proves no other file makes one): each a conditional statement whose guard and new status
// come from the lifecycle table (booking-lifecycle.ts).
import { sql, type Insertable, type Updateable } from 'kysely';
import type { RegistrationsTable } from '../../../db/database.js';
import type { Db, RegistrationRow } from '../registrations.repo.js';
import { guardSql, statusAfter, type BookingEvent, type ClaimedStatus } from './booking-lifecycle.js';

/** A booking as it is first written: by `book`, `await_payment` or `await_approval`. */
export async function insertBooking(
  db: Db,
  event: 'book' | 'await_payment' | 'await_approval' | 'await_offline_payment',
  row: Omit<Insertable<RegistrationsTable>, 'status' | 'pending_reason'>,
): Promise<void> {
  const pending_reason = (
    {
      book: null,
      await_payment: 'payment',
      await_approval: 'approval',
      await_offline_payment: 'offline_payment',
    } as const
  )[event];
  await db
    .insertInto('registrations')
    .values({ ...row, status: statusAfter(event, 'pending'), pending_reason })
    .execute();
}

/** The columns a move may set besides the status. */
export type MoveSet = Omit<
  Updateable<RegistrationsTable>,
  'id' | 'status' | 'event_id' | 'account_id' | 'mode'
>;

/**
 * Moves booking `read` by `event`, once: the UPDATE runs only while the row still passes the
 * event's guard, is still in the status the caller read and still has the ticket code it read
 * (a transfer meanwhile voids what was decided about the old holder), so of any number of
 * concurrent moves exactly one changes the row. The row after the move, or undefined.
 */
export function moveBooking(
  db: Db,
  read: Pick<RegistrationRow, 'id' | 'status' | 'ticket_code'>,
  event: BookingEvent,
  set: MoveSet,
  claimed?: ClaimedStatus,
): Promise<RegistrationRow | undefined> {
  return db
    .updateTable('registrations')
    .set({ ...set, status: statusAfter(event, read.status, claimed) })
    .where('id', '=', read.id)
    .where('status', '=', read.status)
    .where(sql<boolean>`ticket_code is not distinct from ${read.ticket_code}`)
    .where(guardSql(event))
    .returningAll()
    .executeTakeFirst();
}

/** Claims still `refunding` since before `before`: left by a crash or a gateway that did not answer. */
export function staleClaims(db: Db, before: Date, limit: number): Promise<RegistrationRow[]> {
  return db
    .selectFrom('registrations')
    .selectAll()
    .where('status', '=', 'refunding')
    .where('claimed_at', '<', before)
    .orderBy('claimed_at')
    .limit(limit)
    .execute();
}

/** The one-statement free booking's status: `book`'s, from the table. */
export const BOOKED_STATUS_SQL = sql.lit(statusAfter('book', 'pending'));

/**
 * `transfer`: a confirmed booking's new holder and ticket code, once (two transfers at once:
 * the second finds the code changed); the primary's door state starts again, and the giver's
 * phone number goes with them.
 */
export async function transferHolder(
  db: Db,
  id: string,
  holder: {
    name: string;
    email: string;
    ticketCode: string;
    previousCodes: readonly string[];
    currentCode: string | null;
  },
): Promise<RegistrationRow | undefined> {
  const r = await db
    .updateTable('registrations')
    // The giver's phone and WhatsApp consent leave with them: the new holder gave neither.
    .set({
      name: holder.name,
      email: holder.email,
      phone: null,
      whatsapp_opt_in: false,
      ticket_code: holder.ticketCode,
      previous_ticket_codes: JSON.stringify(holder.previousCodes),
    })
    .where('id', '=', id)
    .where(guardSql('transfer'))
    .where(sql<boolean>`ticket_code is not distinct from ${holder.currentCode}`)
    .returningAll()
    .executeTakeFirst();
  if (!r) return undefined;
  await db
    .updateTable('attendees')
    .set({ name: holder.name, email: holder.email, checked_in_at: null })
    .where('registration_id', '=', id)
    .where('idx', '=', 0)
    .execute();
  return r;
}

export function findBooking(db: Db, id: string): Promise<RegistrationRow | undefined> {
  return db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirst();
}
