// Who may enter, defined once. The door's TypeScript (the API's scan, the in-memory roster,
// a device's offline sync) asks `refusalOf`; the one-statement admit's SQL is generated from
// the same pieces (`admissibleSql`), and a test evaluates that SQL in PostgreSQL over every
// status and compares it with `refusalOf`.
import { sql, type RawBuilder } from 'kysely';
import type { RegistrationStatus } from '../../db/database.js';

export type RefusalReason = 'cancelled' | 'refunded' | 'not_confirmed' | 'transferred';

/** The one status a booking is admitted in. */
export const ADMITTED_STATUS = 'confirmed' satisfies RegistrationStatus;

/** The booking id (the primary's ticket, index 0) stops being a ticket once the booking is transferred (it has a ticketCode). */
export function isRetiredQr(scannedIdx: number, ticketCode: string | null): boolean {
  return scannedIdx === 0 && ticketCode !== null;
}

/** Why the door refuses a scan, if it does: an old QR of a transferred ticket first, then the booking's status. */
export function refusalOf(status: RegistrationStatus, transferred: boolean): RefusalReason | undefined {
  if (transferred) return 'transferred';
  if (status === ADMITTED_STATUS) return undefined;
  return status === 'pending' ? 'not_confirmed' : status;
}

/**
 * The rule as SQL over a scan row aliased `t` with `status`, `scanned_idx` and `ticket_code`
 * (the scan resolved by the ticket's own id, so `transferred` is `isRetiredQr`).
 */
export function admissibleSql(t: string): RawBuilder<boolean> {
  const col = (c: string) => sql.ref(`${t}.${c}`);
  return sql<boolean>`${col('status')} = ${sql.lit(ADMITTED_STATUS)} and not (${col('scanned_idx')} = 0 and ${col('ticket_code')} is not null)`;
}
