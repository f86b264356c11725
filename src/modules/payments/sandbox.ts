// The sandbox gateway for test keys: orders and payments live in our own tables and
// the sandbox routes play the buyer and the gateway. Nothing leaves the machine.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import type { Ids } from '../../shared/ids.js';
import { GatewayError, type GatewayOrder, type GatewayPayment, type GatewayRefund, type GatewaySubscription, type PaymentGateway, type SubscriptionGateway } from './gateway.js';

export const SANDBOX_KEY_ID = 'rzp_test_sandbox';

/** Razorpay-like ids: a prefix and 14 characters. */
function gatewayId(ids: Ids, prefix: string): string {
  return `${prefix}_${ids.secret(12).replace(/[^A-Za-z0-9]/g, 'x').slice(0, 14)}`;
}

type PaymentRow = { id: string; order_id: string; amount: number; currency: string; status: GatewayPayment['status']; amount_refunded: number };

function toPayment(r: PaymentRow): GatewayPayment {
  return {
    id: r.id,
    orderId: r.order_id,
    amount: Number(r.amount),
    currency: r.currency,
    status: r.status,
    captured: r.status === 'captured' || r.status === 'refunded',
    amountRefunded: Number(r.amount_refunded),
  };
}

export class SandboxGateway implements PaymentGateway {
  readonly keyId = SANDBOX_KEY_ID;
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #accountId: string;

  constructor(deps: { db: Kysely<Database>; clock: Clock; ids: Ids }, accountId: string) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#accountId = accountId;
  }

  async createOrder(input: { amount: number; currency: string; receipt: string; notes?: Record<string, string> }): Promise<GatewayOrder> {
    const order = {
      id: gatewayId(this.#ids, 'order'),
      account_id: this.#accountId,
      amount: input.amount,
      currency: input.currency,
      receipt: input.receipt,
      status: 'created' as const,
      notes: JSON.stringify(input.notes ?? {}),
      created_at: this.#clock.now(),
    };
    await this.#db.insertInto('sandbox_orders').values(order).execute();
    return { id: order.id, amount: order.amount, currency: order.currency, receipt: order.receipt, status: 'created', notes: input.notes ?? {} };
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment | null> {
    const row = await this.#db
      .selectFrom('sandbox_payments')
      .innerJoin('sandbox_orders', 'sandbox_orders.id', 'sandbox_payments.order_id')
      .select(['sandbox_payments.id', 'order_id', 'sandbox_payments.amount', 'sandbox_payments.currency', 'sandbox_payments.status', 'amount_refunded'])
      .where('sandbox_payments.id', '=', paymentId)
      .where('sandbox_orders.account_id', '=', this.#accountId)
      .executeTakeFirst();
    return row ? toPayment(row) : null;
  }

  async capturePayment(paymentId: string, amount: number, currency: string): Promise<GatewayPayment> {
    const p = await this.fetchPayment(paymentId);
    if (!p) throw new GatewayError('rejected', 'The id provided does not exist', 400);
    if (p.status === 'captured') throw new GatewayError('rejected', 'This payment has already been captured', 400);
    if (p.status !== 'authorized') throw new GatewayError('rejected', 'Only payments which have been authorized and not yet captured can be captured', 400);
    if (p.amount !== amount || p.currency !== currency) throw new GatewayError('rejected', 'Capture amount must be equal to the amount authorized', 400);
    await this.#db.updateTable('sandbox_payments').set({ status: 'captured' }).where('id', '=', paymentId).execute();
    await this.#db.updateTable('sandbox_orders').set({ status: 'paid' }).where('id', '=', p.orderId!).execute();
    return { ...p, status: 'captured', captured: true };
  }

  async refundPayment(paymentId: string, amount?: number): Promise<GatewayRefund> {
    const p = await this.fetchPayment(paymentId);
    if (!p) throw new GatewayError('rejected', 'The id provided does not exist', 400);
    const refund = amount ?? p.amount - p.amountRefunded;
    if (!p.captured || refund <= 0 || p.amountRefunded + refund > p.amount) {
      throw new GatewayError('rejected', 'The refund amount provided is greater than amount captured', 400);
    }
    await this.#db
      .updateTable('sandbox_payments')
      .set({
        amount_refunded: sql`amount_refunded + ${refund}`,
        status: p.amountRefunded + refund === p.amount ? 'refunded' : p.status,
      })
      .where('id', '=', paymentId)
      .execute();
    return { id: gatewayId(this.#ids, 'rfnd'), paymentId, amount: refund, status: 'processed' };
  }

  async fetchOrderPayments(orderId: string): Promise<GatewayPayment[]> {
    const rows = await this.#db
      .selectFrom('sandbox_payments')
      .innerJoin('sandbox_orders', 'sandbox_orders.id', 'sandbox_payments.order_id')
      .select(['sandbox_payments.id', 'order_id', 'sandbox_payments.amount', 'sandbox_payments.currency', 'sandbox_payments.status', 'amount_refunded'])
      .where('sandbox_payments.order_id', '=', orderId)
      .where('sandbox_orders.account_id', '=', this.#accountId)
      .orderBy('sandbox_payments.created_at')
      .execute();
    return rows.map(toPayment);
  }

  async findOrderByReceipt(receipt: string): Promise<GatewayOrder | null> {
    const o = await this.#db.selectFrom('sandbox_orders').selectAll().where('receipt', '=', receipt).where('account_id', '=', this.#accountId).executeTakeFirst();
    if (!o) return null;
    return { id: o.id, amount: Number(o.amount), currency: o.currency, receipt: o.receipt, status: o.status as GatewayOrder['status'], notes: (o.notes ?? {}) as Record<string, string> };
  }

  /** The buyer finishing (or failing) the hosted checkout: a payment for the order. */
  async pay(orderId: string, outcome: 'success' | 'failure'): Promise<GatewayPayment | undefined> {
    const order = await this.#db
      .selectFrom('sandbox_orders')
      .selectAll()
      .where('id', '=', orderId)
      .where('account_id', '=', this.#accountId)
      .executeTakeFirst();
    if (!order) return undefined;
    const row: PaymentRow & { created_at: Date } = {
      id: gatewayId(this.#ids, 'pay'),
      order_id: order.id,
      amount: Number(order.amount),
      currency: order.currency,
      status: outcome === 'success' ? 'captured' : 'failed',
      amount_refunded: 0,
      created_at: this.#clock.now(),
    };
    await this.#db.transaction().execute(async (trx) => {
      await trx.insertInto('sandbox_payments').values(row).execute();
      await trx
        .updateTable('sandbox_orders')
        .set({ status: outcome === 'success' ? 'paid' : 'attempted' })
        .where('id', '=', order.id)
        .execute();
    });
    return toPayment(row);
  }

  /** The captured payment of an order, if any. */
  async capturedPaymentFor(orderId: string): Promise<GatewayPayment | undefined> {
    const row = await this.#db
      .selectFrom('sandbox_payments')
      .selectAll()
      .where('order_id', '=', orderId)
      .where('status', 'in', ['captured', 'refunded'])
      .executeTakeFirst();
    return row ? toPayment(row) : undefined;
  }
}

/** Sandbox subscriptions: the sandbox routes play the member and the gateway's events. */
export class SandboxSubscriptions implements SubscriptionGateway {
  readonly keyId = SANDBOX_KEY_ID;
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #accountId: string;
  readonly #baseUrl: string;

  constructor(deps: { db: Kysely<Database>; clock: Clock; ids: Ids }, accountId: string, baseUrl: string) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#accountId = accountId;
    this.#baseUrl = baseUrl;
  }

  async createPlan(): Promise<{ id: string }> {
    return { id: gatewayId(this.#ids, 'plan') };
  }

  async createSubscription(): Promise<GatewaySubscription> {
    const id = gatewayId(this.#ids, 'sub');
    await this.#db.insertInto('sandbox_subscriptions').values({ id, account_id: this.#accountId, status: 'created', created_at: this.#clock.now() }).execute();
    // There is no hosted page in the sandbox: the link names the route that plays the approval.
    return { id, status: 'created', authorisationUrl: `${this.#baseUrl}/api/v1/sandbox/subscriptions/${id}/authenticate` };
  }

  async cancelSubscription(subscriptionId: string, atCycleEnd: boolean): Promise<void> {
    const r = await this.#db
      .updateTable('sandbox_subscriptions')
      .set(atCycleEnd ? { cancel_at_cycle_end: true } : { status: 'cancelled' })
      .where('id', '=', subscriptionId)
      .where('account_id', '=', this.#accountId)
      .where('status', 'not in', ['cancelled', 'completed', 'expired'])
      .executeTakeFirst();
    if (r.numUpdatedRows === 0n) throw new GatewayError('rejected', 'Subscription is not cancellable in cancelled status.', 400);
  }

  async owns(subscriptionId: string): Promise<boolean> {
    const row = await this.#db.selectFrom('sandbox_subscriptions').select('id').where('id', '=', subscriptionId).where('account_id', '=', this.#accountId).executeTakeFirst();
    return row !== undefined;
  }

  async setStatus(subscriptionId: string, status: string): Promise<void> {
    await this.#db.updateTable('sandbox_subscriptions').set({ status }).where('id', '=', subscriptionId).execute();
  }
}
