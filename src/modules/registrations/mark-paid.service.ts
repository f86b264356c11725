// Marking a booking paid outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// the organiser says the money arrived (bank transfer, UPI to them, cash at the door). It confirms
// the booking through the lifecycle (`mark_paid`), with every effect of a paid confirmation: the
// ticket mails, the webhook, the GST invoice, the ledger's offline sale and platform fee, and the
// audit entry naming who marked it. Idempotent: marking a booking already marked paid answers it
// as it is and writes nothing; of two marks at once exactly one confirms.
import type { OfflineMethod, OfflinePaidDoc } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { formatMoney, rupeesToPaise } from '../../lib/money.js';
import * as events from '../events/events.service.js';
import { auditActor, loadOwnedRegistration } from './actions.service.js';
import { changeBooking, refusal, SeatsGone } from './lifecycle/change-booking.js';
import type { RegisterDeps } from './register-deps.js';
import * as offline from './offline.repo.js';
import * as repo from './registrations.repo.js';
import type { RegistrationRow as Row } from './registrations.repo.js';

export interface MarkPaidInput {
  method: OfflineMethod;
  reference?: string | undefined;
  /** Rupees received: must be the amount due. */
  amountPaid: number;
  /** When it was paid (ISO 8601 with offset); default now. */
  paidAt?: string | undefined;
}

function paidDoc(deps: RegisterDeps, input: MarkPaidInput): OfflinePaidDoc {
  const amountPaise = rupeesToPaise(input.amountPaid, 'amountPaid');
  let paidAt = deps.clock.now();
  if (input.paidAt !== undefined) {
    const t = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(input.paidAt)
      ? new Date(input.paidAt)
      : new Date(Number.NaN);
    if (Number.isNaN(t.getTime()))
      throw badRequest('invalid_date', 'paidAt must be an ISO 8601 date-time with an offset', {
        field: 'paidAt',
      });
    paidAt = t;
  }
  const reference = input.reference?.trim() || null;
  return { method: input.method, reference, amountPaise, paidAt: paidAt.toISOString() };
}

/** Whether `reg` was confirmed by a mark-paid already (the same answer again). */
const markedPaid = (reg: Row) => reg.status === 'confirmed' && reg.offline_paid !== null;

/**
 * Marks it paid; `moved` says whether this call confirmed it or found it marked paid already —
 * by an earlier mark, or by another mark at the same moment (the answer is the same booking).
 */
export async function markPaid(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  input: MarkPaidInput,
): Promise<{ reg: Row; moved: boolean }> {
  const paid = paidDoc(deps, input);
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (markedPaid(reg)) return { reg, moved: false };
  if (reg.status === 'cancelled' && reg.offline_reference !== null && reg.offline_paid === null)
    throw conflict(
      'registration_not_pending',
      'this booking was cancelled unpaid (its payBy passed, or it was cancelled); book again',
    );
  if (reg.status !== 'pending' || reg.pending_reason !== 'offline_payment')
    throw conflict(
      'registration_not_pending',
      reg.status === 'pending'
        ? `this registration awaits ${reg.pending_reason === 'approval' ? 'approval' : 'payment at the gateway'}, not a payment outside it`
        : `this registration is ${reg.status}`,
    );
  const due = Number(reg.amount_paise);
  if (paid.amountPaise !== due)
    throw conflict(
      'amount_mismatch',
      `amountPaid ${formatMoney(paid.amountPaise)} is not the ${formatMoney(due)} due; record the whole amount once it has arrived`,
      { amountDue: due / 100 },
    );
  const event = (await events.findEvent(deps.db, reg.event_id))!;
  const attendeeIds = await repo.attendeeIds(deps.db, reg.id);
  // The dashboard's person by name (§25), else the key.
  const actor = auditActor(reg, { kind: 'key', keyId: p.keyId, personId: p.personId });
  try {
    const moved = await deps.db
      .transaction()
      .execute((trx) =>
        changeBooking(trx, deps, reg, actor, { event: 'mark_paid', paid, eventRow: event, attendeeIds }),
      );
    if (moved) {
      deps.kickJobs();
      // As it is now: the fees were recorded after the move.
      return { reg: (await repo.findRegistration(deps.db, reg.id))!, moved: true };
    }
  } catch (err) {
    if (err instanceof SeatsGone)
      throw conflict('sold_out', 'no seats left for this booking; it stays pending');
    throw err;
  }
  // Another mark (or the lapse) moved it first: the same answer when it was a mark.
  const now = (await repo.findRegistration(deps.db, reg.id))!;
  if (markedPaid(now)) return { reg: now, moved: false };
  throw refusal('mark_paid', now);
}

/** A booking a statement line may name, as the statement upload needs it. */
export interface ReferencedBooking {
  id: string;
  eventId: string;
  reference: string;
  status: Row['status'];
  /** Pending for a payment outside the gateway: the one state a statement line may mark paid. */
  awaiting: boolean;
  /** Confirmed by a mark-paid (a statement's or a person's). */
  markedPaid: boolean;
  amountPaise: number;
}

/** The account's bookings in mode `mode` carrying any of `references` (TKT-XXXXXX). */
export async function bookingsByReference(
  deps: Pick<RegisterDeps, 'db'>,
  accountId: string,
  mode: 'test' | 'live',
  references: readonly string[],
): Promise<ReferencedBooking[]> {
  const rows = await offline.byOfflineReferences(deps.db, accountId, mode, references);
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    reference: r.offline_reference!,
    status: r.status,
    awaiting: r.status === 'pending' && r.pending_reason === 'offline_payment',
    markedPaid: r.status === 'confirmed' && r.offline_paid !== null,
    amountPaise: Number(r.amount_paise),
  }));
}
