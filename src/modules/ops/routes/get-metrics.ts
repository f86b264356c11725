import { timingSafeEqual } from 'node:crypto';
import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { errorResponses } from '../../../http/schemas.js';
import { unauthorized } from '../../../lib/errors.js';
import { OPEN, type OpsDeps } from './ops.js';

const examples: OperationExamples = {
  responses: {
    '200':
      '# HELP http_requests_total Requests answered, by route and status.\n# TYPE http_requests_total counter\nhttp_requests_total{method="GET",route="/api/v1/events",status="200"} 42\n',
  },
};

export const getMetrics: Operation<OpsDeps> = (app, deps) => {
  const allowed = metricsGuard(deps.config.metricsToken);
  return app.get(
    '/metrics',
    {
      config: { auth: OPEN, examples },
      schema: {
        operationId: 'getMetrics',
        tags: ['operations'],
        summary: 'Metrics in Prometheus text format',
        description:
          'Request counts and latency histograms by method, route template and status; the job queue by topic (`jobs_pending`, `jobs_retrying` — mail, webhook and refund deliveries that failed and wait for another try —, `jobs_dead`, `jobs_oldest_pending_age_seconds`); `webhook_delivery_failures_last_hour`; `reconcile_orders` by state and outcome; `db_pool_connections`; `db_connection_errors_total` by kind (`lost`: pool connections that failed under the service, `connect_failed`, `backed_off`: checkouts refused at once while the pool backs off after a failed connect) and `embedded_database_restarts_total`; `email_dns_check_reduced` (1 while the DNS resolver denies `EMAIL_DNS_CANARY` and addresses are checked for syntax and reserved domains only); and the process figures of prom-client. With `METRICS_TOKEN` set, it needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without it, it is open, so set it wherever the service is reachable from outside.',
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...errorResponses([401]),
        },
      },
    },
    async (req, reply) => {
      if (!allowed(req.headers.authorization))
        throw unauthorized(
          'invalid_metrics_token',
          'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>',
        );
      const text = await deps.metrics.text();
      return reply
        .type(deps.metrics.registry.contentType)
        .serializer((x: unknown) => String(x))
        .send(text);
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
