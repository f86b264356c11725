// Rate limits: per key (per IP without one), fixed one-minute windows, 429 with
// Retry-After and RateLimit-* headers; in process, or shared through Redis.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { RedisRateLimiter } from '../../src/shared/rate-limit.js';
import { ManualClock } from '../../src/shared/clock.js';
import { call, organiser } from '../helpers/http.js';
import { startServer, storage, type TestServer } from '../helpers/server.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A clock at the start of a minute, so a short test never straddles two windows. */
function minuteClock(): ManualClock {
  const now = Date.now();
  return new ManualClock(new Date(now - (now % 60_000) + 60_000 + 100));
}

async function redisAnswers(): Promise<boolean> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1000 });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

describe('rate limits in process', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '5' }, clock: minuteClock() });
  });
  after(async () => {
    await server.close();
  });

  it('counts per key, answers 429 with Retry-After and RateLimit-* headers, and resets with the window', async () => {
    // Sign-up and key creation go through the IP bucket of this server, which has room for five.
    const org = await organiser(server.url);
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call(server.url, 'GET', '/api/v1/me', { key: org.key });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('ratelimit-limit'), '5');
      seen.push(r.headers.get('ratelimit-remaining')!);
    }
    assert.deepEqual(seen, ['4', '3', '2', '1', '0']);
    const limited = await call(server.url, 'GET', '/api/v1/me', { key: org.key });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'rate_limited');
    assert.equal(typeof limited.body.error, 'string');
    const retry = Number(limited.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    assert.equal(limited.headers.get('ratelimit-reset'), String(retry));

    server.clock.advance(60_000);
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: org.key })).status, 200, 'a new window');
  });

  it('keeps each key’s count apart, and counts requests without a key per IP', async () => {
    server.clock.advance(60_000);
    const a = await organiser(server.url);
    server.clock.advance(60_000);
    const b = await organiser(server.url);
    server.clock.advance(60_000);
    for (let i = 0; i < 5; i++) await call(server.url, 'GET', '/api/v1/me', { key: a.key });
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: a.key })).status, 429);
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: b.key })).status, 200, 'another key is unaffected');

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(server.url, 'POST', '/auth/login', { body: { email: 'x@example.in', password: 'wrong password' } })).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429], 'the IP bucket');
    // Health checks are never limited.
    assert.equal((await call(server.url, 'GET', '/healthz')).status, 200);
  });
});

describe('rate limits shared through Redis', { skip: false }, () => {
  let available = true;
  before(async () => {
    available = await redisAnswers();
    if (!available && process.env.TEST_REDIS_URL) throw new Error(`TEST_REDIS_URL is set but Redis does not answer at ${REDIS_URL}`);
  });

  it('two limiters on one Redis share a key’s count within the window', async (t) => {
    if (!available) return t.skip(`no Redis at ${REDIS_URL}`);
    const logger = pino({ level: 'silent' });
    const one = new Redis(REDIS_URL);
    const two = new Redis(REDIS_URL);
    try {
      const a = new RedisRateLimiter(one, 6, logger);
      const b = new RedisRateLimiter(two, 6, logger);
      const bucket = `test:${randomUUID()}`;
      const at = minuteClock().now();
      const counts: number[] = [];
      for (let i = 0; i < 4; i++) {
        counts.push((await a.hit(bucket, at)).count);
        counts.push((await b.hit(bucket, at)).count);
      }
      assert.deepEqual(counts, [1, 2, 3, 4, 5, 6, 7, 8], 'one counter for both instances');
      const next = new Date(at.getTime() + 60_000);
      assert.equal((await a.hit(bucket, next)).count, 1, 'a new window starts from zero');
      const ttl = await one.pttl(`ratelimit:${bucket}:${Math.floor(at.getTime() / 60_000) * 60_000}`);
      assert.ok(ttl > 0 && ttl <= 61_000, 'counters expire with their window');
    } finally {
      one.disconnect();
      two.disconnect();
    }
  });

  it('two service instances sharing Redis enforce one limit for a key', async (t) => {
    if (!available) return t.skip(`no Redis at ${REDIS_URL}`);
    if (storage !== 'postgres') {
      // On PGlite each instance has its own database, so a key exists on one only;
      // the limiter-level test above covers the sharing, this one the HTTP answers.
      const clock = minuteClock();
      const server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '1000', REDIS_URL }, clock });
      try {
        const org = await organiser(server.url);
        const r = await call(server.url, 'GET', '/api/v1/me', { key: org.key });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('ratelimit-limit'), '1000');
        assert.equal(r.headers.get('ratelimit-remaining'), '999', 'the key’s first request in this window, counted in Redis');
      } finally {
        await server.close();
      }
      return;
    }
    const clock = minuteClock();
    const one = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '6', REDIS_URL }, clock });
    const two = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '6', REDIS_URL }, clock });
    try {
      // The account is made in another window so its sign-up does not count.
      clock.advance(-120_000);
      const org = await organiser(one.url);
      clock.advance(120_000);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await call(one.url, 'GET', '/api/v1/me', { key: org.key })).status);
        statuses.push((await call(two.url, 'GET', '/api/v1/me', { key: org.key })).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('rate limits when Redis is down', () => {
  it('let requests through rather than failing the API', async () => {
    const server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '1000', REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const org = await organiser(server.url);
      assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: org.key })).status, 200);
    } finally {
      await server.close();
    }
  });
});
