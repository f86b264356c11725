// What every route's OpenAPI entry must say, filled in as the route is added: a documented route
// without its own operationId stops the service from starting (so no path-shaped name reaches
// the document); then its security, the Idempotency-Key header of the API's POSTs, and its error answers.
import type { AuthRule } from '../http/auth.js';
import { errorResponses } from '../http/schemas.js';
import { IDEMPOTENCY_HEADER } from '../modules/idempotency/idempotency.hooks.js';

/** Fills in what every route's OpenAPI entry must say: security and error answers. */
export function decorateSchema(route: {
  schema?: object;
  config?: unknown;
  url: string;
  method: string | string[];
}): void {
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
  if (schema.operationId === undefined)
    throw new Error(`${method} ${route.url} has no operationId: give its schema one (src/http/operation.ts)`);
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
