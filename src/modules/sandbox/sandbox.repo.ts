// The sandbox gateway's tables: its orders, payments and subscriptions. (Each test
// account's clock offset is the accounts module's, the mails test mode keeps the mail module's.)
import { sql, type Insertable } from 'kysely';
import type { SandboxOrdersTable, SandboxPaymentsTable } from '../../db/database.js';
import type { Db } from '../../shared/db-handle.js';

// ---------------------------------------------------------------- orders and payments

const paymentColumns = ['sandbox_payments.id', 'order_id', 'sandbox_payments.amount', 'sandbox_payments.currency', 'sandbox_payments.status', 'amount_refunded'] as const;

export async function insertOrder(db: Db, order: Insertable<SandboxOrdersTable>): Promise<void> {
  await db.insertInto('sandbox_orders').values(order).execute();
}

export function findOrder(db: Db, accountId: string, orderId: string) {
  return db.selectFrom('sandbox_orders').selectAll().where('id', '=', orderId).where('account_id', '=', accountId).executeTakeFirst();
}

export function setOrderStatus(db: Db, accountId: string, orderId: string, status: SandboxOrdersTable['status']) {
  return db.updateTable('sandbox_orders').set({ status }).where('id', '=', orderId).where('account_id', '=', accountId).execute();
}

/** The payments of an order of this account only (sandbox payments carry no account of their own). */
const ofAccountOrder = (db: Db, accountId: string) => db.selectFrom('sandbox_orders').select('sandbox_orders.id').where('sandbox_orders.account_id', '=', accountId);

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
  return accountPayments(db, accountId).where('sandbox_payments.order_id', '=', orderId).orderBy('sandbox_payments.created_at').execute();
}

export function findOrderByReceipt(db: Db, accountId: string, receipt: string) {
  return db.selectFrom('sandbox_orders').selectAll().where('receipt', '=', receipt).where('account_id', '=', accountId).executeTakeFirst();
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

export async function setPaymentStatus(db: Db, accountId: string, paymentId: string, status: SandboxPaymentsTable['status']): Promise<void> {
  await db.updateTable('sandbox_payments').set({ status }).where('id', '=', paymentId).where('order_id', 'in', ofAccountOrder(db, accountId)).execute();
}

export async function addRefund(db: Db, accountId: string, paymentId: string, amount: number, status: SandboxPaymentsTable['status']): Promise<void> {
  await db
    .updateTable('sandbox_payments')
    .set({ amount_refunded: sql`amount_refunded + ${amount}`, status })
    .where('id', '=', paymentId)
    .where('order_id', 'in', ofAccountOrder(db, accountId))
    .execute();
}

// ---------------------------------------------------------------- subscriptions

export async function insertSubscription(db: Db, row: { id: string; account_id: string; status: string; created_at: Date }): Promise<void> {
  await db.insertInto('sandbox_subscriptions').values(row).execute();
}

/** Cancels (or marks for cycle end) a live subscription; false when there was none to cancel. */
export async function cancelSubscription(db: Db, accountId: string, subscriptionId: string, atCycleEnd: boolean): Promise<boolean> {
  const r = await db
    .updateTable('sandbox_subscriptions')
    .set(atCycleEnd ? { cancel_at_cycle_end: true } : { status: 'cancelled' })
    .where('id', '=', subscriptionId)
    .where('account_id', '=', accountId)
    .where('status', 'not in', ['cancelled', 'completed', 'expired'])
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function subscriptionExists(db: Db, accountId: string, subscriptionId: string): Promise<boolean> {
  const row = await db.selectFrom('sandbox_subscriptions').select('id').where('id', '=', subscriptionId).where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

export async function setSubscriptionStatus(db: Db, accountId: string, subscriptionId: string, status: string): Promise<void> {
  await db.updateTable('sandbox_subscriptions').set({ status }).where('id', '=', subscriptionId).where('account_id', '=', accountId).execute();
}
