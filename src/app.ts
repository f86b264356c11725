// buildApp(deps): the HTTP surface. Registers modules, the auth hook and the error
// handler. Reads no environment and does not listen.
import swagger from '@fastify/swagger';
import type { OperationExamples } from './http/examples.js';
import { openApiOptions } from './openapi/document.js';
import { decorateSchema } from './openapi/route-docs.js';
import { framingOf } from './http/framing.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { Deps } from './deps.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { publishingRoutes } from './modules/accounts/publishing.routes.js';
import * as accounts from './modules/accounts/accounts.service.js';
import * as members from './modules/accounts/members.service.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { registrationsRoutes } from './modules/registrations/registrations.routes.js';
import { statementsRoutes } from './modules/statements/statements.routes.js';
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
import { membersRoutes } from './modules/accounts/members.routes.js';
import { twoFactorRoutes } from './modules/accounts/two-factor.routes.js';
import * as events from './modules/events/events.service.js';
import * as keys from './modules/keys/keys.service.js';
import { countRequests } from './modules/ops/metrics.js';
import { opsRoutes } from './modules/ops/ops.routes.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes.js';
import { seatingRoutes } from './modules/seating/seating.routes.js';
import * as dashboardSessions from './dashboard/sessions.js';
import { installIdempotency } from './modules/idempotency/idempotency.hooks.js';
import { assertRouteRule, type AuthRule, type RouteEntry } from './http/auth.js';
import { registerAuth } from './http/auth-hook.js';
import { addressMatcher, trustProxy } from './http/client-address.js';
import { installConnectionGate, type ConnectionGate } from './http/connection-gate.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.js';
import { parseJson } from './http/json-body.js';
import { ErrorBody } from './http/schemas.js';
import { lazySchemas } from './http/lazy-schemas.js';
import { seatHoldsRoutes } from './modules/seat-holds/seat-holds.routes.js';
import { waitingRoomRoutes } from './modules/waiting-room/waiting-room.routes.js';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

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
  const newRequestId = requestIds(deps);
  const app = createFastify(deps, newRequestId);
  const connections = gateConnections(app, deps);
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
  const routes = watchRoutes(app);

  app.addSchema(ErrorBody);
  await app.register(
    swagger,
    openApiOptions({ config: deps.config, rules: routes.rules, examples: routes.examples }),
  );
  registerAuth(app, {
    clock: deps.clock,
    rateLimiter: deps.rateLimiter,
    accountLimitPerMinute: deps.config.rateLimitPerAccountMinute,
    findKey: (presented) => keys.findKey(deps.db, deps.keyCache, presented, deps.clock.now().getTime()),
    verifySession: (token) => deps.sessions.verify(token),
    findCookieSession: (cookieHeader) => dashboardSessions.findSession(deps, cookieHeader),
    findUser: (userId) => accounts.findUser(deps.db, userId),
    findMembership: (userId, organisationId) => members.findMembership(deps.db, userId, organisationId),
    isStaffEmail: (email) => deps.config.staffEmails.includes(email.toLowerCase()),
    isPinnedOrigin: (origin) => keys.isPinnedOrigin(deps.db, origin),
    findDoorPass: (token) => door.findPass(deps.db, token),
  });
  registerErrorHandling(app, routes.methodsFor);
  installIdempotency(app, { db: deps.db, clock: deps.clock });
  countRequests(app, deps.metrics);
  await registerModules(app, deps);
  return app;
}

/** Request ids: a random prefix per process and a counter, so no randomness is spent per request. */
function requestIds(deps: Deps): () => string {
  const idPrefix = deps.ids.make('req', 6);
  let seq = 0;
  return () => `${idPrefix}-${(++seq).toString(36)}`;
}

function createFastify(deps: Deps, newRequestId: () => string): App {
  // Nobody may hold a connection open: the request (headers and body) must arrive within
  // REQUEST_TIMEOUT_MS (then 408 and the connection closes), idle keep-alive connections close
  // after 72 s, and at most MAX_CONNECTIONS are open at once, MAX_CONNECTIONS_PER_ADDRESS from
  // one client address (more are closed on arrival, whichever accept queue took them).
  // Node checks the timeouts on a timer, by default every 30 s: check often enough that they hold.
  const { requestTimeoutMs } = deps.config.http;
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  // Route schemas compile at their first use (src/http/lazy-schemas.ts).
  const schemas = lazySchemas();
  const app = Fastify({
    schemaController: schemas.schemaController,
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(headersTimeout / 4)),
    },
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
  });
  schemas.attach(app);
  return app.withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
}

function gateConnections(app: App, deps: Deps): ConnectionGate {
  const proxies = deps.config.trustProxy;
  return installConnectionGate(app.server, {
    maxConnections: deps.config.http.maxConnections,
    maxPerAddress: deps.config.http.maxConnectionsPerAddress,
    // Behind proxies a peer is a proxy carrying many clients: a hop count makes every peer one.
    sharedAddress:
      proxies === false
        ? () => false
        : typeof proxies === 'number'
          ? () => proxies > 0
          : addressMatcher(proxies),
    registry: deps.metrics.registry,
  });
}

/**
 * Watches every route as it is added: refuses one without an auth rule (fail closed at
 * start-up), limits a public route's body, sets its framing policy, fills in its OpenAPI entry,
 * and collects each operation's rule (published as `x-auth`) and examples, the route table (the
 * authorisation matrix reads it), and a second router that knows every path and method, so a
 * known path with the wrong method answers 405 with Allow instead of 404.
 */
function watchRoutes(app: App) {
  const known = FindMyWay();
  const noop = () => {};
  const rules = new Map<string, AuthRule>();
  // Each operation's examples, from its route's own config.examples.
  const examples = new Map<string, OperationExamples>();
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const rule = assertRouteRule(route);
    // A caller nobody has identified gets a small body; a route may ask for less.
    if (rule.kind === 'public')
      route.bodyLimit = Math.min(route.bodyLimit ?? PUBLIC_BODY_LIMIT, PUBLIC_BODY_LIMIT);
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    route.config = { ...(route.config as object), frameHeaders: framingOf(route.url) } as typeof route.config;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      rules.set(`${m.toLowerCase()} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`, rule);
      routeTable.push({ method: m, url: route.url, rule, hidden });
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      try {
        known.on(m as 'GET', route.url, noop);
      } catch {
        // already known (the same route under another prefix form)
      }
    }
    decorateSchema(route);
    const own = (route.config as { examples?: OperationExamples } | undefined)?.examples;
    const id = (route.schema as { operationId?: string } | undefined)?.operationId;
    if (own && id) examples.set(id, own);
  });
  const methodsFor = (path: string) =>
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => known.find(m as 'GET', path) !== null);
  return { rules, examples, methodsFor };
}

/** Every module's routes, in this order. */
async function registerModules(app: App, deps: Deps): Promise<void> {
  const plugins = [
    opsRoutes(deps),
    accountsRoutes(deps),
    keysRoutes(deps),
    membersRoutes({
      ...deps,
      eventAccounts: (ids) => eventAccounts(deps, ids),
      endDoorPasses: door.endMemberPasses,
    }),
    twoFactorRoutes(deps),
    publishingRoutes(deps),
    mailSettingsRoutes(deps),
    adminRoutes(deps),
    seatingRoutes(deps),
    seatHoldsRoutes(deps),
    eventsRoutes(deps.eventDeps),
    registrationsRoutes(deps.registerDeps),
    statementsRoutes(deps.registerDeps),
    waitlistRoutes(deps.waitlistDeps),
    checkinRoutes(deps),
    doorRoutes(deps),
    webhooksRoutes(deps),
    membershipsRoutes(deps),
    broadcastRoutes(deps),
    sandboxRoutes(deps),
    razorpayWebhookRoutes(deps),
    whatsappWebhookRoutes(deps),
    walletRoutes(deps),
    checkoutRoutes(deps),
    waitingRoomRoutes(deps.waitingRoom),
    attendeeRoutes({
      db: deps.db,
      secretsKey: deps.config.secretsKey,
      registerDeps: deps.registerDeps,
      baseUrl: deps.config.baseUrl,
      timeZone: deps.config.eventTimeZone,
    }),
    gstRoutes({ db: deps.db, reads: deps.reads, clock: deps.clock }),
    exportsRoutes({ db: deps.db, reads: deps.reads, clock: deps.clock, ledger: deps.payoutDeps }),
    ledgerRoutes(deps),
    auditRoutes({ db: deps.db, reads: deps.reads, describe: auditDescribers }),
    payoutsRoutes(deps),
    dashboardRoutes(deps),
    reconciliationRoutes(deps),
  ];
  for (const plugin of plugins) await app.register(plugin);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The count of open connections, over every accept queue (connection-gate.ts). */
    connections: ConnectionGate;
  }
}

/** Which account each event belongs to, for the members module's check of a member's events. */
async function eventAccounts(deps: Deps, ids: readonly string[]): Promise<Map<string, string>> {
  return new Map((await events.findEventsById(deps.db, ids)).map((e) => [e.id, e.account_id]));
}
