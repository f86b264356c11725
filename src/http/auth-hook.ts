// The single onRequest hook that enforces the routes' `config.auth` (the rules and principals
// are declared in auth.ts): it identifies the caller (API key, door pass, bearer session or
// dashboard cookie), counts the request against the rate limit, sets CORS for a pinned
// checkout key, and refuses what the rule does not allow; and the CORS preflight.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appError, forbidden, unauthorized } from '../lib/errors.js';
import type { Role } from '../db/columns.js';
import { accountBucket, FULL_ONLY, type AuthDeps, type AuthRule } from './auth.js';
import { allows, routeNeed } from './permissions.js';
import { addressKey } from './client-address.js';
import type { LimitWindow } from './rate-limit.js';

const CORS_ALLOWED_HEADERS = 'content-type, x-api-key, x-request-id, idempotency-key';
const CORS_EXPOSED_HEADERS =
  'x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, idempotent-replayed';

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
  app.decorateRequest('doorPass', undefined);

  // Preflights carry no key. They are allowed for an origin that some live
  // (unrevoked) checkout key is pinned to; the real request is then checked
  // against its own key. Full keys never get CORS.
  app.options(
    '/api/v1/*',
    { config: { auth: { kind: 'public' } }, schema: { hide: true } },
    async (req, reply) => {
      const origin = requestOrigin(req);
      if (origin === undefined || !(await deps.isPinnedOrigin(origin))) {
        throw forbidden('origin_not_allowed', 'no checkout key is pinned to this origin');
      }
      // Returned, not only sent: an async handler that sends and returns nothing has Fastify
      // send a second time, which logged ERR_HTTP_HEADERS_SENT on every preflight.
      return reply
        .header('access-control-allow-origin', origin)
        .header('vary', 'Origin')
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .code(204)
        .send();
    },
  );

  app.addHook('onRequest', async (req, reply) => {
    const rule: AuthRule | undefined = req.routeOptions.config.auth;
    if (rule === undefined) {
      // Unknown routes (the 404 handler) still count against the caller's IP.
      await limit(reply, `ip:${addressKey(req.ip)}`);
      // A registered route without a rule fails closed. buildApp refuses such a route at
      // start-up (assertRouteRule); this is the fallback should one ever slip past.
      if (!req.is404)
        throw forbidden('route_not_open', 'this route declares no access rule, so it is refused to everyone');
      return;
    }
    if (rule.kind === 'public') {
      if (rule.rateLimit !== false) await limit(reply, `ip:${addressKey(req.ip)}`);
      return;
    }
    if (rule.kind === 'key') return authenticateKey(req, reply, rule);
    if (rule.kind === 'cookie') return authenticateCookie(req, reply, rule.staff === true);
    if (rule.kind === 'door') return authenticateDoor(req, reply, rule);
    return authenticateSession(
      req,
      reply,
      rule.kind === 'staff',
      rule.kind === 'session' ? rule.refusal : undefined,
    );
  });

  const accountWindow: LimitWindow = { limit: deps.accountLimitPerMinute, windowMs: 60_000 };

  /**
   * Counts the request in the bucket's minute (the per-minute limit, or `window`); over the
   * limit, 429. The RateLimit headers show the limit nearest to refusing (a key's own, or its
   * account's).
   */
  async function limit(reply: FastifyReply, bucket: string, window?: LimitWindow, whose = ''): Promise<void> {
    const r = await deps.rateLimiter.hit(bucket, deps.clock.now(), window);
    const remaining = Math.max(0, r.limit - r.count);
    const shown = reply.getHeader('ratelimit-remaining');
    if (shown === undefined || remaining < Number(shown)) {
      reply
        .header('ratelimit-limit', String(r.limit))
        .header('ratelimit-remaining', String(remaining))
        .header('ratelimit-reset', String(r.resetSeconds));
    }
    if (r.count > r.limit) {
      throw appError(
        'rate_limited',
        `${whose}rate limit of ${r.limit} requests per minute reached; retry after ${r.resetSeconds} s`,
        {},
        {
          'retry-after': String(r.resetSeconds),
          'ratelimit-limit': String(r.limit),
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(r.resetSeconds),
        },
      );
    }
  }

  async function authenticateKey(
    req: FastifyRequest,
    reply: FastifyReply,
    rule: Extract<AuthRule, { kind: 'key' }>,
  ) {
    const presented = req.headers['x-api-key'];
    if (typeof presented !== 'string' || presented === '') {
      await limit(reply, `ip:${addressKey(req.ip)}`);
      throw unauthorized('missing_api_key', 'Missing x-api-key header');
    }
    const key = await deps.findKey(presented);
    if (!key) {
      await limit(reply, `ip:${addressKey(req.ip)}`);
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
    // Every key of the account together: more keys are not more requests. A revoked key's
    // calls, and those its own limit refused, are not counted against the account.
    await limit(reply, accountBucket(key.user_id), accountWindow, "the account's ");
    // A request without Origin comes from a server, not a browser, and is allowed:
    // the pin protects the key where it is exposed, in web pages.
    if (key.allowed_origin !== null && origin !== undefined && origin !== key.allowed_origin) {
      throw forbidden('origin_not_allowed', `this key is pinned to ${key.allowed_origin}`);
    }
    if (!rule.classes.includes(key.class)) {
      throw forbidden(
        'checkout_key_not_allowed',
        'a checkout key cannot call this endpoint; use a full key on your server',
      );
    }
    if (rule.modes && !rule.modes.includes(key.mode)) {
      throw forbidden(
        rule.modes[0] === 'test' ? 'test_mode_only' : 'live_mode_only',
        `this endpoint is for ${rule.modes.join(' or ')} keys only`,
      );
    }
    req.principal = { kind: 'key', userId: key.user_id, keyId: key.id, mode: key.mode, keyClass: key.class };
  }

  // A pass is read on every request (no cache), so a revoked one stops at once.
  async function authenticateDoor(
    req: FastifyRequest,
    reply: FastifyReply,
    rule: Extract<AuthRule, { kind: 'door' }>,
  ) {
    const h = req.headers.authorization;
    const fromHeader = typeof h === 'string' ? /^DoorPass\s+(\S+)\s*$/i.exec(h)?.[1] : undefined;
    const token = fromHeader ?? (req.params as { token?: string } | undefined)?.token;
    if (token === undefined && rule.keys && req.headers['x-api-key'] !== undefined)
      return authenticateKey(req, reply, FULL_ONLY as Extract<AuthRule, { kind: 'key' }>);
    if (token === undefined || token === '') {
      await limit(reply, `ip:${addressKey(req.ip)}`);
      throw unauthorized(
        'missing_door_pass',
        rule.keys ? 'Missing door pass (Authorization: DoorPass <token>) or x-api-key' : undefined,
      );
    }
    const pass = await deps.findDoorPass(token);
    if (!pass) {
      await limit(reply, `ip:${addressKey(req.ip)}`);
      throw unauthorized('invalid_door_pass');
    }
    await limit(reply, `door:${pass.id}`);
    if (pass.revoked_at !== null) throw forbidden('door_pass_revoked');
    if (pass.expires_at !== null && pass.expires_at.getTime() <= deps.clock.now().getTime())
      throw forbidden('door_pass_expired');
    const eventId = (req.params as { id?: string } | undefined)?.id;
    if (eventId !== undefined && eventId !== pass.event_id) throw forbidden('door_pass_other_event');
    req.doorPass = {
      kind: 'door',
      passId: pass.id,
      eventId: pass.event_id,
      label: pass.label,
      scopeTrackIndex: pass.scope_track_index,
      scopeDate: pass.scope_date,
    };
  }

  async function authenticateSession(
    req: FastifyRequest,
    reply: FastifyReply,
    staffOnly: boolean,
    refusal?: 'session_required',
  ) {
    const token = bearerToken(req);
    if (token === undefined) {
      await limit(reply, `ip:${addressKey(req.ip)}`);
      throw refusal
        ? unauthorized(refusal)
        : unauthorized('missing_session', 'Missing Authorization Bearer token');
    }
    let session: { userId: string; epoch: number; organisationId: string | null };
    try {
      session = await deps.verifySession(token);
    } catch (err) {
      await limit(reply, `ip:${addressKey(req.ip)}`);
      throw refusal ? unauthorized(refusal) : err;
    }
    await sessionFor(req, reply, session.userId, staffOnly, {
      epoch: session.epoch,
      organisationId: session.organisationId,
      ...(refusal === undefined ? {} : { refusal }),
    });
  }

  async function authenticateCookie(req: FastifyRequest, reply: FastifyReply, staffOnly: boolean) {
    const session = await deps.findCookieSession(req.headers.cookie);
    if (session === undefined) {
      await limit(reply, `ip:${addressKey(req.ip)}`);
      throw unauthorized('missing_session', 'sign in to the dashboard first');
    }
    await sessionFor(req, reply, session.userId, staffOnly, {
      sessionId: session.sessionId,
      organisationId: session.organisationId,
    });
  }

  async function sessionFor(
    req: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    staffOnly: boolean,
    how: { sessionId?: string; epoch?: number; refusal?: 'session_required'; organisationId: string | null },
  ) {
    const { sessionId, epoch, refusal } = how;
    await limit(reply, `user:${userId}`);
    const user = await deps.findUser(userId);
    if (!user)
      throw refusal
        ? unauthorized(refusal)
        : unauthorized('invalid_session', 'the account of this session no longer exists');
    // A password reset or change, or "sign out everywhere", raised the epoch: older idTokens are refused.
    if (epoch !== undefined && epoch !== user.session_epoch)
      throw refusal ? unauthorized(refusal) : unauthorized('session_ended');
    // STAFF_EMAILS names addresses; an address nobody has proved grants nothing.
    const emailVerified = user.email_verified_at !== null;
    const isStaff = emailVerified && deps.isStaffEmail(user.email);
    if (staffOnly && !isStaff) {
      // Said to every unverified account alike, so it tells nobody whether STAFF_EMAILS names their address.
      throw forbidden(
        'staff_only',
        emailVerified
          ? 'only platform staff may do this'
          : 'only platform staff may do this, and staff rights need a verified email address: open the link in the verification mail first',
      );
    }
    const member = await deps.findMembership(user.id, how.organisationId);
    // Platform staff routes are the platform's, not an organisation's: no role decides them.
    if (!staffOnly) checkRole(req, member);
    req.principal = {
      kind: 'session',
      userId: member?.organisation_id ?? user.id,
      personId: user.id,
      ...(member === undefined ? {} : { role: member.role, eventIds: member.event_ids }),
      email: user.email,
      isStaff,
      emailVerified,
      ...(sessionId === undefined ? {} : { sessionId }),
    };
  }
}

/**
 * The one role check (permissions.ts): every session route and dashboard page needs what its
 * line in ROUTE_NEEDS says; a route with no line is refused to everyone.
 */
function checkRole(
  req: FastifyRequest,
  member: { role: Role; event_ids: string[] | null; two_factor_due?: boolean } | undefined,
) {
  const need = routeNeed(req.method, req.routeOptions.url ?? '');
  if (need === undefined)
    throw forbidden('role_forbidden', 'this route has no permission rule, so it is refused to every role');
  // An organisation requiring two-factor leaves a member without it only their own sign-in.
  if (member?.two_factor_due === true && need.permission !== 'self')
    throw forbidden('two_factor_enrolment_required');
  const eventId = (req.params as { id?: string } | undefined)?.id;
  if (
    allows(
      need,
      member === undefined ? undefined : { role: member.role, eventIds: member.event_ids },
      eventId,
    )
  )
    return;
  throw forbidden(
    'role_forbidden',
    member === undefined
      ? 'you are not a member of this organisation; choose one you belong to'
      : need.scope === 'event' && member.event_ids !== null
        ? `your role (${member.role}) does not reach this event`
        : `your role (${member.role}) does not allow this (it needs ${need.permission})`,
  );
}
