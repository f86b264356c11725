// The payment gateway behind one small interface. Two implementations: Razorpay
// (razorpay.ts: real HTTP, live keys) and the sandbox (sandbox/sandbox-gateway.ts: test
// keys; nothing leaves the machine).
// Amounts are integer paise everywhere here.
import { createHash } from 'node:crypto';

export interface GatewayOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  notes: Record<string, string>;
}

export type GatewayPaymentStatus = 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';

export interface GatewayPayment {
  id: string;
  orderId: string | null;
  amount: number;
  currency: string;
  status: GatewayPaymentStatus;
  /** Razorpay sometimes sends `captured: "1"`; adapters normalise it to a boolean. */
  captured: boolean;
  amountRefunded: number;
}

export interface GatewayRefund {
  id: string;
  paymentId: string;
  amount: number;
  status: 'pending' | 'processed' | 'failed';
}

/**
 * A gateway failure that is not the caller's fault: timeout, network error, 5xx,
 * or an unexpected 4xx. Callers answer 502 and change nothing locally.
 */
export class GatewayError extends Error {
  readonly kind: 'timeout' | 'network' | 'server' | 'rejected';
  readonly status: number | undefined;
  /** Razorpay's `error.code` / `error.description`, when it sent one. */
  readonly gatewayCode: string | undefined;

  constructor(kind: GatewayError['kind'], message: string, status?: number, gatewayCode?: string) {
    super(message);
    this.name = 'GatewayError';
    this.kind = kind;
    this.status = status;
    this.gatewayCode = gatewayCode;
  }
}

export interface PaymentGateway {
  /** The public key for the gateway's hosted checkout; safe in a browser. */
  readonly keyId: string;
  createOrder(input: {
    amount: number;
    currency: string;
    receipt: string;
    notes?: Record<string, string>;
  }): Promise<GatewayOrder>;
  /** null when the gateway does not know the id (Razorpay answers 400 for unknown ids). */
  fetchPayment(paymentId: string): Promise<GatewayPayment | null>;
  capturePayment(paymentId: string, amount: number, currency: string): Promise<GatewayPayment>;
  /**
   * Full refund (of what is left) when amount is omitted. Refused (GatewayError 'rejected', 400)
   * when it would take the payment's refunds past its capture, or the payment is not captured.
   * `idempotencyKey` (else `refund_<registrationId>` when notes name one, see refundKeyOf): the
   * same key with the same amount and notes answers the same refund and refunds nothing more;
   * the same key with another amount or notes is refused (400 "Different request with the same
   * idempotency key has already been processed."); Razorpay answers a duplicate sent while the
   * first is still in flight 409 (retry it), the sandbox makes it wait and answers the same refund.
   * A refused refund binds no key. Keys are per payment.
   */
  refundPayment(
    paymentId: string,
    amount?: number,
    notes?: Record<string, string>,
    idempotencyKey?: string,
  ): Promise<GatewayRefund>;
  /** Every payment attempt of an order, failed ones included (reconciliation asks this); [] for an unknown order. */
  fetchOrderPayments(orderId: string): Promise<GatewayPayment[]>;
  /** The order created with this receipt, when a create's answer was lost; null when there is none. */
  findOrderByReceipt(receipt: string): Promise<GatewayOrder | null>;
}

/** The key a refund is made under: the caller's, else one from the registration id in its notes (a retried job's refund is the same refund). */
export function refundKeyOf(
  idempotencyKey: string | undefined,
  notes: Record<string, string> | undefined,
): string | undefined {
  return idempotencyKey ?? (notes?.registrationId ? `refund_${notes.registrationId}` : undefined);
}

/**
 * A refund key as Razorpay takes it in X-Refund-Idempotency: at least 10 of [A-Za-z0-9_-]
 * (no maximum is documented; we keep to 40). A key that is one already goes as it is; any
 * other becomes its readable part and a hash of the whole key, so two keys never become one.
 */
export function refundKeyHeader(key: string): string {
  if (/^[A-Za-z0-9_-]{10,40}$/.test(key)) return key;
  return `${key.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 23)}_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

// ------------------------------------------------------------------ subscriptions

export type PlanPeriod = 'weekly' | 'monthly' | 'quarterly' | 'yearly';

export interface GatewaySubscription {
  id: string;
  status: string;
  /** The gateway's page where the member approves the mandate. */
  authorisationUrl: string | null;
}

export interface SubscriptionGateway {
  readonly keyId: string;
  /** Creates the gateway's plan; quarterly becomes monthly × 3 (Razorpay has no quarterly period). */
  createPlan(input: {
    period: PlanPeriod;
    amount: number;
    currency: string;
    name: string;
    description?: string | undefined;
    notes?: Record<string, string>;
  }): Promise<{ id: string }>;
  createSubscription(input: {
    planId: string;
    totalCount: number;
    notes?: Record<string, string>;
  }): Promise<GatewaySubscription>;
  /** Cancels now, or at the end of the paid cycle. */
  cancelSubscription(subscriptionId: string, atCycleEnd: boolean): Promise<void>;
}

/** Billing cycles for "until cancelled": the gateway's ceiling of 100 years. */
export function untilCancelledCount(period: PlanPeriod): number {
  switch (period) {
    case 'weekly':
      return 5200;
    case 'monthly':
      return 1200;
    case 'quarterly':
      return 400;
    case 'yearly':
      return 100;
  }
}

/** Razorpay's period and interval for our period. */
export function gatewayPeriod(period: PlanPeriod): {
  period: 'weekly' | 'monthly' | 'yearly';
  interval: number;
} {
  return period === 'quarterly' ? { period: 'monthly', interval: 3 } : { period, interval: 1 };
}
