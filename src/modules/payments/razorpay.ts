// Razorpay's REST API, for live keys: a small typed client on fetch (the official
// SDK has no base-URL option and mis-sends some cancellations). Basic auth with the
// service's key id and secret; JSON bodies; amounts in paise. The secret never appears
// in an error or a log line.
import {
  GatewayError,
  gatewayPeriod,
  refundKeyHeader,
  refundKeyOf,
  type GatewayOrder,
  type GatewayPayment,
  type GatewayRefund,
  type GatewaySubscription,
  type PaymentGateway,
  type PlanPeriod,
  type SubscriptionGateway,
} from './gateway.js';
import { razorpayClient, type RazorpayCall, type RazorpayClientOptions } from './razorpay-client.js';

export type RazorpayOptions = RazorpayClientOptions;

/** Razorpay sends an empty `notes` as `[]`. */
function notesOf(notes: unknown): Record<string, string> {
  if (!notes || Array.isArray(notes) || typeof notes !== 'object') return {};
  return Object.fromEntries(Object.entries(notes as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/** `captured` arrives as true, 1 or "1". */
export function capturedFlag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

export function toPayment(e: Record<string, unknown>): GatewayPayment {
  const status = String(e.status) as GatewayPayment['status'];
  return {
    id: String(e.id),
    orderId: typeof e.order_id === 'string' ? e.order_id : null,
    amount: Number(e.amount),
    currency: String(e.currency),
    status,
    captured: capturedFlag(e.captured) || status === 'captured' || status === 'refunded',
    amountRefunded: Number(e.amount_refunded ?? 0),
  };
}

export class RazorpayGateway implements PaymentGateway, SubscriptionGateway {
  readonly keyId: string;
  readonly #call: RazorpayCall;

  constructor(options: RazorpayOptions) {
    this.keyId = options.keyId;
    this.#call = razorpayClient(options, 'Razorpay');
  }

  static #isUnknownId(err: unknown): boolean {
    return (
      err instanceof GatewayError &&
      err.status === 400 &&
      /does not exist|is not a valid id/i.test(err.message)
    );
  }

  async createOrder(input: {
    amount: number;
    currency: string;
    receipt: string;
    notes?: Record<string, string>;
  }): Promise<GatewayOrder> {
    // No idempotency header exists for orders; a timed-out create is not retried here.
    const o = await this.#call<Record<string, unknown>>('POST', '/v1/orders', {
      amount: input.amount,
      currency: input.currency,
      receipt: input.receipt.slice(0, 40),
      notes: input.notes ?? {},
    });
    return {
      id: String(o.id),
      amount: Number(o.amount),
      currency: String(o.currency),
      receipt: typeof o.receipt === 'string' ? o.receipt : null,
      status: String(o.status) as GatewayOrder['status'],
      notes: notesOf(o.notes),
    };
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment | null> {
    if (!/^pay_[A-Za-z0-9]{1,40}$/.test(paymentId)) return null;
    try {
      return toPayment(await this.#call<Record<string, unknown>>('GET', `/v1/payments/${paymentId}`));
    } catch (err) {
      // Razorpay answers 400 for an unknown or another merchant's id.
      if (RazorpayGateway.#isUnknownId(err)) return null;
      throw err;
    }
  }

  async capturePayment(paymentId: string, amount: number, currency: string): Promise<GatewayPayment> {
    return toPayment(
      await this.#call<Record<string, unknown>>('POST', `/v1/payments/${paymentId}/capture`, {
        amount,
        currency,
      }),
    );
  }

  async refundPayment(
    paymentId: string,
    amount?: number,
    notes?: Record<string, string>,
    idempotencyKey?: string,
  ): Promise<GatewayRefund> {
    const headers: Record<string, string> = {};
    const key = refundKeyOf(idempotencyKey, notes);
    if (key) headers['x-refund-idempotency'] = refundKeyHeader(key);
    const r = await this.#call<Record<string, unknown>>(
      'POST',
      `/v1/payments/${paymentId}/refund`,
      { ...(amount === undefined ? {} : { amount }), ...(notes ? { notes } : {}) },
      headers,
    );
    return {
      id: String(r.id),
      paymentId: String(r.payment_id),
      amount: Number(r.amount),
      status: String(r.status) as GatewayRefund['status'],
    };
  }

  async fetchOrderPayments(orderId: string): Promise<GatewayPayment[]> {
    if (!/^order_[A-Za-z0-9]{1,40}$/.test(orderId)) return [];
    try {
      const list = await this.#call<{ items?: unknown }>('GET', `/v1/orders/${orderId}/payments`);
      return Array.isArray(list.items) ? list.items.map((e) => toPayment(e as Record<string, unknown>)) : [];
    } catch (err) {
      if (RazorpayGateway.#isUnknownId(err)) return [];
      throw err;
    }
  }

  async findOrderByReceipt(receipt: string): Promise<GatewayOrder | null> {
    // GET /v1/orders filters by receipt (Razorpay's orders API); receipts are ours and unique.
    const list = await this.#call<{ items?: unknown }>(
      'GET',
      `/v1/orders?receipt=${encodeURIComponent(receipt.slice(0, 40))}`,
    );
    const items = Array.isArray(list.items) ? (list.items as Record<string, unknown>[]) : [];
    const o = items.find((i) => i.receipt === receipt.slice(0, 40));
    if (!o) return null;
    return {
      id: String(o.id),
      amount: Number(o.amount),
      currency: String(o.currency),
      receipt: typeof o.receipt === 'string' ? o.receipt : null,
      status: String(o.status) as GatewayOrder['status'],
      notes: notesOf(o.notes),
    };
  }

  async createPlan(input: {
    period: PlanPeriod;
    amount: number;
    currency: string;
    name: string;
    description?: string | undefined;
    notes?: Record<string, string>;
  }): Promise<{ id: string }> {
    const { period, interval } = gatewayPeriod(input.period);
    const p = await this.#call<Record<string, unknown>>('POST', '/v1/plans', {
      period,
      interval,
      item: {
        name: input.name,
        amount: input.amount,
        currency: input.currency,
        ...(input.description ? { description: input.description } : {}),
      },
      notes: input.notes ?? {},
    });
    return { id: String(p.id) };
  }

  async createSubscription(input: {
    planId: string;
    totalCount: number;
    notes?: Record<string, string>;
  }): Promise<GatewaySubscription> {
    const s = await this.#call<Record<string, unknown>>('POST', '/v1/subscriptions', {
      plan_id: input.planId,
      total_count: input.totalCount,
      customer_notify: true,
      notes: input.notes ?? {},
    });
    return {
      id: String(s.id),
      status: String(s.status),
      authorisationUrl: typeof s.short_url === 'string' ? s.short_url : null,
    };
  }

  async cancelSubscription(subscriptionId: string, atCycleEnd: boolean): Promise<void> {
    // Sent as an explicit JSON boolean: the SDK's truthy-argument form schedules a
    // cycle-end cancel even when asked for an immediate one.
    await this.#call('POST', `/v1/subscriptions/${subscriptionId}/cancel`, {
      cancel_at_cycle_end: atCycleEnd,
    });
  }
}
