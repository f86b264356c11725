// The tickets one buyer holds on an event, for its per-buyer limit (buyer-limit.ts).
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * The tickets of the event's bookings that still hold seats (confirmed, or pending: awaiting
 * payment at the gateway or outside it, or approval) whose email (trimmed, lower-cased) is
 * `email` or whose phone (E.164) is `phone`.
 */
export async function ticketsHeldByBuyer(
  trx: Transaction<Database>,
  eventId: string,
  email: string,
  phone: string | null,
): Promise<number> {
  const row = await trx
    .selectFrom('registrations')
    .select(sql<string>`coalesce(sum(quantity), 0)`.as('n'))
    .where('event_id', '=', eventId)
    .where('status', 'in', ['confirmed', 'pending'])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(trim(email))`, '=', email),
        ...(phone === null ? [] : [eb('phone', '=', phone)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
