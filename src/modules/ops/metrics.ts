// Metrics in Prometheus's text format (docs/decisions/19-developers-and-operators.md), with prom-client: request
// counts and latency by route and status (counted in one onResponse hook), and, read when
// scraped, the job queue by topic (depth, oldest waiting job, jobs retrying after a failed
// delivery, dead jobs), webhook delivery failures, the reconciliation sweep's orders by
// outcome and the database pool's use. Process figures (CPU, memory, event-loop lag) come
// from prom-client's defaults.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Outages, PoolUse } from '../../db/connect.js';
import type { Database } from '../../db/database.js';
import { topicStats } from '../../jobs/dead-jobs.js';
import type { Clock } from '../../lib/clock.js';
import { isConnectionLost } from '../../lib/pg-errors.js';
import { outcomeCounts } from '../payments/order-checks.js';
import { countFailedDeliveriesSince } from '../webhooks/webhooks.service.js';

export interface MetricsDeps {
  db: Kysely<Database>;
  clock: Clock;
  pool: PoolUse;
  outages: Outages;
}

export interface Metrics {
  readonly registry: Registry;
  /** The scrape: database figures read now, then every metric as Prometheus text. */
  text(): Promise<string>;
  /** Counts one answered request (called by the onResponse hook). */
  observe(method: string, route: string, status: number, seconds: number): void;
}

export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route template and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by method, route template and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const refresh = databaseGauges(registry, deps);
  outageCounters(registry, deps.outages);

  return {
    registry,
    async text() {
      await refresh();
      return registry.metrics();
    },
    observe(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
  };
}

/**
 * The figures read from the database when scraped (the job queue, webhook failures, the
 * reconciliation sweep's orders, the pool's use), registered on `registry`; returns their refresh.
 */
function databaseGauges(registry: Registry, deps: MetricsDeps): () => Promise<void> {
  const jobsPending = new Gauge({
    name: 'jobs_pending',
    help: 'Jobs waiting to run, by topic',
    labelNames: ['topic'],
    registers: [registry],
  });
  const jobsRetrying = new Gauge({
    name: 'jobs_retrying',
    help: 'Pending jobs that failed at least once (mail, webhook and refund deliveries failing), by topic',
    labelNames: ['topic'],
    registers: [registry],
  });
  const jobsDead = new Gauge({
    name: 'jobs_dead',
    help: 'Jobs parked as dead after their retry window, by topic',
    labelNames: ['topic'],
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'jobs_oldest_pending_age_seconds',
    help: 'Age of the oldest pending job (0 when none waits)',
    registers: [registry],
  });
  const webhookFailures = new Gauge({
    name: 'webhook_delivery_failures_last_hour',
    help: 'Webhook delivery attempts in the last hour that got no 2xx answer',
    registers: [registry],
  });
  const reconcile = new Gauge({
    name: 'reconcile_orders',
    help: 'Gateway orders watched by the reconciliation sweep, by state (open, settled) and last outcome',
    labelNames: ['state', 'outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state: total, idle, and callers waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, deps.pool.totalCount);
      this.set({ state: 'idle' }, deps.pool.idleCount);
      this.set({ state: 'waiting' }, deps.pool.waitingCount);
    },
  });

  /**
   * Reads what the database knows, once per scrape, before the text is written. While the
   * database is away these keep their last values, and the scrape still answers (with the
   * outage counters, which say so).
   */
  return async function refresh(): Promise<void> {
    const now = deps.clock.now();
    let read: Awaited<ReturnType<typeof readDatabase>>;
    try {
      read = await readDatabase(deps, now);
    } catch (err) {
      if (isConnectionLost(err)) return;
      throw err;
    }
    const [stats, failures, outcomes] = read;
    jobsPending.reset();
    jobsRetrying.reset();
    jobsDead.reset();
    let first: Date | null = null;
    for (const s of stats) {
      jobsPending.set({ topic: s.topic }, s.pending);
      jobsRetrying.set({ topic: s.topic }, s.retrying);
      jobsDead.set({ topic: s.topic }, s.dead);
      if (s.oldestPendingAt && (first === null || s.oldestPendingAt < first)) first = s.oldestPendingAt;
    }
    oldest.set(first === null ? 0 : Math.max(0, (now.getTime() - first.getTime()) / 1000));
    webhookFailures.set(failures);
    reconcile.reset();
    for (const r of outcomes)
      reconcile.set({ state: r.open ? 'open' : 'settled', outcome: r.outcome ?? 'none' }, r.n);
  };
}

function readDatabase(deps: MetricsDeps, now: Date) {
  return Promise.all([
    topicStats(deps.db),
    countFailedDeliveriesSince(deps.db, new Date(now.getTime() - 3_600_000)),
    outcomeCounts(deps.db),
  ]);
}

/** The database going away and coming back, counted since start (src/db/connect.ts). */
function outageCounters(registry: Registry, outages: Outages): void {
  new Counter({
    name: 'db_connection_errors_total',
    help: 'Pool connections lost under the service (lost), connects that failed (connect_failed), and checkouts refused at once during the back-off after a failed connect (backed_off)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ kind: 'lost' }, outages.connectionsLost);
      this.inc({ kind: 'connect_failed' }, outages.connectsFailed);
      this.inc({ kind: 'backed_off' }, outages.connectsBackedOff);
    },
  });
  new Counter({
    name: 'embedded_database_restarts_total',
    help: 'Restarts of the embedded database after it exited unexpectedly (always 0 on PostgreSQL)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(outages.embeddedRestarts);
    },
  });
}

/** Counts every answer by its route template (never the raw path: ids would explode the labels). */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(
      req.method,
      req.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
