// Who may enter, defined once. The door's TypeScript (the API's scan, the in-memory roster,
// a device's offline sync) asks `refusalOf`; the one-statement admit's SQL is generated from
// the same pieces (`admissibleSql`), and a test evaluates that SQL in PostgreSQL over every
// status and compares it with `refusalOf`.
import { sql, type RawBuilder } from 'kysely';
import type { RegistrationStatus } from '../../db/database.js';
import { guardSql, TRANSITIONS } from '../registrations/lifecycle/booking-lifecycle.js';

export type RefusalReason = 'cancelled' | 'refunded' | 'not_confirmed' | 'transferred';

/** The one status a booking is admitted in: the lifecycle table's `admit`. */
export const ADMITTED_STATUS: RegistrationStatus = TRANSITIONS.admit.from[0]!;

/** The booking id (the primary's ticket, index 0) stops being a ticket once the booking is transferred (it has a ticketCode). */
export function isRetiredQr(scannedIdx: number, ticketCode: string | null): boolean {
  return scannedIdx === 0 && ticketCode !== null;
}

/** Why the door refuses a scan, if it does: an old QR of a transferred ticket first, then the booking's status. */
export function refusalOf(status: RegistrationStatus, transferred: boolean): RefusalReason | undefined {
  if (transferred) return 'transferred';
  if (TRANSITIONS.admit.from.includes(status)) return undefined;
  switch (status) {
    case 'cancelled':
      return 'cancelled';
    case 'refunded':
    case 'refunding': // a refund in progress: given back unless the gateway refuses it
      return 'refunded';
    default:
      return 'not_confirmed';
  }
}

/**
 * The rule as SQL over a scan row aliased `t` with `status`, `scanned_idx` and `ticket_code`
 * (the scan resolved by the ticket's own id, so `transferred` is `isRetiredQr`).
 */
export function admissibleSql(t: string): RawBuilder<boolean> {
  const col = (c: string) => sql.ref(`${t}.${c}`);
  return sql<boolean>`${guardSql('admit', t)} and not (${col('scanned_idx')} = 0 and ${col('ticket_code')} is not null)`;
}
