// The hosted checkout: who may open an event's page, and the
// three things the page does: register, confirm a payment from the gateway's checkout
// handler (signature first, then the same verification as step 2), and, in test mode,
// play the gateway's checkout. Every booking goes through the registration service.
import { createHmac } from 'node:crypto';
import type { Deps } from '../../deps.js';

/** What the hosted checkout uses of the service. */
export type CheckoutDeps = Pick<Deps, 'clock' | 'config' | 'db' | 'eventDeps' | 'ids' | 'keyCache' | 'registerDeps'>;
import type { KeyPrincipal } from '../../shared/auth.js';
import { forbidden, notFound, unavailable } from '../../shared/errors.js';
import { paymentNotVerified } from '../payments/payments.service.js';
import { presentEvent } from '../events/events.present.js';
import * as events from '../events/events.service.js';
import type { EventRow } from '../events/events.service.js';
import * as keys from '../keys/keys.service.js';
import { SandboxGateway } from '../sandbox/sandbox-gateway.js';
import { confirmStep2, register, type RegisterInput } from '../registrations/register.service.js';
import * as registrations from '../registrations/registrations.service.js';
import { checkoutSignature, verifyCheckoutSignature } from './signature.js';

export interface PageAccess {
  event: EventRow;
  /** Who the registration service sees: the event's own account, in its mode, as a checkout key. */
  principal: KeyPrincipal;
  /** The embedding page's origin, where the page posts its messages; null when opened on its own. */
  origin: string | null;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,79}$/;
const notShown = () => notFound('no such event', 'event_not_found');

/**
 * Live events: published ones only, no key. Test events: only with a test checkout key
 * of the event's account (`data-svc-key`), whose pinned origin must be the embedding
 * origin; without a key a test event is not shown (404).
 */
export async function openPage(deps: CheckoutDeps, slug: string, key: string | undefined, origin: string | undefined): Promise<PageAccess> {
  if (!SLUG.test(slug)) throw notShown();
  const event = await events.findEventBySlug(deps.db, slug);
  if (!event) throw notShown();
  const embedOrigin = origin === undefined || origin === '' ? null : keys.normaliseOrigin(origin);
  if (event.mode === 'live') {
    if (event.status !== 'published') throw notShown();
    return { event, origin: embedOrigin, principal: { kind: 'key', userId: event.account_id, keyId: 'hosted_page', mode: 'live', keyClass: 'checkout' } };
  }
  if (key === undefined || key === '') throw notShown();
  const row = await keys.findKey(deps.db, deps.keyCache, key, deps.clock.now().getTime());
  // Another account's key, or a live key, does not reveal that the test event exists.
  if (!row || row.user_id !== event.account_id || row.mode !== 'test') throw notShown();
  if (row.revoked_at !== null) throw forbidden('api_key_revoked', 'this API key has been revoked');
  if (row.class !== 'checkout') throw forbidden('checkout_key_required', 'a web page may only carry a checkout key (pk_test_…); full keys stay on a server');
  if (row.allowed_origin !== null && embedOrigin !== row.allowed_origin) {
    throw forbidden('origin_not_allowed', `this key is pinned to ${row.allowed_origin}`);
  }
  return { event, origin: embedOrigin, principal: { kind: 'key', userId: event.account_id, keyId: row.id, mode: 'test', keyClass: 'checkout' } };
}

export type PageRegistration =
  | { status: 'confirmed' | 'pending' }
  | { status: 'payment_required'; orderId: string; amount: number; currency: string; key: string };

export async function registerFromPage(deps: CheckoutDeps, access: PageAccess, input: RegisterInput): Promise<PageRegistration> {
  const r = await register(deps.registerDeps, access.principal, access.event.id, input);
  if (r.kind === 'free') return { status: r.status };
  return { status: 'payment_required', orderId: r.orderId, amount: r.amount, currency: r.currency, key: r.key };
}

/** The secret the handler's signature is made with: Razorpay's key secret, or the sandbox's own. */
function signingSecret(deps: CheckoutDeps, mode: 'test' | 'live'): string {
  if (mode === 'test') return sandboxSigningSecret(deps);
  const secret = deps.config.razorpay.keySecret;
  if (!secret) throw unavailable('payments_not_configured', 'live payments are not configured on this service (RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET)');
  return secret;
}

function sandboxSigningSecret(deps: CheckoutDeps): string {
  return createHmac('sha256', deps.config.secretsKey).update('sandbox checkout signature').digest('hex');
}

async function pendingOrder(deps: CheckoutDeps, access: PageAccess, orderId: string) {
  const reg = await registrations.findByOrder(deps.db, access.event.id, orderId);
  if (!reg || reg.order_id === null) throw notFound('no booking on this event holds this order', 'order_not_found');
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
  if (!verifyCheckoutSignature(reg.order_id, handler.razorpay_payment_id, handler.razorpay_signature, signingSecret(deps, access.event.mode))) {
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
  return { orderId: reg.order_id, amount: Number(reg.amount_paise), currency: reg.currency, key: gateway.keyId };
}

/** Where a booking stands, by its order: the page asks while the buyer pays elsewhere. */
export async function orderStatus(deps: CheckoutDeps, access: PageAccess, orderId: string): Promise<{ status: 'pending' | 'confirmed' | 'cancelled' | 'refunded' }> {
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
): Promise<{ razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string } | { failed: true }> {
  if (access.event.mode !== 'test') throw notFound('the sandbox checkout is for test events only', 'not_found');
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

/** What the page shows about the event: seats by tier and by track, as enforced. */
export async function pageFacts(deps: CheckoutDeps, event: EventRow) {
  const usage = await events.usageFor(deps.db, event.id);
  const shown = presentEvent(event, usage);
  const availability = await events.availability(deps.eventDeps, event);
  return { shown, availability };
}
