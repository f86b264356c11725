// The audit entries of a booking: as it is first written, and of each change `changeBooking`
// applies. Amounts in them are in rupees.
import * as audit from '../../audit/audit.service.js';
import type { RegistrationRow as Row } from '../registrations.repo.js';

export const rupees = (paise: number) => paise / 100;

/** The audit entry of a change to `reg`. */
export function changeEntry(
  reg: Row,
  actor: audit.AuditActor,
  verb: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): audit.AuditChange {
  return {
    accountId: reg.account_id,
    mode: reg.mode,
    actor,
    action: `registration.${verb}`,
    target: { type: 'registration', id: reg.id },
    before,
    after,
  };
}

/** The audit entry of a booking as it is first written (`book`, `await_payment`, `await_approval`). */
export function bookedEntry(
  row: Pick<Row, 'id' | 'account_id' | 'mode' | 'status' | 'ticket_type' | 'quantity' | 'amount_paise'>,
  actor: audit.AuditActor,
): audit.AuditChange {
  return {
    accountId: row.account_id,
    mode: row.mode,
    actor,
    action: 'registration.book',
    target: { type: 'registration', id: row.id },
    before: null,
    after: {
      status: row.status,
      ticketType: row.ticket_type,
      quantity: row.quantity,
      amount: rupees(Number(row.amount_paise)),
    },
  };
}
