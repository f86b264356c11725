// The orders the service asks the gateway for, as other modules see them: a row is
// written before the create call (its receipt is how the sweep finds an order whose
// answer was lost), gets the order id once the create answers, and — for a membership —
// the payment its period was confirmed with. The sweep (reconcile.service.ts) settles it.
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';

export interface OrderCheckInput {
  /** Our own unique id sent as the order's `receipt` (a registration id, or a membership order receipt). */
  receipt: string;
  kind: 'registration' | 'membership';
  mode: Mode;
  accountId: string;
  amount: number;
  currency: string;
}

/** Before the gateway's create call, outside any transaction: it must survive a failed or lost answer. */
export async function openOrderCheck(deps: { db: Kysely<Database>; clock: Clock }, input: OrderCheckInput): Promise<void> {
  const now = deps.clock.now();
  await deps.db
    .insertInto('gateway_orders')
    .values({
      receipt: input.receipt,
      kind: input.kind,
      mode: input.mode,
      account_id: input.accountId,
      amount_paise: input.amount,
      currency: input.currency,
      order_id: null,
      payment_id: null,
      created_at: now,
      check_after: now,
      settled_at: null,
      outcome: null,
      last_error: null,
    })
    .execute();
}

/** The create answered: in the transaction that files what the order is for. */
export async function attachOrder(db: Kysely<Database>, receipt: string, orderId: string): Promise<void> {
  await db.updateTable('gateway_orders').set({ order_id: orderId }).where('receipt', '=', receipt).execute();
}

/** A membership period was confirmed with this payment of this order: in the confirming transaction. */
export async function recordMembershipPayment(db: Kysely<Database>, orderId: string, paymentId: string): Promise<void> {
  await db.updateTable('gateway_orders').set({ payment_id: paymentId }).where('order_id', '=', orderId).where('payment_id', 'is', null).execute();
}

/** Something is about to move money on this order again (an organiser's refund): watch it once more. */
export async function reopenOrderCheck(deps: { db: Kysely<Database>; clock: Clock }, orderId: string): Promise<void> {
  await deps.db.updateTable('gateway_orders').set({ settled_at: null, check_after: deps.clock.now(), checks: 0 }).where('order_id', '=', orderId).execute();
}
