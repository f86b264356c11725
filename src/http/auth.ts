// Who may call a route is declared once, in the route's `config.auth`; the single
// onRequest hook (auth-hook.ts) identifies the caller, counts the request against the rate
// limit, sets CORS for a pinned checkout key, and refuses what the rule does not allow.
// Object-level checks (account and mode) go through `assertOwned`.
import type { FastifyRequest } from 'fastify';
import type { KeyClass, Mode, Role } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { forbidden, notFound } from '../lib/errors.js';
import type { RateLimiter } from './rate-limit.js';

export type AuthRule =
  /** No credentials; rate limited per IP. */
  | { kind: 'public'; rateLimit?: boolean }
  /** An `x-api-key`. `classes` lists the key classes allowed; `modes` narrows to test or live. */
  | { kind: 'key'; classes: readonly KeyClass[]; modes?: readonly Mode[] }
  /**
   * A dashboard session token (`Authorization: Bearer`). `refusal` names the 401 code
   * said when there is none (default `missing_session`).
   */
  | { kind: 'session'; refusal?: 'session_required' }
  /** A session token of a platform staff member. */
  | { kind: 'staff' }
  /** A dashboard page: the session cookie (`staff` narrows to platform staff). The dashboard checks CSRF. */
  | { kind: 'cookie'; staff?: boolean }
  /**
   * One event's door: a door pass (`Authorization: DoorPass <token>`, or the `token` path
   * parameter of the door screen's own routes); `keys: true` also takes a full `x-api-key`.
   */
  | { kind: 'door'; keys?: boolean };

export const FULL_ONLY: AuthRule = { kind: 'key', classes: ['full'] };
export const ANY_KEY: AuthRule = { kind: 'key', classes: ['full', 'checkout'] };

export interface KeyPrincipal {
  kind: 'key';
  userId: string;
  keyId: string;
  mode: Mode;
  keyClass: KeyClass;
  /** The dashboard (`keyId: 'dashboard'`) acts for a person: who, for the audit log. */
  personId?: string;
}

export interface SessionPrincipal {
  kind: 'session';
  /**
   * The account the session works in: the organisation chosen (§25), whose id every event, key
   * and ledger entry names. Without a membership (a `self` route), the person's own id.
   */
  userId: string;
  /** The person signed in; their email, staff rights and verification are below. */
  personId: string;
  /** Their role in that organisation; undefined when they are not (or no longer) a member of it. */
  role?: Role;
  /** Null: every event; else the events they are limited to. */
  eventIds?: readonly string[] | null;
  email: string;
  isStaff: boolean;
  /** Whether the account has proved its email address (the verification mail's link). */
  emailVerified: boolean;
  /** Dashboard pages only: the cookie session, which forms are bound to and sign-out ends. */
  sessionId?: string;
}

/** A door pass: opens one event's door (look up, admit, undo), nothing else. */
export interface DoorPrincipal {
  kind: 'door';
  passId: string;
  eventId: string;
  label: string;
  /** The check-in list it admits for: one track, one day, or (both null) the whole event. */
  scopeTrackIndex: number | null;
  scopeDate: string | null;
}

export type Principal = KeyPrincipal | SessionPrincipal;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRule;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
    /** Set instead of `principal` when a door pass opened the route (rule `door`). */
    doorPass: DoorPrincipal | undefined;
  }
  interface FastifyInstance {
    /** Every route registered, with its rule, in registration order (HEAD twins included). */
    routeTable: readonly RouteEntry[];
  }
}

/** The bucket every key of an account counts in (RATE_LIMIT_PER_ACCOUNT_MINUTE), on top of each key's own. */
export const accountBucket = (userId: string) => `account:${userId}`;

export interface AuthDeps {
  clock: Clock;
  rateLimiter: RateLimiter;
  /** RATE_LIMIT_PER_ACCOUNT_MINUTE: requests per minute over all of an account's keys. */
  accountLimitPerMinute: number;
  findKey(presented: string): Promise<
    | {
        id: string;
        user_id: string;
        mode: Mode;
        class: KeyClass;
        allowed_origin: string | null;
        revoked_at: Date | null;
      }
    | undefined
  >;
  verifySession(token: string): Promise<{ userId: string; epoch: number; organisationId: string | null }>;
  findCookieSession(
    cookieHeader: string | undefined,
  ): Promise<{ userId: string; sessionId: string; organisationId: string | null } | undefined>;
  /** The person's membership of the organisation (null: their first one). */
  findMembership(
    userId: string,
    organisationId: string | null,
  ): Promise<
    { organisation_id: string; role: Role; event_ids: string[] | null; two_factor_due?: boolean } | undefined
  >;
  findUser(
    userId: string,
  ): Promise<
    { id: string; email: string; email_verified_at: Date | null; session_epoch: number } | undefined
  >;
  isStaffEmail(email: string): boolean;
  isPinnedOrigin(origin: string): Promise<boolean>;
  findDoorPass(token: string): Promise<
    | {
        id: string;
        event_id: string;
        label: string;
        expires_at: Date | null;
        revoked_at: Date | null;
        scope_track_index: number | null;
        scope_date: string | null;
      }
    | undefined
  >;
}

/** A registered route as buildApp saw it: the matrix tests read this list, not the OpenAPI document. */
export interface RouteEntry {
  method: string;
  /** Fastify's form, `/api/v1/events/:id`. */
  url: string;
  rule: AuthRule;
  /** Hidden from the OpenAPI document (dashboard pages, CORS preflight, assets). */
  hidden: boolean;
}

const RULE_KINDS = new Set(['public', 'key', 'session', 'staff', 'cookie', 'door']);

/**
 * Start-up check of a route's declared rule: a route without one (or with one the
 * hook does not know) is refused when it is registered, so the app never starts with it.
 */
export function assertRouteRule(route: {
  method: string | string[];
  url: string;
  config?: unknown;
}): AuthRule {
  const rule = (route.config as { auth?: AuthRule } | undefined)?.auth;
  const where = `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`;
  if (rule === undefined || rule === null || typeof rule !== 'object' || !RULE_KINDS.has(rule.kind)) {
    throw new Error(
      `route ${where} declares no access rule (config.auth); every route must say who may call it`,
    );
  }
  if (rule.kind === 'key' && (!Array.isArray(rule.classes) || rule.classes.length === 0)) {
    throw new Error(`route ${where}: a key rule must name at least one key class`);
  }
  return rule;
}

export function keyPrincipal(req: FastifyRequest): KeyPrincipal {
  const p = req.principal;
  if (p?.kind !== 'key') throw new Error('route declared no key rule');
  return p;
}

export function sessionPrincipal(req: FastifyRequest): SessionPrincipal {
  const p = req.principal;
  if (p?.kind !== 'session') throw new Error('route declared no session rule');
  return p;
}

/**
 * An object of another mode does not exist for this key (404); one of another
 * account in the same mode exists but is not yours (403).
 */
const NOT_FOUND = { event: 'event_not_found', payout: 'payout_not_found' } as const;

export function assertOwned(
  p: KeyPrincipal,
  obj: { accountId: string; mode: Mode } | undefined,
  what: keyof typeof NOT_FOUND = 'event',
): void {
  if (!obj || obj.mode !== p.mode) throw notFound(`no such ${what}`, NOT_FOUND[what]);
  if (obj.accountId !== p.userId)
    throw forbidden('not_your_object', `this ${what} belongs to another account`);
}
