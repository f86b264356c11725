// buildApp(deps): the HTTP surface. Registers modules, the auth hook and the error
// handler. Reads no environment and does not listen.
import swagger from '@fastify/swagger';
import { nameSchemas } from './openapi/components.js';
import { contactFor, describeOperations } from './openapi/descriptions.js';
import { EXAMPLES } from './openapi/examples.js';
import { addExamples, type OperationExamples } from './http/examples.js';
import { applyRules } from './openapi/rules.js';
import { addWebhooks } from './openapi/webhooks.js';
import { operationIdFor } from './openapi/operation-ids.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { Deps } from './deps.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { publishingRoutes } from './modules/accounts/publishing.routes.js';
import * as accounts from './modules/accounts/accounts.service.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { registrationsRoutes } from './modules/registrations/registrations.routes.js';
import { sandboxRoutes } from './modules/sandbox/sandbox.routes.js';
import { checkinRoutes } from './modules/checkin/checkin.routes.js';
import { doorRoutes } from './modules/checkin/door.routes.js';
import * as door from './modules/checkin/door.service.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { membershipsRoutes } from './modules/memberships/memberships.routes.js';
import { broadcastRoutes } from './modules/broadcast/broadcast.routes.js';
import { razorpayWebhookRoutes } from './modules/gateway-events/razorpay-webhook.routes.js';
import { checkoutRoutes } from './modules/checkout/checkout.routes.js';
import { attendeeRoutes } from './modules/attendee/attendee.routes.js';
import { mailSettingsRoutes } from './modules/accounts/mail-settings.routes.js';
import { walletRoutes } from './modules/wallet/wallet.routes.js';
import { whatsappWebhookRoutes } from './modules/whatsapp/whatsapp-webhook.routes.js';
import { gstRoutes } from './modules/gst/gst.routes.js';
import { exportsRoutes } from './modules/exports/exports.routes.js';
import { ledgerRoutes } from './modules/ledger/ledger.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { payoutsRoutes } from './modules/payouts/payouts.routes.js';
import { reconciliationRoutes } from './modules/reconciliation/reconciliation.routes.js';
import { keysRoutes } from './modules/keys/keys.routes.js';
import * as keys from './modules/keys/keys.service.js';
import { countRequests } from './modules/ops/metrics.js';
import { opsRoutes } from './modules/ops/ops.routes.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes.js';
import * as dashboardSessions from './dashboard/sessions.js';
import { IDEMPOTENCY_HEADER, installIdempotency } from './modules/idempotency/idempotency.hooks.js';
import { assertRouteRule, registerAuth, type AuthRule, type RouteEntry } from './http/auth.js';
import { addressMatcher } from './http/client-address.js';
import { installConnectionGate, type ConnectionGate } from './http/connection-gate.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.js';
import { parseJson } from './http/json-body.js';
import { ErrorBody, errorResponses } from './http/schemas.js';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BODY_LIMIT = 1024 * 1024;
/** Routes anyone may call without credentials read at most this much of a body. */
export const PUBLIC_BODY_LIMIT = 64 * 1024;

/** Headers must arrive within this (or the request timeout, if shorter). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** An idle keep-alive connection is closed after this; longer than a load balancer's usual 60 s. */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** How the audit log shows its actors: keys by their prefix, the organiser in the dashboard by email. */
const auditDescribers = { keys: keys.prefixesOf, users: accounts.emailsOf };

export interface BuildOptions {
  /** Called on the new app before anything else is added (server.ts: the tracing hook, when tracing is on). */
  instrument?(app: FastifyInstance): void;
}

export async function buildApp(deps: Deps, options: BuildOptions = {}): Promise<App> {
  // Request ids: a random prefix per process and a counter, so no randomness is spent per request.
  const idPrefix = deps.ids.make('req', 6);
  let seq = 0;
  const newRequestId = () => `${idPrefix}-${(++seq).toString(36)}`;
  // Nobody may hold a connection open: the request (headers and body) must arrive within
  // REQUEST_TIMEOUT_MS (then 408 and the connection closes), idle keep-alive connections close
  // after 72 s, and at most MAX_CONNECTIONS are open at once, MAX_CONNECTIONS_PER_ADDRESS from
  // one client address (more are closed on arrival, whichever accept queue took them).
  // Node checks the timeouts on a timer, by default every 30 s: check often enough that they hold.
  const { requestTimeoutMs, maxConnections, maxConnectionsPerAddress } = deps.config.http;
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    http: { requestTimeout: requestTimeoutMs, headersTimeout, connectionsCheckingInterval: Math.min(1000, Math.ceil(headersTimeout / 4)) },
    // A caller's x-request-id is kept when it is sane; otherwise we make one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
    },
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(newRequestId, deps.logger),
    ajv: {
      // Strict input: no coercion ("5" is not 5), unknown fields refused where a
      // schema says additionalProperties: false.
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false },
    },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: trustProxy(deps.config.trustProxy),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  const proxies = deps.config.trustProxy;
  const connections = installConnectionGate(app.server, {
    maxConnections,
    maxPerAddress: maxConnectionsPerAddress,
    // Behind proxies a peer is a proxy carrying many clients: a hop count makes every peer one.
    sharedAddress: proxies === false ? () => false : typeof proxies === 'number' ? () => proxies > 0 : addressMatcher(proxies),
    registry: deps.metrics.registry,
  });
  app.decorate('connections', connections);
  options.instrument?.(app as unknown as FastifyInstance);

  // Only JSON bodies are accepted; anything else is 415. JSON text must be Unicode (json-body.ts).
  app.removeContentTypeParser('text/plain');
  parseJson(app);

  // Every answer carries its request id and its framing policy: only the hosted checkout
  // (/e/*, /m/*, /embed/*) may be framed, by any site; every other answer, JSON included, may not.
  // The policy is worked out once per route (onRoute below), and set before the handler runs,
  // so a page that sets its own policy replaces it. One hook, no promise.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    reply.headers(req.routeOptions.config.frameHeaders ?? framingOf(req.url));
    done();
  });

  // A second router that knows every path and method, so a known path with the
  // wrong method answers 405 with Allow instead of 404.
  const known = FindMyWay();
  const noop = () => {};
  // Each operation's declared rule, published in the OpenAPI document as `x-auth`.
  const rules = new Map<string, AuthRule>();
  // Each operation's examples: its route's own (config.examples), else the table's.
  const examples = new Map<string, OperationExamples>(Object.entries(EXAMPLES));
  // Every route with its rule, as Fastify registered it (the authorisation matrix reads it).
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    // Fail closed at start-up: a route that says nothing about who may call it is an error.
    const rule = assertRouteRule(route);
    // A caller nobody has identified gets a small body; a route may ask for less.
    if (rule.kind === 'public') route.bodyLimit = Math.min(route.bodyLimit ?? PUBLIC_BODY_LIMIT, PUBLIC_BODY_LIMIT);
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    route.config = { ...(route.config as object), frameHeaders: framingOf(route.url) } as typeof route.config;
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) {
      rules.set(`${m.toLowerCase()} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`, rule);
      routeTable.push({ method: m, url: route.url, rule, hidden });
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m !== 'HEAD' && m !== 'OPTIONS') {
        try {
          known.on(m as 'GET', route.url, noop);
        } catch {
          // already known (the same route under another prefix form)
        }
      }
    }
    decorateSchema(route);
    const own = (route.config as { examples?: OperationExamples } | undefined)?.examples;
    const id = (route.schema as { operationId?: string } | undefined)?.operationId;
    if (own && id) examples.set(id, own);
  });
  const methodsFor = (path: string) =>
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => known.find(m as 'GET', path) !== null);

  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Event Ticketing and Memberships API',
        version: '1.0.0',
        description: OPENAPI_DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: contactFor(deps.config.mailFrom, deps.config.baseUrl),
      },
      servers: [{ url: deps.config.baseUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'sk_… full key or pk_… checkout key' },
          session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'idToken from POST /auth/login' },
          doorPass: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`DoorPass <token>`: the token of a door pass URL (`/door/{token}`); opens one event’s door only' },
        },
      },
      tags: [
        { name: 'identity', description: 'Who the key belongs to' },
        { name: 'dashboard', description: 'Accounts, sessions and API keys (session token)' },
        { name: 'admin', description: 'Platform staff only (session token of a staff member)' },
        { name: 'events', description: 'Events: drafts, publishing, seats, analytics' },
        { name: 'tracks', description: 'Bookable sessions inside an event, addressed by index' },
        { name: 'registrations', description: 'Bookings and their attendees' },
        { name: 'waitlist', description: 'Waitlists of sold-out events: joining, the queue, timed offers' },
        { name: 'attendee', description: 'The attendee’s own page /t/{token}: the ticket, and transfer or cancellation under the event’s policy' },
        { name: 'check-in', description: 'Door: look up and admit tickets' },
        { name: 'broadcast', description: 'Email the event’s own attendees' },
        { name: 'memberships', description: 'Plans, members, mandates and standing' },
        { name: 'gst', description: 'GST settings, tax invoices, bills of supply and credit notes, and the GSTR-1 summary' },
        { name: 'exports', description: 'CSV files of registrations, members, the ledger and GST documents' },
        { name: 'webhooks', description: 'Signed notifications to the organiser’s server' },
        { name: 'sandbox', description: 'Test keys only: play the buyer and the gateway; read the mails test mode kept' },
        { name: 'gateway', description: 'Notifications from the payment gateway and the WhatsApp Cloud API' },
        { name: 'tickets', description: 'The attendee’s ticket in Apple Wallet and Google Wallet (the attendee page’s token is the credential)' },
        { name: 'checkout', description: 'The browser side: embed.js, the hosted event page and the JSON calls it makes (no key for live events)' },
        { name: 'operations', description: 'Health and the API description' },
      ],
    },
    transformObject: (documentObject) => {
      const openapiObject = (documentObject as { openapiObject: { paths?: Record<string, unknown> } }).openapiObject;
      for (const [path, item] of Object.entries(openapiObject.paths ?? {})) {
        for (const [method, op] of Object.entries(item as Record<string, Record<string, unknown>>)) {
          const rule = rules.get(`${method} ${path}`);
          if (rule && typeof op === 'object') op['x-auth'] = rule;
        }
      }
      describeOperations(openapiObject as Record<string, unknown>);
      applyRules(openapiObject as Record<string, unknown>);
      addExamples(openapiObject as Record<string, unknown>, examples);
      addWebhooks(openapiObject as Record<string, unknown>);
      nameSchemas(openapiObject as Record<string, unknown>);
      return openapiObject as never;
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  registerAuth(app, {
    clock: deps.clock,
    rateLimiter: deps.rateLimiter,
    accountLimitPerMinute: deps.config.rateLimitPerAccountMinute,
    findKey: (presented) => keys.findKey(deps.db, deps.keyCache, presented, deps.clock.now().getTime()),
    verifySession: (token) => deps.sessions.verify(token),
    findCookieSession: (cookieHeader) => dashboardSessions.findSession(deps, cookieHeader),
    findUser: (userId) => accounts.findUser(deps.db, userId),
    isStaffEmail: (email) => deps.config.staffEmails.includes(email.toLowerCase()),
    isPinnedOrigin: (origin) => keys.isPinnedOrigin(deps.db, origin),
    findDoorPass: (token) => door.findPass(deps.db, token),
  });
  registerErrorHandling(app, methodsFor);
  installIdempotency(app, { db: deps.db, clock: deps.clock });
  countRequests(app, deps.metrics);

  await app.register(opsRoutes(deps));
  await app.register(accountsRoutes(deps));
  await app.register(keysRoutes(deps));
  await app.register(publishingRoutes(deps));
  await app.register(mailSettingsRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(eventsRoutes(deps.eventDeps));
  await app.register(registrationsRoutes(deps.registerDeps));
  await app.register(waitlistRoutes(deps.waitlistDeps));
  await app.register(checkinRoutes(deps));
  await app.register(doorRoutes(deps));
  await app.register(webhooksRoutes(deps));
  await app.register(membershipsRoutes(deps));
  await app.register(broadcastRoutes(deps));
  await app.register(sandboxRoutes(deps));
  await app.register(razorpayWebhookRoutes(deps));
  await app.register(whatsappWebhookRoutes(deps));
  await app.register(walletRoutes(deps));
  await app.register(checkoutRoutes(deps));
  await app.register(attendeeRoutes({ db: deps.db, secretsKey: deps.config.secretsKey, registerDeps: deps.registerDeps, baseUrl: deps.config.baseUrl, timeZone: deps.config.eventTimeZone }));
  await app.register(gstRoutes(deps));
  await app.register(exportsRoutes({ db: deps.db, clock: deps.clock, ledger: deps.payoutDeps }));
  await app.register(ledgerRoutes(deps));
  await app.register(auditRoutes({ db: deps.db, describe: auditDescribers }));
  await app.register(payoutsRoutes(deps));
  await app.register(dashboardRoutes(deps));
  await app.register(reconciliationRoutes(deps));

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The count of open connections, over every accept queue (connection-gate.ts). */
    connections: ConnectionGate;
  }
  interface FastifyContextConfig {
    /** The framing headers of the route's answers (worked out once, when the route is added). */
    frameHeaders?: Readonly<Record<string, string>>;
  }
}

const FRAMEABLE = Object.freeze({ 'content-security-policy': 'frame-ancestors *' });
const NOT_FRAMEABLE = Object.freeze({ 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' });

/** Only the hosted checkout may be framed. */
function framingOf(path: string): Readonly<Record<string, string>> {
  return path.startsWith('/e/') || path.startsWith('/m/') || path.startsWith('/embed/') ? FRAMEABLE : NOT_FRAMEABLE;
}

/**
 * TRUST_PROXY as Fastify takes it: the proxies' addresses/CIDRs, or a hop count (the
 * nearest `hops` addresses, the socket's first, are proxies). Fastify itself treats a
 * bare number as "trust nothing", so the count is given as a function. config.ts
 * refuses "trust everything".
 */
function trustProxy(setting: Deps['config']['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return [...setting];
}

/** Fills in what every route's OpenAPI entry must say: security and error answers. */
function decorateSchema(route: { schema?: object; config?: unknown; url: string; method: string | string[] }): void {
  const rule = (route.config as { auth?: AuthRule } | undefined)?.auth;
  if (!route.schema || (route.schema as { hide?: boolean }).hide) return;
  const schema = route.schema as {
    security?: unknown;
    response?: Record<string | number, unknown>;
    body?: unknown;
    params?: unknown;
    querystring?: unknown;
    operationId?: string;
    headers?: { type?: string; properties?: Record<string, unknown> };
  };
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (rule?.kind === 'key' && methods.includes('POST') && route.url.startsWith('/api/v1/')) {
    // Every POST under /api/v1 takes an Idempotency-Key (idempotency.hooks.ts).
    const headers = (schema.headers ??= { type: 'object', properties: {} });
    headers.properties ??= {};
    headers.properties[IDEMPOTENCY_HEADER] = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Makes a retry safe (Stripe’s rules): the same key and request replay the stored answer with `Idempotent-Replayed: true`; the same key with another method, path or body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Kept 24 hours per account and mode; only answers that did something (2xx) are kept: a refusal (4xx) or failure (5xx) changed nothing, so its retry runs again.',
    };
  }
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  // The table's name (src/openapi/operation-ids.ts); a route missing from it gets a path-shaped
  // name, which the OpenAPI test refuses.
  schema.operationId = operationIdFor(method, route.url, schema.operationId) ?? operationId(method, route.url);
  const statuses = new Set<number>([500]);
  // The gateway's notifications are limited by their bad signatures only (and static assets not at all).
  if (!(rule?.kind === 'public' && rule.rateLimit === false)) statuses.add(429);
  if (schema.body || schema.params || schema.querystring) statuses.add(400);
  if (schema.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (rule?.kind === 'key') {
    schema.security ??= [{ apiKey: [] }];
    statuses.add(401).add(403);
    if (schema.headers?.properties?.[IDEMPOTENCY_HEADER]) statuses.add(409).add(422);
  } else if (rule?.kind === 'door') {
    schema.security ??= rule.keys ? [{ doorPass: [] }, { apiKey: [] }] : [{ doorPass: [] }];
    statuses.add(401).add(403);
  } else if (rule?.kind === 'session' || rule?.kind === 'staff') {
    schema.security ??= [{ session: [] }];
    statuses.add(401);
    if (rule.kind === 'staff') statuses.add(403);
  } else {
    schema.security ??= [];
  }
  const response = (schema.response ??= {});
  for (const [status, s] of Object.entries(errorResponses([...statuses]))) {
    response[status] ??= s;
  }
}

/** `POST /api/v1/events/:id/tracks` → `postEventsByIdTracks`: the fallback the OpenAPI test refuses. */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1\//, '/')
    .split('/')
    .filter((p) => p !== '')
    .flatMap((p) => (p.startsWith(':') ? ['By', p.slice(1)] : p.split(/[^A-Za-z0-9]+/)))
    .filter((p) => p !== '')
    .map((p) => p[0]!.toUpperCase() + p.slice(1));
  return method.toLowerCase() + words.join('');
}

const OPENAPI_DESCRIPTION = `Event ticketing and memberships for organisers in India.

Every failure answers JSON \`{ error, code }\`: \`error\` is a sentence, \`code\` a stable snake_case word.
Bodies are JSON (\`Content-Type: application/json\`) and their text must be Unicode: a string or key with an
unpaired UTF-16 surrogate escape (\`"\\ud800"\` without its pair) answers 400 \`invalid_json\`, like malformed JSON.
So does a body nested more than 64 arrays or objects deep (refused by a scan before it is parsed). A body may be
at most 1 MiB, and at most 64 KiB on operations that take no credentials (\`x-auth\` kind \`public\`); larger answers 413.
A request must arrive whole within 30 s (\`REQUEST_TIMEOUT_MS\`) and its headers within 10 s, else 408 \`request_timeout\`
and the connection closes; idle keep-alive connections close after 72 s.
Amounts are rupees at the API edge unless a field says paise. Keys: \`sk_test_…\`/\`sk_live_…\` (full) and
\`pk_test_…\`/\`pk_live_…\` (checkout). A key sees only its own account and mode: another mode's object
answers 404, another account's 403.

Rate limits: \`RATE_LIMIT_PER_MINUTE\` requests per key (per IP without a key) in fixed one-minute windows;
every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a 429 adds \`Retry-After\`.

Browser use: a checkout key pinned to an origin gets CORS headers for that origin (preflight included);
a request from any other \`Origin\` answers 403. A request without an \`Origin\` header (a server) is accepted.
Full keys never get CORS headers.

The browser side (tag \`checkout\`): \`GET /embed.js\` for host pages and the hosted page \`GET /e/{slug}\` (HTML),
whose own JSON calls live under \`/e/{slug}/…\`: no credentials for a published live event, the test checkout key
(\`data-svc-key\`) for a test event. Only \`/e/*\` and \`/embed/*\` may be framed (\`frame-ancestors *\`); every other
answer says \`frame-ancestors 'none'\`. No route sets a cookie.

Who may call each operation is stated in its \`x-auth\` extension, the rule the service enforces:
\`{ kind: "public" }\` (no credentials), \`{ kind: "key", classes, modes? }\` (an \`x-api-key\` of those classes and modes),
\`{ kind: "session" }\` (a dashboard session token), \`{ kind: "staff" }\` (the session of platform staff with a verified email) or
\`{ kind: "door", keys? }\` (a door pass, \`Authorization: DoorPass <token>\`, for the one event it was made for; with \`keys: true\` a full key too).
Every route declares its rule and routes fail closed: the service refuses to start with a route that declares none, and
were one ever served it would answer 403 \`route_not_open\` to every caller.

Email verification: sign-up mails a link; until it is opened the account has \`emailVerified: false\`, gets no live key
(403 \`email_unverified\`), no payout, and \`STAFF_EMAILS\` grants it nothing. Test keys work at once.`;
