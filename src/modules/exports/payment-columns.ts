// The registrations file's payment columns (docs/decisions/24-payment-outside-the-gateway.md): how a
// booking is (or is to be) paid, and for one paid outside the gateway the reference the buyer
// quotes, its pay-by time, what the organiser recorded on marking it paid, and its refund.
import type { RegistrationRow } from '../registrations/registrations.service.js';
import type { Column } from './csv.js';

type Row = Pick<
  RegistrationRow,
  | 'amount_paise'
  | 'order_id'
  | 'payment_id'
  | 'offline_method'
  | 'offline_reference'
  | 'pay_by'
  | 'offline_paid'
>;

/**
 * `gateway` for a booking paid (or to be paid) through the gateway; the offline method for one
 * paid outside it (the method the organiser recorded, which may differ from the one chosen);
 * empty for a free booking.
 */
export function paymentMethodOf(r: Row): string | null {
  if (r.offline_paid) return r.offline_paid.method;
  if (r.offline_method) return r.offline_method;
  if (r.order_id !== null || r.payment_id !== null) return 'gateway';
  return Number(r.amount_paise) > 0 ? 'gateway' : null;
}

export function paymentColumns<T>(row: (b: T) => Row): Column<T>[] {
  return [
    { header: 'payment_method', value: (b) => paymentMethodOf(row(b)) },
    { header: 'payment_reference', value: (b) => row(b).offline_reference },
    { header: 'pay_by', value: (b) => row(b).pay_by },
    { header: 'paid_reference', value: (b) => row(b).offline_paid?.reference ?? null },
    {
      header: 'paid_at',
      value: (b) => {
        const paid = row(b).offline_paid;
        return paid ? new Date(paid.paidAt) : null;
      },
    },
  ];
}
