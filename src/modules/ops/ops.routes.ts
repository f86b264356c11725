import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ping } from '../../db/connect.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Storage } from '../../db/connect.js';
import type { Metrics } from './metrics.js';
import type { Config } from '../../config.js';
import type { EmailCheckStatus } from '../mail/dns-canary.js';
import { unauthorized, unavailable } from '../../lib/errors.js';
import { errorResponses } from '../../http/schemas.js';

// What /readyz answers: the database's storage, and how email addresses are checked now.
const Readiness = Type.Object({
  status: Type.Literal('ready'),
  storage: Type.String(),
  emailCheck: Type.Union([Type.Literal('dns'), Type.Literal('off'), Type.Literal('reduced')], {
    description:
      'How email addresses are checked: `dns` (syntax, reserved domains, then DNS), `off` (`EMAIL_DNS_CHECK=false`: syntax and reserved domains only), `reduced` (the resolver denies `EMAIL_DNS_CANARY`, so it probably filters outside names: syntax and reserved domains only until it answers again).',
  }),
  detail: Type.Optional(Type.String({ description: 'While `emailCheck` is `reduced`: what happened and what to change, in a sentence.' })),
});

export const opsRoutes =
  (deps: { db: Kysely<Database>; storage: Storage; metrics: Metrics; config: Config; emailCanary: { status(): EmailCheckStatus } }): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Open to anyone, so under the per-address limit like every other public route: a health
    // check pings the database, a scrape reads it three times, and nobody may do either at will.
    const open = { auth: { kind: 'public' } } as const;

    app.get(
      '/healthz',
      {
        config: open,
        schema: {
          tags: ['operations'],
          summary: 'Liveness: the process answers',
          response: { 200: Type.Object({ status: Type.Literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: open,
        schema: {
          tags: ['operations'],
          summary: 'Readiness: the database answers',
          response: { 200: Readiness, ...errorResponses([503]) },
        },
      },
      async () => {
        try {
          await ping(deps.db);
        } catch {
          throw unavailable('database_unavailable', 'the database does not answer');
        }
        // A reduced email check leaves the service usable: still 200, with the detail.
        return { status: 'ready' as const, storage: deps.storage, ...deps.emailCanary.status() };
      },
    );

    const allowed = metricsGuard(deps.config.metricsToken);
    app.get(
      '/metrics',
      {
        config: open,
        schema: {
          tags: ['operations'],
          summary: 'Metrics in Prometheus text format',
          description:
            'Request counts and latency histograms by method, route template and status; the job queue by topic (`jobs_pending`, `jobs_retrying` — mail, webhook and refund deliveries that failed and wait for another try —, `jobs_dead`, `jobs_oldest_pending_age_seconds`); `webhook_delivery_failures_last_hour`; `reconcile_orders` by state and outcome; `db_pool_connections`; `email_dns_check_reduced` (1 while the DNS resolver denies `EMAIL_DNS_CANARY` and addresses are checked for syntax and reserved domains only); and the process figures of prom-client. With `METRICS_TOKEN` set, it needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without it, it is open, so set it wherever the service is reachable from outside.',
          response: { 200: { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } }, ...errorResponses([401]) },
        },
      },
      async (req, reply) => {
        if (!allowed(req.headers.authorization)) throw unauthorized('invalid_metrics_token', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
        const text = await deps.metrics.text();
        return reply.type(deps.metrics.registry.contentType).serializer((x: unknown) => String(x)).send(text);
      },
    );

    // The document does not change while the service runs: made into bytes once, at the first call.
    let document: { bytes: Buffer; etag: string } | undefined;
    app.get(
      '/api/v1/openapi.json',
      {
        config: open,
        schema: {
          tags: ['operations'],
          summary: 'This API described in OpenAPI 3.1',
          description: 'The same bytes on every call while the service runs, with an `ETag`: `If-None-Match` with it answers 304 without a body.',
          response: { 200: Type.Object({}, { additionalProperties: true }), 304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' } as never },
        },
      },
      async (req, reply) => {
        const doc = (document ??= openapiBytes(app.swagger()));
        reply.header('etag', doc.etag).header('cache-control', 'no-cache');
        if (matchesEtag(req.headers['if-none-match'], doc.etag)) return reply.code(304).send();
        return reply.type('application/json').send(doc.bytes);
      },
    );
  };

/** Whether an Authorization header may read /metrics: anyone without METRICS_TOKEN, else its bearer. */
function metricsGuard(metricsToken: string | undefined): (header: string | undefined) => boolean {
  const token = metricsToken === undefined ? undefined : Buffer.from(`Bearer ${metricsToken}`);
  return (header) => {
    if (token === undefined) return true;
    const given = Buffer.from(header ?? '');
    return given.length === token.length && timingSafeEqual(given, token);
  };
}

function openapiBytes(doc: unknown): { bytes: Buffer; etag: string } {
  const bytes = Buffer.from(JSON.stringify(doc));
  return { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or a list of tags compared weakly (W/ ignored). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
