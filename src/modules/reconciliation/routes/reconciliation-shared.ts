// What the reconciliation operations share: the deps type, schemas and helpers of routes/.
import { Type } from 'typebox';
import { type ReconcileDeps } from '../reconcile.service.js';

/** What the reconciliation operations need. */
export type ReconciliationRouteDeps = ReconcileDeps;

export const SweepSummary = Type.Object({
  checked: Type.Integer({ description: 'orders asked about' }),
  confirmed: Type.Integer({ description: 'bookings or membership periods confirmed by the sweep' }),
  captured: Type.Integer({
    description: 'authorised payments captured for a booking or membership still waiting',
  }),
  refunded: Type.Integer({ description: 'payments refunded because nothing here expects them' }),
  expired: Type.Integer({
    description:
      'bookings unpaid CHECKOUT_WINDOW_MINUTES after step 1, cancelled (their promo code uses released)',
  }),
  endedRefunded: Type.Integer({
    description:
      'confirmed bookings whose payment the gateway had refunded (in its own dashboard), ended as refunded with seats freed',
  }),
  claimsFinished: Type.Integer({
    description:
      'refunds claimed and left refunding by a crash or an unanswered gateway, asked again with their own idempotency key and completed',
  }),
  orphansFound: Type.Integer({ description: 'orders whose create answer was lost, found by receipt' }),
  settled: Type.Integer({ description: 'orders whose money has ended in one place' }),
  errors: Type.Integer({ description: 'orders the gateway could not be asked about; asked again later' }),
});

export const OrderCheck = Type.Object({
  receipt: Type.String({
    description: 'our id sent as the order receipt (a registration id, or a membership order receipt)',
  }),
  kind: Type.Union([Type.Literal('registration'), Type.Literal('membership')]),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  accountId: Type.String(),
  amount: Type.Integer({ description: 'paise' }),
  currency: Type.String(),
  orderId: Type.Union([Type.String(), Type.Null()], {
    description: 'null until the gateway answered the create (or the sweep found it by receipt)',
  }),
  paymentId: Type.Union([Type.String(), Type.Null()], {
    description: 'the payment a membership period was confirmed with',
  }),
  status: Type.Union([Type.Literal('open'), Type.Literal('settled')]),
  outcome: Type.Union([Type.String(), Type.Null()], {
    description:
      'confirmed, cancelled, refunded, expired, unpaid, orphaned, orphan_refunded, no_order, refund_pending, …',
  }),
  checks: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  checkAfter: Type.String({ format: 'date-time' }),
  settledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
