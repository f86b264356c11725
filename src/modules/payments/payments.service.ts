// What every paying module says about a payment: how a gateway failure answers, how a
// payment that cannot be verified answers, and the one check a payment must pass before
// anything is bound to it.
import { AppError, appError, badGateway } from '../../lib/errors.js';
import { GatewayError, type GatewayPayment, type GatewayRefund, type PaymentGateway } from './gateway.js';

/**
 * A gateway call that failed, as the API answers it (502, nothing changed locally):
 * `gateway_refused` with the gateway's reason when it refused the call (4xx),
 * `gateway_error` when it timed out, was unreachable or failed (5xx).
 * `what` completes "the payment gateway failed to …". Anything else is rethrown.
 */
export function gatewayFailure(err: unknown, what: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof GatewayError) {
    if (err.kind === 'rejected')
      return appError(
        'gateway_refused',
        `the payment gateway refused to ${what}: ${err.message}; nothing changed`,
      );
    if (err.kind === 'timeout')
      return badGateway(`the payment gateway did not answer in time when asked to ${what}; nothing changed`);
    return badGateway(`the payment gateway failed to ${what}; nothing changed`);
  }
  throw err;
}

/**
 * The one call that gives captured money back at the gateway; every refund comes here:
 * the organiser's cancel or refund (answer awaited, 502 on failure), the durable refund
 * jobs (a booking's payment it cannot keep, a stray payment) and the inline refunds of an
 * event's deletion and of the sweep, which use the jobs' own functions. `idempotencyKey`
 * makes a repeated refund the same refund at the gateway.
 */
export function refundAtGateway(
  gateway: PaymentGateway,
  refund: { paymentId: string; amountPaise: number; notes: Record<string, string>; idempotencyKey?: string },
): Promise<GatewayRefund> {
  return refund.idempotencyKey === undefined
    ? gateway.refundPayment(refund.paymentId, refund.amountPaise, refund.notes)
    : gateway.refundPayment(refund.paymentId, refund.amountPaise, refund.notes, refund.idempotencyKey);
}

function checkAgainst(expected: ExpectedPayment, payment: GatewayPayment): void {
  if (payment.orderId !== expected.orderId) throw paymentNotVerified('this payment belongs to another order');
  if (payment.amount !== expected.amountPaise || payment.currency !== expected.currency) {
    throw paymentNotVerified(
      `the payment amount does not match${expected.paidFor ? ` the ${expected.paidFor}` : ''}`,
    );
  }
}

/** 402: the payment cannot be bound to what the caller wants to pay for. */
export function paymentNotVerified(message: string): AppError {
  return appError('payment_not_verified', message);
}

export interface ExpectedPayment {
  /** The gateway order the payment must belong to. */
  orderId: string | null;
  amountPaise: number;
  currency: string;
  /** Names the thing paid for in the amount refusal ("… does not match the registration"). */
  paidFor?: string | undefined;
}

/**
 * Fetches a payment at the gateway and checks it against what was ordered; captures an
 * authorised one. Refuses with 402 `payment_not_verified` an unknown payment, one for
 * another order, amount or currency, and one that ends up not captured.
 */
export async function verifyPayment(
  gateway: PaymentGateway,
  expected: ExpectedPayment,
  paymentId: string,
): Promise<GatewayPayment> {
  let payment: GatewayPayment | null;
  try {
    payment = await gateway.fetchPayment(paymentId);
  } catch (err) {
    throw gatewayFailure(err, 'verify the payment');
  }
  if (!payment) throw paymentNotVerified('the gateway does not know this payment id');
  checkAgainst(expected, payment);
  if (payment.status === 'authorized') {
    try {
      payment = await gateway.capturePayment(payment.id, payment.amount, payment.currency);
    } catch (err) {
      throw gatewayFailure(err, 'capture the payment');
    }
    // The capture's own answer is checked too: a gateway that captures and reports another
    // amount must not confirm anything (the sweep refunds what it captured).
    checkAgainst(expected, payment);
  }
  if (payment.status !== 'captured' || !payment.captured)
    throw paymentNotVerified(`the payment is ${payment.status}, not captured`);
  return payment;
}
