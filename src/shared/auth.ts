// Who may call a route is declared once, in the route's `config.auth`; the single
// onRequest hook below identifies the caller, counts the request against the rate
// limit, sets CORS for a pinned checkout key, and refuses what the rule does not allow.
// Object-level checks (account and mode) go through `assertOwned`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyClass, Mode } from '../db/database.js';
import type { Clock } from './clock.js';
import { appError, forbidden, notFound, unauthorized } from './errors.js';
import type { RateLimiter } from './rate-limit.js';

export type AuthRule =
  /** No credentials; rate limited per IP. */
  | { kind: 'public'; rateLimit?: boolean }
  /** An `x-api-key`. `classes` lists the key classes allowed; `modes` narrows to test or live. */
  | { kind: 'key'; classes: readonly KeyClass[]; modes?: readonly Mode[] }
  /** A dashboard session token (`Authorization: Bearer`). */
  | { kind: 'session' }
  /** A session token of a platform staff member. */
  | { kind: 'staff' }
  /** A dashboard page: the session cookie (`staff` narrows to platform staff). The dashboard checks CSRF. */
  | { kind: 'cookie'; staff?: boolean };

export const FULL_ONLY: AuthRule = { kind: 'key', classes: ['full'] };
export const ANY_KEY: AuthRule = { kind: 'key', classes: ['full', 'checkout'] };

export interface KeyPrincipal {
  kind: 'key';
  userId: string;
  keyId: string;
  mode: Mode;
  keyClass: KeyClass;
}

export interface SessionPrincipal {
  kind: 'session';
  userId: string;
  email: string;
  isStaff: boolean;
  /** Whether the account has proved its email address (the verification mail's link). */
  emailVerified: boolean;
  /** Dashboard pages only: the cookie session, which forms are bound to and sign-out ends. */
  sessionId?: string;
}

export type Principal = KeyPrincipal | SessionPrincipal;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRule;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
  }
}

export interface AuthDeps {
  clock: Clock;
  rateLimiter: RateLimiter;
  findKey(presented: string): Promise<
    | { id: string; user_id: string; mode: Mode; class: KeyClass; allowed_origin: string | null; revoked_at: Date | null }
    | undefined
  >;
  verifySession(token: string): Promise<{ userId: string }>;
  findCookieSession(cookieHeader: string | undefined): Promise<{ userId: string; sessionId: string } | undefined>;
  findUser(userId: string): Promise<{ id: string; email: string; email_verified_at: Date | null } | undefined>;
  isStaffEmail(email: string): boolean;
  isPinnedOrigin(origin: string): Promise<boolean>;
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

export function assertOwned(p: KeyPrincipal, obj: { accountId: string; mode: Mode } | undefined, what: keyof typeof NOT_FOUND = 'event'): void {
  if (!obj || obj.mode !== p.mode) throw notFound(`no such ${what}`, NOT_FOUND[what]);
  if (obj.accountId !== p.userId) throw forbidden('not_your_object', `this ${what} belongs to another account`);
}

const CORS_ALLOWED_HEADERS = 'content-type, x-api-key, x-request-id';
const CORS_EXPOSED_HEADERS = 'x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset';

function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

// `Origin: null` (sandboxed frame, file: page) is a browser's opaque origin: it is
// an origin no key is pinned to, not the absence of one.
function requestOrigin(req: FastifyRequest): string | undefined {
  const o = req.headers.origin;
  return typeof o === 'string' && o !== '' ? o : undefined;
}

export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('principal', undefined);

  // Preflights carry no key. They are allowed for an origin that some live
  // (unrevoked) checkout key is pinned to; the real request is then checked
  // against its own key. Full keys never get CORS.
  app.options('/api/v1/*', { config: { auth: { kind: 'public' } }, schema: { hide: true } }, async (req, reply) => {
    const origin = requestOrigin(req);
    if (origin === undefined || !(await deps.isPinnedOrigin(origin))) {
      throw forbidden('origin_not_allowed', 'no checkout key is pinned to this origin');
    }
    reply
      .header('access-control-allow-origin', origin)
      .header('vary', 'Origin')
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
      .header('access-control-max-age', '600')
      .code(204)
      .send();
  });

  app.addHook('onRequest', async (req, reply) => {
    const rule: AuthRule | undefined = req.routeOptions.config.auth;
    if (rule === undefined) {
      // Unknown routes still count against the caller's IP.
      await limit(reply, `ip:${req.ip}`);
      return;
    }
    if (rule.kind === 'public') {
      if (rule.rateLimit !== false) await limit(reply, `ip:${req.ip}`);
      return;
    }
    if (rule.kind === 'key') return authenticateKey(req, reply, rule);
    if (rule.kind === 'cookie') return authenticateCookie(req, reply, rule.staff === true);
    return authenticateSession(req, reply, rule.kind === 'staff');
  });

  async function limit(reply: FastifyReply, bucket: string): Promise<void> {
    const r = await deps.rateLimiter.hit(bucket, deps.clock.now());
    reply
      .header('ratelimit-limit', String(r.limit))
      .header('ratelimit-remaining', String(Math.max(0, r.limit - r.count)))
      .header('ratelimit-reset', String(r.resetSeconds));
    if (r.count > r.limit) {
      throw appError('rate_limited', `rate limit of ${r.limit} requests per minute reached; retry after ${r.resetSeconds} s`, {}, {
        'retry-after': String(r.resetSeconds),
      });
    }
  }

  async function authenticateKey(req: FastifyRequest, reply: FastifyReply, rule: Extract<AuthRule, { kind: 'key' }>) {
    const presented = req.headers['x-api-key'];
    if (typeof presented !== 'string' || presented === '') {
      await limit(reply, `ip:${req.ip}`);
      throw unauthorized('missing_api_key', 'Missing x-api-key header');
    }
    const key = await deps.findKey(presented);
    if (!key) {
      await limit(reply, `ip:${req.ip}`);
      throw unauthorized('invalid_api_key', 'API key not recognised');
    }
    const origin = requestOrigin(req);
    // CORS headers first, so a browser can read even a refusal meant for it.
    if (key.class === 'checkout' && key.allowed_origin !== null && origin === key.allowed_origin) {
      reply
        .header('access-control-allow-origin', origin)
        .header('vary', 'Origin')
        .header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    }
    await limit(reply, `key:${key.id}`);
    if (key.revoked_at !== null) throw forbidden('api_key_revoked', 'this API key has been revoked');
    // A request without Origin comes from a server, not a browser, and is allowed:
    // the pin protects the key where it is exposed, in web pages.
    if (key.allowed_origin !== null && origin !== undefined && origin !== key.allowed_origin) {
      throw forbidden('origin_not_allowed', `this key is pinned to ${key.allowed_origin}`);
    }
    if (!rule.classes.includes(key.class)) {
      throw forbidden('checkout_key_not_allowed', 'a checkout key cannot call this endpoint; use a full key on your server');
    }
    if (rule.modes && !rule.modes.includes(key.mode)) {
      throw forbidden(rule.modes[0] === 'test' ? 'test_mode_only' : 'live_mode_only', `this endpoint is for ${rule.modes.join(' or ')} keys only`);
    }
    req.principal = { kind: 'key', userId: key.user_id, keyId: key.id, mode: key.mode, keyClass: key.class };
  }

  async function authenticateSession(req: FastifyRequest, reply: FastifyReply, staffOnly: boolean) {
    const token = bearerToken(req);
    if (token === undefined) {
      await limit(reply, `ip:${req.ip}`);
      throw unauthorized('missing_session', 'Missing Authorization Bearer token');
    }
    let userId: string;
    try {
      ({ userId } = await deps.verifySession(token));
    } catch (err) {
      await limit(reply, `ip:${req.ip}`);
      throw err;
    }
    await sessionFor(req, reply, userId, staffOnly);
  }

  async function authenticateCookie(req: FastifyRequest, reply: FastifyReply, staffOnly: boolean) {
    const session = await deps.findCookieSession(req.headers.cookie);
    if (session === undefined) {
      await limit(reply, `ip:${req.ip}`);
      throw unauthorized('missing_session', 'sign in to the dashboard first');
    }
    await sessionFor(req, reply, session.userId, staffOnly, session.sessionId);
  }

  async function sessionFor(req: FastifyRequest, reply: FastifyReply, userId: string, staffOnly: boolean, sessionId?: string) {
    await limit(reply, `user:${userId}`);
    const user = await deps.findUser(userId);
    if (!user) throw unauthorized('invalid_session', 'the account of this session no longer exists');
    // STAFF_EMAILS names addresses; an address nobody has proved grants nothing.
    const emailVerified = user.email_verified_at !== null;
    const isStaff = emailVerified && deps.isStaffEmail(user.email);
    if (staffOnly && !isStaff) {
      // Said to every unverified account alike, so it tells nobody whether STAFF_EMAILS names their address.
      throw forbidden('staff_only', emailVerified ? 'only platform staff may do this' : 'only platform staff may do this, and staff rights need a verified email address: open the link in the verification mail first');
    }
    req.principal = { kind: 'session', userId: user.id, email: user.email, isStaff, emailVerified, ...(sessionId === undefined ? {} : { sessionId }) };
  }
}
