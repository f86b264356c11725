// The hosted checkout: who may open an event's page, what the page shows, and its waitlist.
// The three things the page does with a booking (register, confirm a payment from the
// gateway's checkout handler, and, in test mode, play the gateway's checkout) are in
// page-bookings.service.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { EventDeps } from '../events/events.deps.js';
import type { KeyCache } from '../keys/keys.service.js';
import type { MembershipDeps } from '../memberships/memberships.service.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { RegisterDeps } from '../registrations/register-deps.js';
import type { WaitlistDeps } from '../waitlist/waitlist.service.js';
import type { SeatStatuses } from '../seat-holds/status-memory.js';

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
  readonly seatStatuses: SeatStatuses;
  readonly waitlistDeps: WaitlistDeps;
}
import type { KeyPrincipal } from '../../http/auth.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { presentEvent } from '../events/events.present.js';
import * as events from '../events/events.service.js';
import type { EventRow } from '../events/events.service.js';
import * as keys from '../keys/keys.service.js';
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
  if (event.mode === 'live') return openLivePage(deps, event, key, declared);
  return openTestPage(deps, event, key, declared, offer);
}

/** A live event's page: published ones only, no key needed. */
async function openLivePage(
  deps: CheckoutDeps,
  event: EventRow,
  key: string | undefined,
  declared: string | null,
): Promise<PageAccess> {
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

/** A test event's page: a waitlist offer's link, or a test checkout key of the event's account. */
async function openTestPage(
  deps: CheckoutDeps,
  event: EventRow,
  key: string | undefined,
  declared: string | null,
  offer: string | undefined,
): Promise<PageAccess> {
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

/** A waitlist offer's link on the page: its seat and until when (409 `offer_not_valid` once lapsed or used). */
export async function offerOnPage(
  deps: CheckoutDeps,
  access: PageAccess,
  token: string,
): Promise<{ token: string; until: string; ticketType: string; track: number | null }> {
  const entry = await waitlist.openOffer(
    { db: deps.db, clock: deps.clock, secretsKey: deps.config.secretsKey },
    access.event.id,
    token,
  );
  return {
    token,
    until: offerUntil(entry.expires_at!, deps.config.eventTimeZone),
    ticketType: entry.ticket_type,
    track: entry.sub_event_id,
  };
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
