// A registration as the API (and the dashboard) shows it: the `Registration` schema's shape.
import type { Kysely, Selectable } from 'kysely';
import type { Database, RegistrationsTable } from '../../db/database.js';
import { paiseToRupees } from '../../lib/money.js';
import { type BookedSeat, seatsOf } from '../seat-holds/booked-seats.service.js';
import { channelsFor, type Channel } from '../whatsapp/whatsapp.service.js';
import * as registrations from './registrations.service.js';

export type Row = Selectable<RegistrationsTable>;
type AttendeeRow = Pick<registrations.AttendeeRow, 'id' | 'idx' | 'name' | 'email' | 'checked_in_at'>;

export function presentRegistration(
  r: Row,
  attendees: readonly AttendeeRow[],
  channels: readonly Channel[] = [],
  seats: readonly BookedSeat[] = [],
) {
  const primary = attendees.find((a) => a.idx === 0);
  return {
    id: r.id,
    eventId: r.event_id,
    status: r.status,
    pendingReason: r.pending_reason,
    awaitingPayment:
      r.status === 'pending' && r.pending_reason === 'offline_payment'
        ? { method: r.offline_method!, reference: r.offline_reference!, payBy: r.pay_by!.toISOString() }
        : null,
    name: r.name,
    email: r.email,
    phone: r.phone,
    whatsappOptIn: r.whatsapp_opt_in,
    channels: [...channels],
    ticketType: r.ticket_type,
    subEventId: r.sub_event_id === null ? null : String(r.sub_event_id),
    quantity: r.quantity,
    amount: paiseToRupees(Number(r.amount_paise)),
    refunded: paiseToRupees(r.refunded_paise),
    kept: paiseToRupees(keptPaise(r)),
    currency: r.currency,
    platformFee: paiseToRupees(Number(r.platform_fee_paise)),
    gatewayFee: paiseToRupees(Number(r.gateway_fee_paise)),
    customFields: r.custom_fields,
    teamMembers: attendees
      .filter((a) => a.idx > 0)
      .map((a) => ({ id: a.id, name: a.name, email: a.email, checkedIn: a.checked_in_at !== null })),
    seats: seats.map((s) => ({ ...s })),
    promoCode: r.promo_code,
    billing: !r.billing
      ? null
      : {
          gstin: r.billing.gstin,
          name: r.billing.name,
          address: r.billing.address,
          state: r.billing.stateCode,
        },
    ticketCode: r.ticket_code,
    checkedIn: (primary?.checked_in_at ?? null) !== null,
    checkedInAt: primary?.checked_in_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    confirmedAt: r.confirmed_at?.toISOString() ?? null,
  };
}

/**
 * What the organiser keeps of a paid booking: all of it while confirmed, less what was given
 * back; after a cancellation under a fee policy, the fee; after a refund in full, nothing.
 */
export function keptPaise(
  r: Pick<Row, 'amount_paise' | 'refunded_paise' | 'kept_paise' | 'payment_id' | 'status' | 'offline_paid'>,
): number {
  if ((r.payment_id === null && r.offline_paid === null) || r.status === 'pending') return 0;
  // Ended: what its last refund left (a payment that came for a booking already ended is refunded whole).
  if (r.status === 'cancelled' || r.status === 'refunded') return r.kept_paise;
  return Math.max(0, Number(r.amount_paise) - r.refunded_paise);
}

export async function presentOne(db: Kysely<Database>, r: Row) {
  const [people, channels, seats] = await Promise.all([
    registrations.attendeesOf(db, [r.id]),
    channelsFor(db, [r.id]),
    seatsOf(db, [r.id]),
  ]);
  return presentRegistration(r, people.get(r.id) ?? [], channels.get(r.id), seats.get(r.id));
}
