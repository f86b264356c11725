// GET /metrics (docs/decisions/19-developers-and-operators.md): Prometheus text that a parser of the format reads,
// guarded by METRICS_TOKEN, whose figures move with the traffic and the queue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error no types are published for this parser
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

interface Family {
  name: string;
  type: string;
  metrics: {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
  }[];
}
const parse = parsePrometheusTextFormat as (text: string) => Family[];

describe('GET /metrics', () => {
  const TOKEN = 'metrics-token-for-tests-0123456789';
  let server: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    server = await startServer({
      isolatedDatabase: true,
      env: { METRICS_TOKEN: TOKEN, STAFF_EMAILS: staffEmail },
    });
    org = await organiser(server.url);
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await server.close();
  });

  async function scrape(): Promise<Family[]> {
    const r = await call(server.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    return parse(r.text);
  }
  const family = (fs: Family[], name: string) => fs.find((f) => f.name === name);
  const value = (fs: Family[], name: string, labels: Record<string, string>) =>
    Number(
      family(fs, name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
        ?.value ?? 0,
    );

  it('refuses a scrape without the token, or with another', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${TOKEN}x` },
    ] as Record<string, string>[]) {
      const r = await call(server.url, 'GET', '/metrics', { headers });
      assert.deepEqual([r.status, r.body.code], [401, 'invalid_metrics_token']);
    }
  });

  it('counts requests by route template and status, with latency histograms', async () => {
    const before = await scrape();
    const key = { route: '/api/v1/events/:id', method: 'GET', status: '404' };
    const count0 = value(before, 'http_requests_total', key);
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/ev_missing${i}`, { key: org.key })).status,
        404,
      );
    const after = await scrape();
    assert.equal(
      value(after, 'http_requests_total', key),
      count0 + 3,
      'three more, under one label set (the template, not the path)',
    );
    const hist = family(after, 'http_request_duration_seconds');
    assert.equal(hist?.type, 'HISTOGRAM');
    // (This parser keeps a histogram's buckets but not its labels.)
    assert.ok(
      hist!.metrics.some((m) => Number(m.buckets?.['+Inf']) >= 3),
      'the three requests are in a latency histogram',
    );
    assert.ok(
      !after.some((f) =>
        f.metrics.some((m) => Object.values(m.labels ?? {}).some((v) => v.includes('ev_missing'))),
      ),
      'no raw path in any label',
    );
  });

  it('shows the queue by topic and the age of its oldest job on the service’s clock; the pool’s use', async () => {
    const eventId = await createEvent(
      keyApi(server.url, org.key),
      { title: 'Free', startDate: '2027-02-01', capacity: 10 },
      { publish: true },
    );
    // This server runs no workers: the ticket mail waits in the queue.
    assert.equal(
      (
        await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
          key: org.key,
          body: { name: 'A', email: uniqueEmail('a') },
        })
      ).status,
      201,
    );
    server.clock.advance(90_000);
    const fs = await scrape();
    assert.ok(
      (family(fs, 'jobs_pending')?.metrics ?? []).some((m) => Number(m.value) >= 1),
      'a topic with a pending job',
    );
    assert.ok(value(fs, 'jobs_oldest_pending_age_seconds', {}) >= 90);
    assert.ok(value(fs, 'db_pool_connections', { state: 'total' }) >= 1);
    for (const name of [
      'jobs_dead',
      'jobs_retrying',
      'webhook_delivery_failures_last_hour',
      'reconcile_orders',
      'process_cpu_user_seconds_total',
    ]) {
      assert.ok(family(fs, name) !== undefined, `${name} is exposed`);
    }
  });
});
