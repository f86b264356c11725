// The refund job: a payment captured for a booking that cannot keep it (it lost the
// race for the last seat, or was cancelled before it was paid). Idempotent.
import { defineJob } from '../../jobs/queue.js';
import { refundAtGateway } from '../payments/payments.service.js';
import type { RegisterDeps } from './register-deps.js';
import * as repo from './registrations.repo.js';
import * as captures from '../payments/captures.repo.js';

export interface RefundPayload {
  registrationId: string;
  paymentId: string;
  /** Paise. */
  amount: number;
}

export const refundPaymentJob = defineJob<RefundPayload>('payment.refund');

export async function refundJob(
  deps: Pick<RegisterDeps, 'db' | 'gatewayFor'>,
  payload: RefundPayload,
): Promise<void> {
  const reg = await repo.findRegistration(deps.db, payload.registrationId);
  if (!reg || reg.refund_id !== null) return;
  const gateway = deps.gatewayFor(reg.mode, reg.account_id);
  const payment = await gateway.fetchPayment(payload.paymentId);
  if (payment && payment.amountRefunded >= payload.amount) return;
  const refund = await refundAtGateway(gateway, {
    paymentId: payload.paymentId,
    amountPaise: payload.amount,
    notes: { registrationId: reg.id, reason: 'sold_out' },
    idempotencyKey: `${reg.id}-x${payload.amount}`,
  });
  await deps.db.transaction().execute(async (trx) => {
    await repo.setRefundId(trx, reg.id, refund.id);
    await captures.refundedInFull(trx, reg.mode, payload.paymentId);
  });
}
