// What the hosted page shows a buyer who chose to pay outside the gateway
// (docs/decisions/24-payment-outside-the-gateway.md): the amount, the reference to quote, the
// pay-by time in the event's time zone, the organiser's instructions and, for
// `upi_to_organiser`, the `upi://pay` link and its QR code — built as the payment-due mail builds
// them, so the page and the mail say the same. Pure: the booking gives the facts.
import type { OfflineMethod, OfflinePaymentDoc } from '../../db/database.js';
import { formatInstant } from '../../lib/event-time.js';
import { qrPng } from '../../lib/qr-png.js';
import { upiPayLink } from '../tickets/payment-due-mail.js';

export interface AwaitingPaymentView {
  status: 'awaiting_payment';
  amount: number;
  currency: string;
  awaitingPayment: { method: OfflineMethod; reference: string; payBy: string; payByText: string };
  instructions: string;
  upi: { link: string; qr: string } | null;
}

export function awaitingPaymentView(
  booking: {
    amount: number;
    currency: string;
    awaitingPayment: { method: OfflineMethod; reference: string; payBy: Date };
  },
  event: { title: string; offline_payment: OfflinePaymentDoc | null },
  timeZone: string,
): AwaitingPaymentView {
  const { method, reference, payBy } = booking.awaitingPayment;
  const settings = event.offline_payment;
  const link =
    method === 'upi_to_organiser' && settings?.upiId
      ? upiPayLink({ id: settings.upiId, name: settings.upiName ?? event.title }, booking.amount, reference)
      : null;
  return {
    status: 'awaiting_payment',
    amount: booking.amount,
    currency: booking.currency,
    awaitingPayment: {
      method,
      reference,
      payBy: payBy.toISOString(),
      payByText: formatInstant(payBy, timeZone),
    },
    instructions: settings?.instructions ?? '',
    upi: link
      ? {
          link,
          qr: `data:image/png;base64,${qrPng(link, { errorCorrectionLevel: 'M', margin: 2, width: 240 }).toString('base64')}`,
        }
      : null,
  };
}
