// Fixed one-minute windows per bucket (a key id, a user id, or an IP). In process
// by default; in Redis when REDIS_URL is set so every instance shares the counters.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RateLimitResult {
  /** Requests counted in this window, this one included. */
  count: number;
  limit: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/** A counter of its own (failed logins, verification mails): `limit` per fixed window of `windowMs`. */
export interface LimitWindow {
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /** Counts one request in the bucket's window: the configured per-minute limit, or `window`. */
  hit(bucket: string, now: Date, window?: LimitWindow): Promise<RateLimitResult>;
  /** The bucket's count in its window without adding to it (count 0 when nothing was counted). */
  peek(bucket: string, now: Date, window: LimitWindow): Promise<RateLimitResult>;
  /** Takes one count back (an attempt counted up front that turned out not to count). */
  release(bucket: string, now: Date, window: LimitWindow): Promise<void>;
  /** Forgets the bucket's count in its window (what set off a lock went with the lock). */
  clear(bucket: string, now: Date, window: LimitWindow): Promise<void>;
}

const WINDOW_MS = 60_000;

function windowOf(now: Date, windowMs = WINDOW_MS): { start: number; resetSeconds: number } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start, resetSeconds: Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000)) };
}

const MAX_WINDOWED_BUCKETS = 100_000;

export class MemoryRateLimiter implements RateLimiter {
  readonly #limit: number;
  #windowStart = 0;
  #counts = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  // Counters with their own windows, each remembering when its window began.
  #windowed = new Map<string, { start: number; count: number }>();

  async hit(bucket: string, now: Date, window?: LimitWindow): Promise<RateLimitResult> {
    if (window) return this.#windowedHit(bucket, now, window, 1);
    const { start, resetSeconds } = windowOf(now);
    if (start !== this.#windowStart) {
      // A new window forgets every old counter at once, so memory stays bounded.
      this.#windowStart = start;
      this.#counts = new Map();
    }
    const count = (this.#counts.get(bucket) ?? 0) + 1;
    this.#counts.set(bucket, count);
    return { count, limit: this.#limit, resetSeconds };
  }

  async peek(bucket: string, now: Date, window: LimitWindow): Promise<RateLimitResult> {
    return this.#windowedHit(bucket, now, window, 0);
  }

  async release(bucket: string, now: Date, window: LimitWindow): Promise<void> {
    const entry = this.#windowed.get(`${window.windowMs}:${bucket}`);
    if (entry && entry.start === windowOf(now, window.windowMs).start && entry.count > 0) entry.count -= 1;
  }

  async clear(bucket: string, _now: Date, window: LimitWindow): Promise<void> {
    this.#windowed.delete(`${window.windowMs}:${bucket}`);
  }

  #windowedHit(bucket: string, now: Date, window: LimitWindow, add: number): RateLimitResult {
    const { start, resetSeconds } = windowOf(now, window.windowMs);
    const id = `${window.windowMs}:${bucket}`;
    let entry = this.#windowed.get(id);
    if (!entry || entry.start !== start) {
      if (add === 0) return { count: 0, limit: window.limit, resetSeconds };
      if (this.#windowed.size >= MAX_WINDOWED_BUCKETS) {
        // Bounded memory: drop the counters whose window has passed, or all if none has.
        for (const [k, e] of this.#windowed)
          if (e.start + window.windowMs <= now.getTime()) this.#windowed.delete(k);
        if (this.#windowed.size >= MAX_WINDOWED_BUCKETS) this.#windowed.clear();
      }
      entry = { start, count: 0 };
      this.#windowed.set(id, entry);
    }
    entry.count += add;
    return { count: entry.count, limit: window.limit, resetSeconds };
  }
}

// INCR and set the expiry on the first hit, atomically.
const INCR_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return c`;

// DECR only a counter that exists and is positive: never create one at -1.
const RELEASE_SCRIPT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return c`;

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #limit: number;
  readonly #logger: Logger;

  constructor(redis: Redis, limit: number, logger: Logger) {
    this.#redis = redis;
    this.#limit = limit;
    this.#logger = logger;
  }

  async hit(bucket: string, now: Date, window?: LimitWindow): Promise<RateLimitResult> {
    const windowMs = window?.windowMs ?? WINDOW_MS;
    const limit = window?.limit ?? this.#limit;
    const { start, resetSeconds } = windowOf(now, windowMs);
    try {
      const count = (await this.#redis.eval(
        INCR_SCRIPT,
        1,
        redisKey(bucket, start, window),
        String(windowMs + 1000),
      )) as number;
      return { count, limit, resetSeconds };
    } catch (err) {
      // Redis down must not take the API down: let the request through and say so.
      this.#logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; request allowed');
      return { count: 0, limit, resetSeconds };
    }
  }

  async peek(bucket: string, now: Date, window: LimitWindow): Promise<RateLimitResult> {
    const { start, resetSeconds } = windowOf(now, window.windowMs);
    try {
      const count = Number((await this.#redis.get(redisKey(bucket, start, window))) ?? 0);
      return { count, limit: window.limit, resetSeconds };
    } catch (err) {
      this.#logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; request allowed');
      return { count: 0, limit: window.limit, resetSeconds };
    }
  }

  async release(bucket: string, now: Date, window: LimitWindow): Promise<void> {
    const { start } = windowOf(now, window.windowMs);
    try {
      await this.#redis.eval(RELEASE_SCRIPT, 1, redisKey(bucket, start, window));
    } catch (err) {
      this.#logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; count not released');
    }
  }

  async clear(bucket: string, now: Date, window: LimitWindow): Promise<void> {
    try {
      await this.#redis.del(redisKey(bucket, windowOf(now, window.windowMs).start, window));
    } catch (err) {
      this.#logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; count not cleared');
    }
  }
}

function redisKey(bucket: string, start: number, window: LimitWindow | undefined): string {
  // The default one-minute keys keep their old names, so instances of both versions share them.
  return window ? `ratelimit:${bucket}:${window.windowMs}:${start}` : `ratelimit:${bucket}:${start}`;
}

/**
 * Badly signed webhooks (the gateway's, WhatsApp's) each address may send in a window before
 * it is answered 429. Correctly signed ones are never counted, so nobody can lock a sender out.
 */
export const BAD_SIGNATURES: LimitWindow = { limit: 20, windowMs: 60_000 };
