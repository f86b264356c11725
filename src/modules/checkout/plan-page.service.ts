// The hosted plan page (/m/{slug}): who may open it, and joining through it. Joining is the
// API's subscribe (subscribe.service.ts) as the plan's account's checkout would call it;
// paying a fixed term and approving a mandate are the gateway's own steps (in test mode,
// the sandbox's stand-ins), confirmed exactly as the API confirms them.
import type { KeyPrincipal } from '../../http/auth.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import * as keys from '../keys/keys.service.js';
import { findByPendingOrder, findBySubscription, type PlanRow } from '../memberships/memberships.service.js';
import { findPlanBySlug } from '../memberships/plans.service.js';
import { confirm, subscribe } from '../memberships/subscribe.service.js';
import { paymentNotVerified } from '../payments/payments.service.js';
import { playSubscriptionEvent } from '../sandbox/checkout.service.js';
import { SandboxGateway } from '../sandbox/sandbox-gateway.js';
import { assertCallFits, declaredOrigin, type CallSource, type CheckoutDeps } from './checkout.service.js';
import { verifyCheckoutSignature } from './signature.js';

export interface PlanAccess {
  plan: PlanRow;
  /** Who subscribe sees: the plan's own account, in its mode, as a checkout key. */
  principal: KeyPrincipal;
  /** Where the page posts its messages: the key's pin, else the origin embed.js declared. */
  origin: string | null;
  /** The origin the page's key is pinned to: the only site that may frame the page or post its forms. */
  pinnedOrigin: string | null;
  /** The key the page was opened with, carried by its forms. */
  key: string | null;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;
const notShown = () => notFound('no such plan', 'plan_not_found');

/**
 * Live plans are public. A test plan needs a test checkout key of its account (404
 * otherwise, as for an unknown slug). A checkout key of the account pinned to an origin
 * makes that origin the only one that may frame the page and post its forms.
 */
export async function openPlanPage(
  deps: CheckoutDeps,
  slug: string,
  key: string | undefined,
  origin: string | undefined,
): Promise<PlanAccess> {
  if (!SLUG.test(slug)) throw notShown();
  const plan = await findPlanBySlug(deps.db, slug);
  if (!plan) throw notShown();
  const declared = declaredOrigin(origin);
  const row =
    key === undefined || key === ''
      ? undefined
      : await keys.findKey(deps.db, deps.keyCache, key, deps.clock.now().getTime());
  const ours = row !== undefined && row.user_id === plan.account_id && row.mode === plan.mode;
  if (plan.mode === 'test') {
    // Another account's key, or a live key, does not reveal that the test plan exists.
    if (!ours) throw notShown();
    if (row.revoked_at !== null) throw forbidden('api_key_revoked', 'this API key has been revoked');
    if (row.class !== 'checkout')
      throw forbidden(
        'checkout_key_required',
        'a web page may only carry a checkout key (pk_test_…); full keys stay on a server',
      );
  }
  const pinned = ours && row.class === 'checkout' && row.revoked_at === null ? row.allowed_origin : null;
  return {
    plan,
    origin: pinned ?? declared,
    pinnedOrigin: pinned,
    key: ours ? key! : null,
    principal: {
      kind: 'key',
      userId: plan.account_id,
      keyId: ours ? row.id : 'hosted_page',
      mode: plan.mode,
      keyClass: 'checkout',
    },
  };
}

/** A form the plan page posts: the page's access, then the post's source checked against the key's pin. */
export async function openPlanPageCall(
  deps: CheckoutDeps,
  slug: string,
  key: string | undefined,
  origin: string | undefined,
  from: CallSource,
): Promise<PlanAccess> {
  const access = await openPlanPage(deps, slug, key, origin);
  assertCallFits(deps, access, from);
  return access;
}

/** What joining asks of the person next. */
export type JoinStep =
  | { step: 'pay'; order: { id: string; amount: number; currency: string }; keyId: string }
  | { step: 'mandate'; subscriptionId: string; authorisationUrl: string | null }
  | { step: 'member' };

/**
 * Subscribes as the API does. A fixed term waiting for its payment answers the order to
 * pay (a repeat answers the same open order); a recurring plan answers the mandate to
 * approve; a membership that needs nothing answers `member`. The membership's id is never
 * part of the answer: it is what the pasted proof of members-only tiers is.
 */
export async function joinFromPlanPage(
  deps: CheckoutDeps,
  access: PlanAccess,
  input: { name: string; email: string; phone?: string | undefined },
): Promise<JoinStep> {
  const r = await subscribe(deps.membershipDeps, access.principal, { planId: access.plan.id, ...input });
  const m = r.membership;
  if (r.kind === 'recurring') {
    return m.status === 'created' && m.subscription_id !== null
      ? { step: 'mandate', subscriptionId: m.subscription_id, authorisationUrl: m.authorisation_url }
      : { step: 'member' };
  }
  return r.order ? { step: 'pay', order: r.order, keyId: r.keyId } : { step: 'member' };
}

/** The membership of this plan waiting for this order; 404 for any other order. */
async function waitingFor(deps: CheckoutDeps, access: PlanAccess, orderId: string) {
  const m = await findByPendingOrder(deps.db, access.plan.mode, orderId);
  if (!m || m.plan_id !== access.plan.id)
    throw notFound('no membership of this plan waits for this order', 'order_not_found');
  return m;
}

/** The open order of this plan's membership, to show its payment again. */
export async function openOrder(deps: CheckoutDeps, access: PlanAccess, orderId: string) {
  const m = await waitingFor(deps, access, orderId);
  return { id: orderId, amount: Number(m.pending_amount_paise), currency: 'INR' };
}

/**
 * Test plans: the sandbox's stand-in for the gateway's checkout pays (or fails) the order,
 * and a payment is confirmed as the API's confirm does. Answers the member's address.
 */
export async function sandboxPayFromPlanPage(
  deps: CheckoutDeps,
  access: PlanAccess,
  orderId: string,
  outcome: 'success' | 'failure',
): Promise<{ paid: true; email: string } | { paid: false }> {
  if (access.plan.mode !== 'test') throw notFound('the sandbox checkout is for test plans only', 'not_found');
  const m = await waitingFor(deps, access, orderId);
  const payment = await new SandboxGateway(deps, access.plan.account_id).pay(orderId, outcome);
  if (!payment) throw notFound('no such sandbox order', 'order_not_found');
  if (outcome === 'failure') return { paid: false };
  const member = await confirm(deps.membershipDeps, access.principal, m.id, {
    orderId,
    paymentId: payment.id,
  });
  return { paid: true, email: member.email };
}

/**
 * Live plans: the gateway's checkout posts back its three fields. The signature is checked
 * against the order a membership of this plan waits for, then the payment is verified and
 * bound as the API's confirm does; a forged signature changes nothing (402).
 */
export async function confirmFromPlanPage(
  deps: CheckoutDeps,
  access: PlanAccess,
  handler: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
): Promise<{ email: string }> {
  const secret = deps.config.razorpay.keySecret;
  if (access.plan.mode !== 'live' || !secret) throw conflict('payments_not_configured');
  const m = await waitingFor(deps, access, handler.razorpay_order_id);
  if (
    !verifyCheckoutSignature(
      handler.razorpay_order_id,
      handler.razorpay_payment_id,
      handler.razorpay_signature,
      secret,
    )
  ) {
    throw paymentNotVerified('the payment signature does not match this order');
  }
  const member = await confirm(deps.membershipDeps, access.principal, m.id, {
    orderId: handler.razorpay_order_id,
    paymentId: handler.razorpay_payment_id,
  });
  return { email: member.email };
}

/**
 * Test plans: the sandbox's stand-in for the gateway's mandate page. Approving plays the
 * gateway's `subscription.authenticated`, as the sandbox's authorisation link does;
 * declining changes nothing.
 */
export async function sandboxMandateFromPlanPage(
  deps: CheckoutDeps,
  access: PlanAccess,
  subscriptionId: string,
  outcome: 'approve' | 'decline',
): Promise<{ approved: boolean; email: string }> {
  if (access.plan.mode !== 'test') throw notFound('the sandbox mandate is for test plans only', 'not_found');
  const m = await findBySubscription(deps.db, 'test', subscriptionId);
  if (!m || m.plan_id !== access.plan.id)
    throw notFound('no membership of this plan has this subscription', 'subscription_not_found');
  if (outcome === 'decline') return { approved: false, email: m.email };
  await playSubscriptionEvent(deps, access.plan.account_id, subscriptionId, 'authenticate');
  return { approved: true, email: m.email };
}
