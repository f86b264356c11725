// How much of a payment is still to refund, in paise. Pure. A refund always returns
// everything the gateway still holds of a captured payment (refunds here are full).
import type { GatewayPayment } from './gateway.js';

/** What the gateway still holds of a payment: 0 for one not captured or already refunded in full. */
export function unrefundedPaise(p: Pick<GatewayPayment, 'captured' | 'amount' | 'amountRefunded'>): number {
  return p.captured ? Math.max(0, p.amount - p.amountRefunded) : 0;
}
