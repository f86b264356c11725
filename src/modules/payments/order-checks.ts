// The orders the service asks the gateway for, as other modules see them: a row is
// written before the create call (its receipt is how the sweep finds an order whose
// answer was lost), gets the order id once the create answers, and — for a membership —
// the payment its period was confirmed with. The reconciliation sweep settles it.
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { nowFor } from '../accounts/account-clock.js';
import * as repo from './gateway-orders.repo.js';

export interface OrderCheckInput {
  /** Our own unique id sent as the order's `receipt` (a registration id, or a membership order receipt). */
  receipt: string;
  kind: 'registration' | 'membership';
  mode: Mode;
  accountId: string;
  amount: number;
  currency: string;
}

/**
 * Before the gateway's create call, outside any transaction: it must survive a failed or lost
 * answer. A test-mode order is timed on its account's clock (its checkout window runs on it).
 */
export async function openOrderCheck(
  deps: { db: Kysely<Database>; clock: Clock },
  input: OrderCheckInput,
): Promise<void> {
  await repo.insertOrderCheck(
    deps.db,
    {
      receipt: input.receipt,
      kind: input.kind,
      mode: input.mode,
      account_id: input.accountId,
      amount_paise: input.amount,
      currency: input.currency,
    },
    await nowFor(deps, input.accountId, input.mode),
  );
}

/** The create answered: in the transaction that files what the order is for. */
export const attachOrder: (db: repo.Db, receipt: string, orderId: string) => Promise<void> = repo.attachOrder;

/** A membership period was confirmed with this payment of this order: in the confirming transaction. */
export const recordMembershipPayment: (db: repo.Db, orderId: string, paymentId: string) => Promise<void> =
  repo.recordMembershipPayment;

/** Something is about to move money on this order again (an organiser's refund): watch it once more. */
export async function reopenOrderCheck(
  deps: { db: Kysely<Database>; clock: Clock },
  orderId: string,
): Promise<void> {
  await repo.reopen(deps.db, orderId, deps.clock.now());
}

/** Watched orders by state and last outcome (for /metrics). */
export const outcomeCounts = (db: Kysely<Database>) => repo.outcomeCounts(db);

// What the reconciliation sweep and the stray-payment refund read and write of the watch list.
export type { OrderListQuery, OrderRow } from './gateway-orders.repo.js';
export const dueOrders = repo.dueOrders;
export const checkLater = repo.checkLater;
export const settle = repo.settle;
export const recordedPayment = repo.recordedPayment;
export const isRecordedPayment = repo.isRecordedPayment;
export const findByOrderId = repo.findByOrderId;
export const listPage = repo.listPage;
/** reopenOrderCheck inside the caller's transaction. */
export const reopen = repo.reopen;
