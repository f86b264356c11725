// The sandbox gateway for test keys: orders and payments live in the sandbox's own
// tables and the sandbox routes play the buyer and the gateway. Nothing leaves the machine.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import {
  GatewayError,
  refundKeyOf,
  type GatewayOrder,
  type GatewayPayment,
  type GatewayRefund,
  type GatewaySubscription,
  type PaymentGateway,
  type SubscriptionGateway,
} from '../payments/gateway.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import * as repo from './sandbox.repo.js';

export const SANDBOX_KEY_ID = 'rzp_test_sandbox';

export interface SandboxDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
}

/** Razorpay-like ids: a prefix and 14 characters. */
function gatewayId(ids: Ids, prefix: string): string {
  return `${prefix}_${ids
    .secret(12)
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 14)}`;
}

/** A refund's request as Razorpay would receive it (amount and notes when given; notes' keys sorted): a replay under its key must match it. */
function refundRequest(amount: number | undefined, notes: Record<string, string> | undefined): string {
  const sorted =
    notes && Object.fromEntries(Object.entries(notes).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return JSON.stringify({
    ...(amount === undefined ? {} : { amount }),
    ...(sorted ? { notes: sorted } : {}),
  });
}

type PaymentRow = {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: GatewayPayment['status'];
  amount_refunded: number;
};

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

  constructor(
    private readonly deps: SandboxDeps,
    private readonly accountId: string,
  ) {}

  async createOrder(input: {
    amount: number;
    currency: string;
    receipt: string;
    notes?: Record<string, string>;
  }): Promise<GatewayOrder> {
    const order = {
      id: gatewayId(this.deps.ids, 'order'),
      account_id: this.accountId,
      amount: input.amount,
      currency: input.currency,
      receipt: input.receipt,
      status: 'created' as const,
      notes: JSON.stringify(input.notes ?? {}),
      created_at: this.deps.clock.now(),
    };
    await repo.insertOrder(this.deps.db, order);
    return {
      id: order.id,
      amount: order.amount,
      currency: order.currency,
      receipt: order.receipt,
      status: 'created',
      notes: input.notes ?? {},
    };
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment | null> {
    const row = await repo.findPayment(this.deps.db, this.accountId, paymentId);
    return row ? toPayment(row) : null;
  }

  async capturePayment(paymentId: string, amount: number, currency: string): Promise<GatewayPayment> {
    const p = await this.fetchPayment(paymentId);
    if (!p) throw new GatewayError('rejected', 'The id provided does not exist', 400);
    if (p.status === 'captured')
      throw new GatewayError('rejected', 'This payment has already been captured', 400);
    if (p.status !== 'authorized')
      throw new GatewayError(
        'rejected',
        'Only payments which have been authorized and not yet captured can be captured',
        400,
      );
    if (p.amount !== amount || p.currency !== currency)
      throw new GatewayError('rejected', 'Capture amount must be equal to the amount authorized', 400);
    await repo.setPaymentStatus(this.deps.db, this.accountId, paymentId, 'captured');
    await repo.setOrderStatus(this.deps.db, this.accountId, p.orderId!, 'paid');
    return { ...p, status: 'captured', captured: true };
  }

  async fetchOrderPayments(orderId: string): Promise<GatewayPayment[]> {
    return (await repo.findOrderPayments(this.deps.db, this.accountId, orderId)).map(toPayment);
  }

  async findOrderByReceipt(receipt: string): Promise<GatewayOrder | null> {
    const o = await repo.findOrderByReceipt(this.deps.db, this.accountId, receipt);
    if (!o) return null;
    return {
      id: o.id,
      amount: Number(o.amount),
      currency: o.currency,
      receipt: o.receipt,
      status: o.status as GatewayOrder['status'],
      notes: (o.notes ?? {}) as Record<string, string>,
    };
  }

  /**
   * One refund, as the gateway's interface says (X-Refund-Idempotency's rules included): the
   * refund and the payment's refunded total change in one conditional statement, so no
   * interleaving of processes refunds more than was captured. A duplicate under the same key
   * sent while the first is in flight waits for it on the payment's row and answers its refund.
   */
  async refundPayment(
    paymentId: string,
    amount?: number,
    notes?: Record<string, string>,
    idempotencyKey?: string,
  ): Promise<GatewayRefund> {
    if (amount !== undefined && !Number.isInteger(amount))
      throw new GatewayError('rejected', 'The amount must be an integer.', 400);
    if (amount !== undefined && amount <= 0)
      throw new GatewayError('rejected', 'The refund amount provided is greater than amount captured', 400);
    const key = refundKeyOf(idempotencyKey, notes) || null;
    const request = refundRequest(amount, notes);
    const earlier = key === null ? undefined : await this.#refundUnderKey(paymentId, key, request);
    if (earlier) return earlier;
    const refund = {
      id: gatewayId(this.deps.ids, 'rfnd'),
      accountId: this.accountId,
      paymentId,
      idempotencyKey: key,
      amount: amount ?? null,
      notes: notes ?? {},
      request,
      createdAt: this.deps.clock.now(),
    };
    let made: { id: string; amount: number } | undefined;
    try {
      made = await repo.makeRefund(this.deps.db, refund);
    } catch (err) {
      // A refund under the same key was made while this one waited: that one answers, below.
      if (key === null || !isUniqueViolation(err, 'sandbox_refunds_key')) throw err;
    }
    if (made) return { id: made.id, paymentId, amount: made.amount, status: 'processed' };
    const first = key === null ? undefined : await this.#refundUnderKey(paymentId, key, request);
    if (first) return first;
    const p = await this.fetchPayment(paymentId);
    if (!p) throw new GatewayError('rejected', 'The id provided does not exist', 400);
    if (p.captured && p.amountRefunded >= p.amount)
      throw new GatewayError('rejected', 'The payment has been fully refunded already', 400);
    throw new GatewayError('rejected', 'The refund amount provided is greater than amount captured', 400);
  }

  /** The refund made under this key, when the request is the same; a refusal when it is another. */
  async #refundUnderKey(paymentId: string, key: string, request: string): Promise<GatewayRefund | undefined> {
    const r = await repo.findRefundByKey(this.deps.db, this.accountId, paymentId, key);
    if (!r) return undefined;
    if (r.request !== request)
      throw new GatewayError(
        'rejected',
        'Different request with the same idempotency key has already been processed.',
        400,
        'BAD_REQUEST_ERROR',
      );
    return { id: r.id, paymentId: r.payment_id, amount: Number(r.amount), status: 'processed' };
  }

  /** The buyer finishing (or failing) the hosted checkout: a payment for the order. */
  async pay(orderId: string, outcome: 'success' | 'failure'): Promise<GatewayPayment | undefined> {
    const order = await repo.findOrder(this.deps.db, this.accountId, orderId);
    if (!order) return undefined;
    const row: PaymentRow & { created_at: Date } = {
      id: gatewayId(this.deps.ids, 'pay'),
      order_id: order.id,
      amount: Number(order.amount),
      currency: order.currency,
      status: outcome === 'success' ? 'captured' : 'failed',
      amount_refunded: 0,
      created_at: this.deps.clock.now(),
    };
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.insertPayment(trx, row);
      await repo.setOrderStatus(trx, this.accountId, order.id, outcome === 'success' ? 'paid' : 'attempted');
    });
    return toPayment(row);
  }

  /** The captured payment of one of this account's orders, if any. */
  async capturedPaymentFor(orderId: string): Promise<GatewayPayment | undefined> {
    const row = await repo.findCapturedPayment(this.deps.db, this.accountId, orderId);
    return row ? toPayment(row) : undefined;
  }
}

/** Sandbox subscriptions: the sandbox routes play the member and the gateway's events. */
export class SandboxSubscriptions implements SubscriptionGateway {
  readonly keyId = SANDBOX_KEY_ID;

  constructor(
    private readonly deps: SandboxDeps,
    private readonly accountId: string,
    private readonly baseUrl: string,
  ) {}

  async createPlan(): Promise<{ id: string }> {
    return { id: gatewayId(this.deps.ids, 'plan') };
  }

  async createSubscription(): Promise<GatewaySubscription> {
    const id = gatewayId(this.deps.ids, 'sub');
    await repo.insertSubscription(this.deps.db, {
      id,
      account_id: this.accountId,
      status: 'created',
      created_at: this.deps.clock.now(),
    });
    // There is no hosted page in the sandbox: the link names the route that plays the approval.
    return {
      id,
      status: 'created',
      authorisationUrl: `${this.baseUrl}/api/v1/sandbox/subscriptions/${id}/authenticate`,
    };
  }

  async cancelSubscription(subscriptionId: string, atCycleEnd: boolean): Promise<void> {
    if (!(await repo.cancelSubscription(this.deps.db, this.accountId, subscriptionId, atCycleEnd))) {
      throw new GatewayError('rejected', 'Subscription is not cancellable in cancelled status.', 400);
    }
  }

  owns(subscriptionId: string): Promise<boolean> {
    return repo.subscriptionExists(this.deps.db, this.accountId, subscriptionId);
  }

  setStatus(subscriptionId: string, status: string): Promise<void> {
    return repo.setSubscriptionStatus(this.deps.db, this.accountId, subscriptionId, status);
  }
}
