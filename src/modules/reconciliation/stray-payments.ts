// Stray payments: money the gateway captured on one of our orders that no booking or
// membership period keeps — a second payment of an order already paid, a payment for a
// booking or membership cancelled before it was paid, another amount. Each is refunded
// in full by one durable job, whoever finds it: the paid notification (at once) or the
// sweep (which watches every order for a week, so a stray whose notification was lost is
// found too). An order is paid at most once.
import type { Mode } from '../../db/database.js';
import { enqueue, defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import * as memberships from '../memberships/memberships.service.js';
import type { GatewayPayment, PaymentGateway } from '../payments/gateway.js';
import { refundAtGateway } from '../payments/payments.service.js';
import * as registrations from '../registrations/registrations.service.js';
import * as orders from '../payments/order-checks.js';
import { leftToRefund, refundableOn, strayRefundKey } from './decisions.js';

export interface StrayRefundPayload {
  mode: Mode;
  accountId: string;
  orderId: string;
  paymentId: string;
}

export const strayRefundJob = defineJob<StrayRefundPayload>('payment.refund_stray');

export interface StrayDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  gatewayFor(mode: Mode, accountId: string): PaymentGateway;
  kickJobs(): void;
}

/** Whether a booking (in any state: an ended one carries its own refund) or a membership period holds this payment. */
export async function isPaymentKept(db: Kysely<Database>, paymentId: string): Promise<boolean> {
  if ((await registrations.findBookingIdByPayment(db, paymentId)) !== undefined) return true;
  if (await orders.isRecordedPayment(db, paymentId)) return true;
  return memberships.isPaymentBound(db, paymentId);
}

/**
 * A paid notification that neither a booking nor a membership took: when the payment is
 * captured money on one of our orders and nothing keeps it, its refund is queued and the
 * order is watched again. True when a refund was queued.
 */
export async function refundIfStray(
  deps: StrayDeps,
  mode: Mode,
  orderId: string,
  payment: GatewayPayment,
): Promise<boolean> {
  if (!refundableOn(payment, orderId)) return false;
  const order = await orders.findByOrderId(deps.db, orderId);
  if (!order || order.mode !== mode) return false;
  if (await isPaymentKept(deps.db, payment.id)) return false;
  await deps.db.transaction().execute(async (trx) => {
    await enqueue(trx, deps, strayRefundJob, {
      mode,
      accountId: order.account_id,
      orderId,
      paymentId: payment.id,
    });
    await orders.reopen(trx, orderId, deps.clock.now());
  });
  deps.kickJobs();
  return true;
}

/**
 * Refunds a stray payment in full, once: asks the gateway again at run time, and refunds
 * only captured money on that order that nothing has come to keep meanwhile.
 */
export async function refundStrayJob(deps: StrayDeps, p: StrayRefundPayload): Promise<void> {
  const gateway = deps.gatewayFor(p.mode, p.accountId);
  const payment = await gateway.fetchPayment(p.paymentId);
  if (!payment || !refundableOn(payment, p.orderId)) return;
  if (await isPaymentKept(deps.db, payment.id)) return;
  await refundStrayPayment(gateway, payment, { reason: 'not_kept' });
}

/**
 * A stray payment's refund at the gateway: all of what is left of it, under the key of
 * that payment, so the job and the sweep finding one stray refund it once. The job above
 * and the sweep's inline refund both come here.
 */
export async function refundStrayPayment(
  gateway: PaymentGateway,
  payment: GatewayPayment,
  notes: Record<string, string>,
): Promise<void> {
  await refundAtGateway(gateway, {
    paymentId: payment.id,
    amountPaise: leftToRefund(payment),
    notes,
    idempotencyKey: strayRefundKey(payment.id),
  });
}
