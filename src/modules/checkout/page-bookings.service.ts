// The hosted page's bookings: register, confirm a payment from the gateway's checkout handler
// (signature first, then the same verification as step 2), the live payment page's order and
// the order's status, and, in test mode, the gateway's checkout played. Every booking goes
// through the registration service.
import { createHmac } from 'node:crypto';
import type { RegistrationStatus } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { attendeeToken } from '../../lib/attendee-token.js';
import { paymentNotVerified } from '../payments/payments.service.js';
import type { RegisterInput } from '../registrations/register-input.js';
import { confirmStep2, register, type RequestContext } from '../registrations/register.service.js';
import * as registrations from '../registrations/registrations.service.js';
import { SandboxGateway } from '../sandbox/sandbox-gateway.js';
import type { CheckoutDeps, PageAccess } from './checkout.service.js';
import { checkoutSignature, verifyCheckoutSignature } from './signature.js';
import { awaitingPaymentView, type AwaitingPaymentView } from './awaiting-payment.js';

export type PageRegistration =
  | { status: 'pending' }
  | AwaitingPaymentView
  | { status: 'confirmed'; ticket: string }
  | {
      status: 'payment_required';
      orderId: string;
      amount: number;
      currency: string;
      key: string;
      ticket: string;
    };

/** Registers; a confirmed or payable booking also answers the buyer's ticket token, for the confirmation screen. */
export async function registerFromPage(
  deps: CheckoutDeps,
  access: PageAccess,
  input: RegisterInput,
  context: RequestContext,
): Promise<PageRegistration> {
  const r = await register(deps.registerDeps, access.principal, access.event.id, input, context);
  if (r.kind === 'free')
    return r.status === 'pending'
      ? { status: 'pending' }
      : {
          status: 'confirmed',
          ticket: attendeeToken(deps.config.secretsKey, r.registrationId, r.registrationId),
        };
  // Payment outside the gateway: pending until the organiser marks it paid; the page says how to pay.
  if (r.kind === 'offline') return awaitingPaymentView(r, access.event, deps.config.eventTimeZone);
  return {
    status: 'payment_required',
    orderId: r.orderId,
    amount: r.amount,
    currency: r.currency,
    key: r.key,
    ticket: attendeeToken(deps.config.secretsKey, r.registrationId, r.registrationId),
  };
}

/** The secret the handler's signature is made with: Razorpay's key secret, or the sandbox's own. */
function signingSecret(deps: CheckoutDeps, mode: 'test' | 'live'): string {
  if (mode === 'test') return sandboxSigningSecret(deps);
  const secret = deps.config.razorpay.keySecret;
  if (!secret) throw conflict('payments_not_configured');
  return secret;
}

function sandboxSigningSecret(deps: CheckoutDeps): string {
  return createHmac('sha256', deps.config.secretsKey).update('sandbox checkout signature').digest('hex');
}

async function pendingOrder(deps: CheckoutDeps, access: PageAccess, orderId: string) {
  const reg = await registrations.findByOrder(deps.db, access.event.id, orderId);
  if (!reg || reg.order_id === null)
    throw notFound('no booking on this event holds this order', 'order_not_found');
  return { ...reg, order_id: reg.order_id };
}

/**
 * The checkout handler's three fields. The signature is checked against the order id
 * we stored for the booking, then the payment is verified at the gateway and bound
 * exactly as register step 2 does; a forged signature changes nothing (402).
 */
export async function confirmFromPage(
  deps: CheckoutDeps,
  access: PageAccess,
  handler: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
): Promise<{ status: 'confirmed' }> {
  const reg = await pendingOrder(deps, access, handler.razorpay_order_id);
  if (
    !verifyCheckoutSignature(
      reg.order_id,
      handler.razorpay_payment_id,
      handler.razorpay_signature,
      signingSecret(deps, access.event.mode),
    )
  ) {
    throw paymentNotVerified('the payment signature does not match this order');
  }
  await confirmStep2(deps.registerDeps, access.principal, access.event.id, {
    registrationId: reg.id,
    orderId: reg.order_id,
    paymentId: handler.razorpay_payment_id,
  });
  return { status: 'confirmed' };
}

/** A live booking still waiting for its payment: what the top-level payment page opens the checkout with. */
export async function pendingPayment(deps: CheckoutDeps, access: PageAccess, orderId: string) {
  const reg = await registrations.findByOrder(deps.db, access.event.id, orderId);
  if (access.event.mode !== 'live' || !reg || reg.order_id === null || reg.status !== 'pending') {
    throw notFound('no booking on this event waits for this payment', 'order_not_found');
  }
  const gateway = deps.registerDeps.gatewayFor('live', access.event.account_id);
  return {
    orderId: reg.order_id,
    amount: Number(reg.amount_paise),
    currency: reg.currency,
    key: gateway.keyId,
  };
}

/** Where a booking stands, by its order: the page asks while the buyer pays elsewhere. */
export async function orderStatus(
  deps: CheckoutDeps,
  access: PageAccess,
  orderId: string,
): Promise<{ status: RegistrationStatus }> {
  const reg = await pendingOrder(deps, access, orderId);
  return { status: reg.status };
}

/**
 * Test mode's stand-in for the gateway's checkout: pays (or fails) the sandbox order and
 * answers what checkout.js hands its handler, signed with the sandbox's secret.
 */
export async function sandboxCheckout(
  deps: CheckoutDeps,
  access: PageAccess,
  orderId: string,
  outcome: 'success' | 'failure',
): Promise<
  { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string } | { failed: true }
> {
  if (access.event.mode !== 'test')
    throw notFound('the sandbox checkout is for test events only', 'not_found');
  const reg = await pendingOrder(deps, access, orderId);
  const payment = await new SandboxGateway(deps, access.event.account_id).pay(reg.order_id, outcome);
  if (!payment) throw notFound('no such sandbox order', 'order_not_found');
  if (outcome === 'failure') return { failed: true };
  return {
    razorpay_order_id: reg.order_id,
    razorpay_payment_id: payment.id,
    razorpay_signature: checkoutSignature(reg.order_id, payment.id, sandboxSigningSecret(deps)),
  };
}
