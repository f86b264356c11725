// The hosted checkout: who may open an event's page, and the
// three things the page does: register, confirm a payment from the gateway's checkout
// handler (signature first, then the same verification as step 2), and, in test mode,
// play the gateway's checkout. Every booking goes through the registration service.
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, RegistrationStatus } from '../../db/database.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { EventDeps } from '../events/events.deps.js';
import type { KeyCache } from '../keys/keys.service.js';
import type { MembershipDeps } from '../memberships/memberships.service.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { RegisterDeps } from '../registrations/register-deps.js';
import type { WaitlistDeps } from '../waitlist/waitlist.service.js';

/** What the hosted checkout uses of the service. */
export interface CheckoutDeps {
  readonly clock: Clock;
  readonly config: Config;
  readonly db: Kysely<Database>;
  readonly eventDeps: EventDeps;
  readonly ids: Ids;
  readonly keyCache: KeyCache;
  readonly membershipDeps: MembershipDeps;
  readonly rateLimiter: RateLimiter;
  readonly registerDeps: RegisterDeps;
  readonly waitlistDeps: WaitlistDeps;
}
import type { KeyPrincipal } from '../../http/auth.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { paymentNotVerified } from '../payments/payments.service.js';
import { presentEvent } from '../events/events.present.js';
import * as events from '../events/events.service.js';
import type { EventRow } from '../events/events.service.js';
import * as keys from '../keys/keys.service.js';
import { SandboxGateway } from '../sandbox/sandbox-gateway.js';
import type { RegisterInput } from '../registrations/register-input.js';
import { confirmStep2, register, type RequestContext } from '../registrations/register.service.js';
import * as registrations from '../registrations/registrations.service.js';
import { checkoutSignature, verifyCheckoutSignature } from './signature.js';
import { attendeeToken } from '../../lib/attendee-token.js';
import { previewTokenEvent, previewTokenVerdict } from '../../lib/preview-token.js';
import * as waitlist from '../waitlist/waitlist.service.js';
import { plansOf } from '../memberships/plans.service.js';
import { offerUntil } from '../waitlist/waitlist.jobs.js';

export interface PageAccess {
  event: EventRow;
  /** Who the registration service sees: the event's own account, in its mode, as a checkout key. */
  principal: KeyPrincipal;
  /**
   * Where the page posts its messages: the key's pinned origin; for a key without a pin (or
   * a live page without a key) the embedding origin embed.js named, which grants nothing.
   * null when opened on its own.
   */
  origin: string | null;
  /**
   * The origin the page's key is pinned to: the only site that may frame the page or call it.
   * `'self'` for a preview: only the service's own pages (the dashboard) may frame or call it.
   */
  pinnedOrigin: string | null;
  /** Opened by the organiser's preview link (`preview`): bookable only where test bookings are possible. */
  preview?: { bookable: boolean };
}

/** Who made a page call, as the browser told it. */
export interface CallSource {
  /** The `Origin` header, if any. */
  origin: string | undefined;
  /** The `Sec-Fetch-Site` header, if any. */
  fetchSite: string | undefined;
  /** The origin this request was addressed to (scheme and host as the service sees them). */
  ownOrigin: string;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,79}$/;
const notShown = () => notFound('no such event', 'event_not_found');

/** The embedding origin embed.js declared: only ever a target for messages. A malformed one is ignored. */
export function declaredOrigin(origin: string | undefined): string | null {
  if (origin === undefined || origin === '') return null;
  try {
    return keys.normaliseOrigin(origin);
  } catch {
    return null;
  }
}

/**
 * Live events: published ones only, no key needed. Test events: only with a test checkout
 * key of the event's account (`data-svc-key`); without one a test event is not shown (404).
 * A checkout key of the event's account pinned to an origin (on a test or a live page)
 * makes that origin the only one that may frame the page (`frame-ancestors`) and call it
 * (`assertCallFits`), and the only one the page posts to. The `origin` embed.js declares is
 * never checked against the pin: anyone can write it, so it grants nothing.
 */
export async function openPage(
  deps: CheckoutDeps,
  slug: string,
  key: string | undefined,
  origin: string | undefined,
  offer?: string,
  preview?: string,
): Promise<PageAccess> {
  if (preview !== undefined && preview !== '') return openPreview(deps, slug, preview);
  if (!SLUG.test(slug)) throw notShown();
  const event = await events.findEventBySlug(deps.db, slug);
  if (!event) throw notShown();
  const declared = declaredOrigin(origin);
  if (event.mode === 'live') {
    if (event.status !== 'published') throw notShown();
    const principal: KeyPrincipal = {
      kind: 'key',
      userId: event.account_id,
      keyId: 'hosted_page',
      mode: 'live',
      keyClass: 'checkout',
    };
    // A live page is public; a pinned live checkout key of the account still pins its framing.
    const row =
      key === undefined || key === ''
        ? undefined
        : await keys.findKey(deps.db, deps.keyCache, key, deps.clock.now().getTime());
    const pinned =
      row &&
      row.user_id === event.account_id &&
      row.mode === 'live' &&
      row.class === 'checkout' &&
      row.revoked_at === null
        ? row.allowed_origin
        : null;
    return { event, origin: pinned ?? declared, pinnedOrigin: pinned, principal };
  }
  if (
    (key === undefined || key === '') &&
    offer !== undefined &&
    (await waitlist.offerEntry({ db: deps.db, secretsKey: deps.config.secretsKey }, event.id, offer))
  ) {
    // A waitlist offer's link opens its test event's page as the account's checkout would.
    return {
      event,
      origin: declared,
      pinnedOrigin: null,
      principal: {
        kind: 'key',
        userId: event.account_id,
        keyId: 'waitlist_offer',
        mode: 'test',
        keyClass: 'checkout',
      },
    };
  }
  if (key === undefined || key === '') throw notShown();
  const row = await keys.findKey(deps.db, deps.keyCache, key, deps.clock.now().getTime());
  // Another account's key, or a live key, does not reveal that the test event exists.
  if (!row || row.user_id !== event.account_id || row.mode !== 'test') throw notShown();
  if (row.revoked_at !== null) throw forbidden('api_key_revoked', 'this API key has been revoked');
  if (row.class !== 'checkout')
    throw forbidden(
      'checkout_key_required',
      'a web page may only carry a checkout key (pk_test_…); full keys stay on a server',
    );
  return {
    event,
    origin: row.allowed_origin ?? declared,
    pinnedOrigin: row.allowed_origin,
    principal: { kind: 'key', userId: event.account_id, keyId: row.id, mode: 'test', keyClass: 'checkout' },
  };
}

/**
 * The organiser's preview link (docs/decisions/28-a-persons-day.md): a signed token for one event of one
 * account, valid for a day on the injected clock; no key or origin needed. A test event's
 * preview books test bookings, as its account's test checkout key would; a live draft's shows
 * the page without taking bookings (it takes them once published). Only the service's own
 * pages may frame the preview or make its calls. A token that does not verify answers the same
 * 403 whether or not the slug exists, so it reveals no event.
 */
async function openPreview(deps: CheckoutDeps, slug: string, token: string): Promise<PageAccess> {
  const invalid = () => forbidden('preview_invalid');
  const eventId = previewTokenEvent(token);
  const event = eventId === undefined ? undefined : await events.findEvent(deps.db, eventId);
  if (!event || event.slug !== slug) throw invalid();
  const verdict = previewTokenVerdict(
    deps.config.secretsKey,
    token,
    event.id,
    event.account_id,
    deps.clock.now(),
  );
  if (verdict === 'invalid') throw invalid();
  if (verdict === 'expired') throw forbidden('preview_expired');
  const principal: KeyPrincipal = {
    kind: 'key',
    userId: event.account_id,
    keyId: 'preview',
    mode: event.mode,
    keyClass: 'checkout',
  };
  const bookable = event.mode === 'test' || event.status === 'published';
  return { event, origin: null, pinnedOrigin: "'self'", principal, preview: { bookable } };
}

/**
 * A pinned page's calls come from the page itself (which only the pinned origin may frame)
 * or from the pinned origin: `Origin` must be one of them, or, where a browser sends no
 * `Origin` (a same-origin GET) or an opaque one, `Sec-Fetch-Site: same-origin`. A page's
 * plain form (the waitlist's) is a navigation, for which a browser sends `Origin: null`
 * under the page's no-referrer policy; Sec-Fetch-Site, which no page can set, still says
 * the page itself sent it. A call with neither, or from any other site, is refused (403
 * `origin_not_allowed`).
 */
export function assertCallFits(
  deps: CheckoutDeps,
  access: Pick<PageAccess, 'pinnedOrigin'>,
  from: CallSource,
): void {
  const pinned = access.pinnedOrigin;
  if (pinned === null) return;
  const own = [new URL(deps.config.baseUrl).origin, from.ownOrigin];
  const opaque = from.origin === undefined || from.origin === 'null';
  const fits = opaque
    ? from.fetchSite === 'same-origin'
    : from.origin === pinned || own.includes(from.origin!);
  if (!fits) {
    throw forbidden(
      'origin_not_allowed',
      pinned === "'self'"
        ? 'a preview’s calls come only from the preview page itself'
        : `this key is pinned to ${pinned}: its page's calls come only from that page`,
    );
  }
}

/** A page call: the page's access, then the call's source checked against the key's pin. */
export async function openPageCall(
  deps: CheckoutDeps,
  slug: string,
  key: string | undefined,
  origin: string | undefined,
  from: CallSource,
  offer?: string,
  preview?: string,
): Promise<PageAccess> {
  const access = await openPage(deps, slug, key, origin, offer, preview);
  assertCallFits(deps, access, from);
  return access;
}

export type PageRegistration =
  | { status: 'pending' }
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

/** A waitlist offer's link on the page: its seat and until when (409 `offer_not_valid` once lapsed or used). */
export async function offerOnPage(
  deps: CheckoutDeps,
  access: PageAccess,
  token: string,
): Promise<{ token: string; until: string }> {
  const entry = await waitlist.openOffer(
    { db: deps.db, clock: deps.clock, secretsKey: deps.config.secretsKey },
    access.event.id,
    token,
  );
  return { token, until: offerUntil(entry.expires_at!, deps.config.eventTimeZone) };
}

/** Joins the waitlist from the sold-out page (the same rules as the API's, as the page's checkout key). */
export function joinFromPage(deps: CheckoutDeps, access: PageAccess, input: { name: string; email: string }) {
  return waitlist.join(deps.waitlistDeps, access.principal, access.event.id, input);
}

/** What the page shows about the event: seats by tier and by track, as enforced, and when each track's session is. */
export async function pageFacts(deps: CheckoutDeps, event: EventRow) {
  const usage = await events.usageFor(deps.db, event.id);
  const shown = presentEvent(event, usage);
  const availability = await events.availability(deps.eventDeps, event);
  const sessions = event.tracks.map((_, i) => events.sessionOf(event, i, deps.config.eventTimeZone));
  // What each session on sale costs with each ticket type: the buyer's form shows the chosen session's.
  const prices = events.priceTable(event);
  return { shown, availability, sessions, prices };
}

/** The plans a members-only tier's "Not a member? Join" offers: every plan of the event's account and mode (each membership proves any members-only tier). */
export async function joinPlans(
  deps: CheckoutDeps,
  event: EventRow,
): Promise<{ name: string; slug: string }[]> {
  return (await plansOf(deps.db, event.account_id, event.mode)).map((p) => ({ name: p.name, slug: p.slug }));
}
