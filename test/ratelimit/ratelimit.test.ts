// Rate limits: RATE_LIMIT_PER_MINUTE per key (per client address without one, an IPv6 client
// by its /64) and RATE_LIMIT_PER_ACCOUNT_MINUTE over all of an account's keys, in fixed
// one-minute windows; every counted answer carries RateLimit-Limit/Remaining/Reset, a refusal
// is 429 rate_limited with Retry-After. Kept in process, or in Redis shared by instances.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { REDIS_URL, redisAnswers } from '../helpers/redis.js';
import { pino } from 'pino';
import { ManualClock } from '../../src/lib/clock.js';
import { RedisRateLimiter } from '../../src/http/rate-limit.js';
import { call, createKey, organiser, type Reply } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MINUTE = 60_000;

/**
 * A clock 100 ms into a minute no other run uses: a random minute up to ten years
 * ahead. Redis counters are keyed by bucket and window start, so two runs (or two
 * test files) on one Redis never share a window; 100 ms in, a test never straddles two.
 */
function freshMinuteClock(): ManualClock {
  const thisMinute = Math.floor(Date.now() / MINUTE) * MINUTE;
  return new ManualClock(new Date(thisMinute + randomInt(1, 5_000_000) * MINUTE + 100));
}

function windowStart(clock: ManualClock): number {
  return Math.floor(clock.now().getTime() / MINUTE) * MINUTE;
}

function assertLimited(r: Reply, limit: number, resetSeconds: number): void {
  assert.equal(r.status, 429, r.text);
  assert.equal(r.body.code, 'rate_limited');
  assert.equal(typeof r.body.error, 'string');
  assert.match(r.headers.get('content-type') ?? '', /^application\/json\b/);
  assert.ok(r.headers.get('x-request-id'));
  assert.equal(r.headers.get('retry-after'), String(resetSeconds));
  assert.equal(r.headers.get('ratelimit-limit'), String(limit));
  assert.equal(r.headers.get('ratelimit-remaining'), '0');
  assert.equal(r.headers.get('ratelimit-reset'), String(resetSeconds));
}

describe('rate limits in process', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '5' }, clock: freshMinuteClock() });
  });
  after(async () => {
    await server.close();
  });

  it('counts per key: five pass with falling RateLimit-Remaining, the sixth is 429; another key is unaffected; the next window lets it through', async () => {
    // Sign-ups count against this server's IP bucket (two of five); key calls against each key.
    const a = await organiser(server.url);
    const b = await organiser(server.url);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call(server.url, 'GET', '/api/v1/me', { key: a.key });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('ratelimit-limit'), '5');
      assert.equal(
        r.headers.get('ratelimit-reset'),
        '60',
        'seconds to the end of the window (the clock stands 0.1 s in)',
      );
      remaining.push(r.headers.get('ratelimit-remaining')!);
    }
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
    assertLimited(await call(server.url, 'GET', '/api/v1/me', { key: a.key }), 5, 60);
    assertLimited(await call(server.url, 'GET', '/api/v1/me', { key: a.key }), 5, 60);

    const other = await call(server.url, 'GET', '/api/v1/me', { key: b.key });
    assert.equal(other.status, 200, 'another key on the same server is unaffected');
    assert.equal(other.headers.get('ratelimit-remaining'), '4');

    // Later in the same window, Retry-After counts down.
    server.clock.advance(45_000);
    assertLimited(await call(server.url, 'GET', '/api/v1/me', { key: a.key }), 5, 15);

    server.clock.advance(15_000);
    const next = await call(server.url, 'GET', '/api/v1/me', { key: a.key });
    assert.equal(next.status, 200, 'the next window lets the key through');
    assert.equal(next.headers.get('ratelimit-remaining'), '4');
  });

  it('counts requests without a key per IP: health, readiness, metrics and the API description too', async () => {
    server.clock.advance(MINUTE);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (
          await call(server.url, 'POST', '/auth/login', {
            body: { email: 'nobody@example.in', password: 'wrong password' },
          })
        ).status,
      );
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401]);
    assertLimited(
      await call(server.url, 'POST', '/auth/login', {
        body: { email: 'nobody@example.in', password: 'wrong password' },
      }),
      5,
      60,
    );
    // The IP bucket holds every request without a key: an unknown key, no key, an unknown route.
    assertLimited(await call(server.url, 'GET', '/api/v1/me'), 5, 60);
    assertLimited(await call(server.url, 'GET', '/api/v1/me', { key: 'sk_test_not_a_key' }), 5, 60);
    assertLimited(await call(server.url, 'GET', '/api/v1/nothing-here'), 5, 60);

    // The open routes (a database ping, three aggregate queries, 700 KB of JSON) are no exception.
    for (const path of ['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json'])
      assertLimited(await call(server.url, 'GET', path), 5, 60);
    server.clock.advance(MINUTE);
    for (const path of ['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json']) {
      const r = await call(server.url, 'GET', path);
      assert.equal(r.status, 200, path);
      assert.equal(r.headers.get('ratelimit-limit'), '5', `${path} is counted`);
    }
  });

  it('an account’s keys together get RATE_LIMIT_PER_ACCOUNT_MINUTE (3 × the per-key limit by default): more keys are not more requests', async () => {
    server.clock.advance(MINUTE);
    assert.equal(server.deps.config.rateLimitPerAccountMinute, 15);
    const a = await organiser(server.url);
    const more = [
      await createKey(server.url, a.token),
      await createKey(server.url, a.token, { class: 'checkout' }),
      await createKey(server.url, a.token),
    ];
    server.clock.advance(MINUTE); // the session's own five requests a minute
    const revoked = await createKey(server.url, a.token);
    assert.equal(
      (await call(server.url, 'DELETE', `/dashboard/api/keys/${revoked.keyId}`, { token: a.token })).status,
      200,
    );
    server.clock.advance(MINUTE);
    // A revoked key's calls are refused and not counted against the account.
    for (let i = 0; i < 3; i++)
      assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: revoked.key })).status, 403);
    // Three keys of five requests each: the account's fifteen.
    const keys = [a.key, more[0]!.key, more[1]!.key];
    const remaining: string[] = [];
    for (const key of keys) {
      for (let i = 0; i < 5; i++) {
        const r = await call(server.url, 'GET', '/api/v1/me', { key });
        assert.equal(r.status, 200, r.text);
        remaining.push(r.headers.get('ratelimit-remaining')!);
      }
    }
    // The headers show whichever limit is nearer: the key's own first, the account's at the end.
    assert.deepEqual(remaining.slice(0, 5), ['4', '3', '2', '1', '0']);
    assert.deepEqual(remaining.slice(10), ['4', '3', '2', '1', '0']);
    const fourth = await call(server.url, 'GET', '/api/v1/me', { key: more[2]!.key });
    assertLimited(fourth, 15, 60);
    assert.match(fourth.body.error, /account/);
    // Another account is not affected; the next minute lets the key through.
    const b = await organiser(server.url);
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: b.key })).status, 200);
    server.clock.advance(MINUTE);
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: more[2]!.key })).status, 200);
  });
});

const redisUp = await redisAnswers();
// CI sets TEST_REDIS_URL: there a missing Redis fails these tests, it never skips them.
const redisSkip =
  !redisUp &&
  !process.env.TEST_REDIS_URL &&
  `no Redis answers at ${REDIS_URL}; set TEST_REDIS_URL to run these tests (they then never skip)`;

describe('rate limits shared through Redis', { skip: redisSkip }, () => {
  before(() => {
    if (!redisUp) throw new Error(`TEST_REDIS_URL is set but Redis does not answer at ${REDIS_URL}`);
  });

  it('two limiter instances on one Redis share a bucket’s count within a window', async () => {
    const logger = pino({ level: 'silent' });
    const one = new Redis(REDIS_URL);
    const two = new Redis(REDIS_URL);
    try {
      const a = new RedisRateLimiter(one, 6, logger);
      const b = new RedisRateLimiter(two, 6, logger);
      const bucket = `test:${randomUUID()}`;
      const clock = freshMinuteClock();
      const counts: number[] = [];
      for (let i = 0; i < 4; i++) {
        counts.push((await a.hit(bucket, clock.now())).count);
        counts.push((await b.hit(bucket, clock.now())).count);
      }
      assert.deepEqual(counts, [1, 2, 3, 4, 5, 6, 7, 8], 'one counter for both instances');
      const r = await a.hit(bucket, clock.now());
      assert.equal(r.limit, 6);
      assert.equal(r.resetSeconds, 60);
      const ttl = await one.pttl(`ratelimit:${bucket}:${windowStart(clock)}`);
      assert.ok(ttl > 0 && ttl <= 61_000, `counters expire with their window (pttl ${ttl})`);

      clock.advance(MINUTE);
      assert.equal((await b.hit(bucket, clock.now())).count, 1, 'a new window starts from zero');
    } finally {
      one.disconnect();
      two.disconnect();
    }
  });

  it('two service instances on one Redis enforce one limit per IP', async () => {
    // One clock for both, so they agree on the window; a fresh minute, so this IP
    // bucket (127.0.0.1) is shared with no other test using this Redis.
    const clock = freshMinuteClock();
    const env = { RATE_LIMIT_PER_MINUTE: '6', REDIS_URL };
    const one = await startServer({ env, clock });
    const two = await startServer({ env, clock });
    try {
      const answers: Reply[] = [];
      for (let i = 0; i < 4; i++) {
        answers.push(await call(one.url, 'GET', '/api/v1/me'));
        answers.push(await call(two.url, 'GET', '/api/v1/me'));
      }
      assert.deepEqual(
        answers.map((r) => r.status),
        [401, 401, 401, 401, 401, 401, 429, 429],
      );
      assert.deepEqual(
        answers.slice(0, 6).map((r) => r.headers.get('ratelimit-remaining')),
        ['5', '4', '3', '2', '1', '0'],
        'one count, whichever instance answers',
      );
      for (const r of answers.slice(6)) assertLimited(r, 6, 60);

      clock.advance(MINUTE);
      assert.equal(
        (await call(two.url, 'GET', '/api/v1/me')).headers.get('ratelimit-remaining'),
        '5',
        'the next window',
      );
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('a key’s count lives in Redis', async () => {
    const clock = freshMinuteClock();
    const server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '6', REDIS_URL }, clock });
    const redis = new Redis(REDIS_URL);
    try {
      const org = await organiser(server.url);
      for (let i = 0; i < 6; i++)
        assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: org.key })).status, 200);
      assertLimited(await call(server.url, 'GET', '/api/v1/me', { key: org.key }), 6, 60);
      assert.equal(
        await redis.get(`ratelimit:key:${org.keyId}:${windowStart(clock)}`),
        '7',
        'the count lives in Redis',
      );
    } finally {
      redis.disconnect();
      await server.close();
    }
  });

  it('two service instances on one Redis enforce one limit per key', async () => {
    const clock = freshMinuteClock();
    const env = { RATE_LIMIT_PER_MINUTE: '6', REDIS_URL };
    // Both instances on one database (the second through the first's socket on the embedded pass), so one key works on both.
    const one = await startServer({ env, clock });
    const two = await startServer({ env, clock, shareDatabaseWith: one });
    try {
      const org = await organiser(one.url);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await call(one.url, 'GET', '/api/v1/me', { key: org.key })).status);
        statuses.push((await call(two.url, 'GET', '/api/v1/me', { key: org.key })).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
      const redis = new Redis(REDIS_URL);
      try {
        assert.equal(
          await redis.get(`ratelimit:key:${org.keyId}:${windowStart(clock)}`),
          '8',
          'the count lives in Redis',
        );
      } finally {
        redis.disconnect();
      }
      clock.advance(MINUTE);
      assert.equal(
        (await call(two.url, 'GET', '/api/v1/me', { key: org.key })).status,
        200,
        'the next window',
      );
    } finally {
      await two.close();
      await one.close();
    }
  });
});

describe('rate limits when Redis is down', () => {
  it('let requests through rather than failing the API', async () => {
    // Port 1: nothing listens; the limiter logs and allows.
    const server = await startServer({
      env: { RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: 'redis://127.0.0.1:1' },
    });
    try {
      const org = await organiser(server.url);
      for (let i = 0; i < 4; i++)
        assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: org.key })).status, 200);
    } finally {
      await server.close();
    }
  });
});
