// The sandbox gateway's tables: its orders, payments, refunds and subscriptions. (Each test
// account's clock offset is the accounts module's, the mails test mode keeps the mail module's.)
import { sql, type Insertable } from 'kysely';
import type { SandboxOrdersTable, SandboxPaymentsTable } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';

// ---------------------------------------------------------------- orders and payments

const paymentColumns = [
  'sandbox_payments.id',
  'order_id',
  'sandbox_payments.amount',
  'sandbox_payments.currency',
  'sandbox_payments.status',
  'amount_refunded',
] as const;

export async function insertOrder(db: Db, order: Insertable<SandboxOrdersTable>): Promise<void> {
  await db.insertInto('sandbox_orders').values(order).execute();
}

export function findOrder(db: Db, accountId: string, orderId: string) {
  return db
    .selectFrom('sandbox_orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export function setOrderStatus(
  db: Db,
  accountId: string,
  orderId: string,
  status: SandboxOrdersTable['status'],
) {
  return db
    .updateTable('sandbox_orders')
    .set({ status })
    .where('id', '=', orderId)
    .where('account_id', '=', accountId)
    .execute();
}

/** The payments of an order of this account only (sandbox payments carry no account of their own). */
const ofAccountOrder = (db: Db, accountId: string) =>
  db
    .selectFrom('sandbox_orders')
    .select('sandbox_orders.id')
    .where('sandbox_orders.account_id', '=', accountId);

/** A payment of one of this account's orders. */
/** Payments joined to their order, limited to this account's orders. */
const accountPayments = (db: Db, accountId: string) =>
  db
    .selectFrom('sandbox_payments')
    .innerJoin('sandbox_orders', 'sandbox_orders.id', 'sandbox_payments.order_id')
    .select(paymentColumns)
    .where('sandbox_orders.account_id', '=', accountId);

export function findPayment(db: Db, accountId: string, paymentId: string) {
  return accountPayments(db, accountId).where('sandbox_payments.id', '=', paymentId).executeTakeFirst();
}

/** Every payment attempt of one of this account's orders, oldest first. */
export function findOrderPayments(db: Db, accountId: string, orderId: string) {
  return accountPayments(db, accountId)
    .where('sandbox_payments.order_id', '=', orderId)
    .orderBy('sandbox_payments.created_at')
    .execute();
}

export function findOrderByReceipt(db: Db, accountId: string, receipt: string) {
  return db
    .selectFrom('sandbox_orders')
    .selectAll()
    .where('receipt', '=', receipt)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The captured (or since refunded) payment of one of this account's orders. */
export function findCapturedPayment(db: Db, accountId: string, orderId: string) {
  return db
    .selectFrom('sandbox_payments')
    .innerJoin('sandbox_orders', 'sandbox_orders.id', 'sandbox_payments.order_id')
    .select(paymentColumns)
    .where('sandbox_payments.order_id', '=', orderId)
    .where('sandbox_orders.account_id', '=', accountId)
    .where('sandbox_payments.status', 'in', ['captured', 'refunded'])
    .executeTakeFirst();
}

export async function insertPayment(db: Db, payment: Insertable<SandboxPaymentsTable>): Promise<void> {
  await db.insertInto('sandbox_payments').values(payment).execute();
}

export async function setPaymentStatus(
  db: Db,
  accountId: string,
  paymentId: string,
  status: SandboxPaymentsTable['status'],
): Promise<void> {
  await db
    .updateTable('sandbox_payments')
    .set({ status })
    .where('id', '=', paymentId)
    .where('order_id', 'in', ofAccountOrder(db, accountId))
    .execute();
}

export interface RefundToMake {
  id: string;
  accountId: string;
  paymentId: string;
  idempotencyKey: string | null;
  /** null: all that is left. */
  amount: number | null;
  notes: Record<string, string>;
  request: string;
  createdAt: Date;
}

/**
 * Refunds a captured payment of this account in one statement: the payment's row is locked,
 * its amount_refunded grows only while it stays within the capture, and the refund row is
 * written with it (or neither). Concurrent refunds of a payment queue on its row, each judged
 * against what the ones before it left, in whatever process they run. Answers the refund, or
 * undefined when refused (unknown payment, not captured, nothing or too much to refund).
 * Throws a unique violation of `sandbox_refunds_key` when a refund under the same key came first.
 */
export async function makeRefund(
  db: Db,
  r: RefundToMake,
): Promise<{ id: string; amount: number } | undefined> {
  const result = await sql<{ id: string; amount: string }>`
    with target as (
      select p.id, coalesce(${r.amount}::bigint, p.amount - p.amount_refunded) as refund
        from sandbox_payments p
       where p.id = ${r.paymentId} and p.order_id in (select o.id from sandbox_orders o where o.account_id = ${r.accountId})
         for update
    ), claimed as (
      update sandbox_payments p
         set amount_refunded = p.amount_refunded + t.refund,
             status = case when p.amount_refunded + t.refund = p.amount then 'refunded' else p.status end
        from target t
       where p.id = t.id and p.status in ('captured', 'refunded') and t.refund > 0 and p.amount_refunded + t.refund <= p.amount
      returning p.id, t.refund
    )
    insert into sandbox_refunds (id, account_id, payment_id, idempotency_key, amount, notes, request, created_at)
    select ${r.id}::text, ${r.accountId}::text, c.id, ${r.idempotencyKey}::text, c.refund, ${JSON.stringify(r.notes)}::jsonb, ${r.request}::text, ${r.createdAt}::timestamptz
      from claimed c
    returning id, amount`.execute(db);
  const row = result.rows[0];
  return row ? { id: row.id, amount: Number(row.amount) } : undefined;
}

/** The refund of this account's payment made under this idempotency key, if any. */
export function findRefundByKey(db: Db, accountId: string, paymentId: string, idempotencyKey: string) {
  return db
    .selectFrom('sandbox_refunds')
    .select(['id', 'payment_id', 'amount', 'request'])
    .where('account_id', '=', accountId)
    .where('payment_id', '=', paymentId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

// ---------------------------------------------------------------- subscriptions

export async function insertSubscription(
  db: Db,
  row: { id: string; account_id: string; status: string; created_at: Date },
): Promise<void> {
  await db.insertInto('sandbox_subscriptions').values(row).execute();
}

/** Cancels (or marks for cycle end) a live subscription; false when there was none to cancel. */
export async function cancelSubscription(
  db: Db,
  accountId: string,
  subscriptionId: string,
  atCycleEnd: boolean,
): Promise<boolean> {
  const r = await db
    .updateTable('sandbox_subscriptions')
    .set(atCycleEnd ? { cancel_at_cycle_end: true } : { status: 'cancelled' })
    .where('id', '=', subscriptionId)
    .where('account_id', '=', accountId)
    .where('status', 'not in', ['cancelled', 'completed', 'expired'])
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function subscriptionExists(
  db: Db,
  accountId: string,
  subscriptionId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sandbox_subscriptions')
    .select('id')
    .where('id', '=', subscriptionId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setSubscriptionStatus(
  db: Db,
  accountId: string,
  subscriptionId: string,
  status: string,
): Promise<void> {
  await db
    .updateTable('sandbox_subscriptions')
    .set({ status })
    .where('id', '=', subscriptionId)
    .where('account_id', '=', accountId)
    .execute();
}
