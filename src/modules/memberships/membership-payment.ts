// A membership payment recorded, defined once: a fixed term's payment (step 2, the
// gateway's notification, reconciliation) and a subscription's charge both come here, in
// the transaction that applies the payment to the membership.
import type { Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import * as ledger from '../ledger/ledger.service.js';
import { queueConfirmationMail, queuePaymentMail } from './membership-mail.jobs.js';
import type { Db } from '../../lib/db-handle.js';

/**
 * The payment enters the ledger (gross, and the gateway's charge in live mode) and the
 * member is sent a payment-received mail, once per payment: a repeated notification
 * records nothing and answers false. `startsMembership`: the payment starts it, so the
 * confirmation mail goes first (a fixed term's first payment).
 */
export async function applyMembershipPayment(
  trx: Db,
  deps: { clock: Clock; ids: Ids },
  m: { id: string; account_id: string; mode: Mode },
  payment: { id: string; amountPaise: number; paidAt: Date; validUntil: Date | null },
  startsMembership = false,
): Promise<boolean> {
  const recorded = await ledger.recordMembershipPayment(trx, {
    accountId: m.account_id,
    mode: m.mode,
    membershipId: m.id,
    paymentId: payment.id,
    grossPaise: payment.amountPaise,
    capturedAt: payment.paidAt,
  });
  if (recorded && startsMembership) await queueConfirmationMail(trx, deps, m.id, payment.paidAt);
  if (recorded)
    await queuePaymentMail(trx, deps, {
      membershipId: m.id,
      paymentId: payment.id,
      amountPaise: payment.amountPaise,
      paidAt: payment.paidAt,
      validUntil: payment.validUntil,
    });
  return recorded;
}
