// A subscription charge that no period keeps: the gateway charged the mandate before it
// saw the cancel, and the charge's notification found the membership ended, or held by a
// cancel that ends it now. No period follows, so the money goes back in full (docs/decisions/11-trust-and-safety.md, docs/decisions/12-money-integrity.md).
// The refund is reserved in payment_captures (whose CHECK refuses refunds above a capture)
// and queued in the transaction that decides it, with the membership row locked, so a
// charge is either kept (its ledger entry) or refunded, never both; a repeated
// notification reserves nothing more, and the job refunds under a key of the payment.
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import type { Ids } from '../../lib/ids.js';
import * as ledger from '../ledger/ledger.service.js';
import * as captures from '../payments/captures.repo.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { refundAtGateway } from '../payments/payments.service.js';

export interface ChargeRefundPayload {
  mode: Mode;
  accountId: string;
  membershipId: string;
  paymentId: string;
}

export const chargeRefundJob = defineJob<ChargeRefundPayload>('membership.refund_charge');

/** The gateway's idempotency key for the refund of a charge: a retried job is the same refund. */
export const chargeRefundKey = (paymentId: string) =>
  `mchg_${paymentId}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);

/** Whether this charge's refund has been decided already. */
export async function isChargeRefunded(db: Db, mode: Mode, paymentId: string): Promise<boolean> {
  const c = await captures.findCapture(db, mode, paymentId);
  return c !== undefined && c.refunded_paise > 0;
}

/** In the transaction that found no period for the charge: its full refund reserved and queued, once. */
export async function refundCharge(
  trx: Db,
  deps: { clock: Clock; ids: Ids },
  m: { id: string; account_id: string; mode: Mode },
  payment: { id: string; amount: number },
): Promise<void> {
  const capture = {
    mode: m.mode,
    paymentId: payment.id,
    accountId: m.account_id,
    registrationId: null,
    capturedPaise: payment.amount,
  };
  if (!(await captures.reserveRefund(trx, capture, payment.amount, deps.clock.now()))) return;
  await enqueue(trx as Kysely<Database>, deps, chargeRefundJob, {
    mode: m.mode,
    accountId: m.account_id,
    membershipId: m.id,
    paymentId: payment.id,
  });
}

/** The job: what is left of the captured charge, refunded at the gateway under the payment's key. */
export async function refundChargeJob(
  deps: { db: Kysely<Database>; gatewayFor(mode: Mode, accountId: string): PaymentGateway },
  p: ChargeRefundPayload,
): Promise<void> {
  // Never both: a charge the ledger keeps is not refunded.
  if (await ledger.hasMembershipPayment(deps.db, p.membershipId, p.paymentId)) return;
  const gateway = deps.gatewayFor(p.mode, p.accountId);
  const payment = await gateway.fetchPayment(p.paymentId);
  if (!payment || !payment.captured || payment.amountRefunded >= payment.amount) return;
  await refundAtGateway(gateway, {
    paymentId: payment.id,
    amountPaise: payment.amount - payment.amountRefunded,
    notes: { reason: 'membership_ended', membershipId: p.membershipId },
    idempotencyKey: chargeRefundKey(payment.id),
  });
}
