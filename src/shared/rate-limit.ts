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

export interface RateLimiter {
  hit(bucket: string, now: Date): Promise<RateLimitResult>;
}

const WINDOW_MS = 60_000;

function windowOf(now: Date): { start: number; resetSeconds: number } {
  const start = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  return { start, resetSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now.getTime()) / 1000)) };
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #limit: number;
  #windowStart = 0;
  #counts = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  async hit(bucket: string, now: Date): Promise<RateLimitResult> {
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
}

// INCR and set the expiry on the first hit, atomically.
const INCR_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
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

  async hit(bucket: string, now: Date): Promise<RateLimitResult> {
    const { start, resetSeconds } = windowOf(now);
    try {
      const count = (await this.#redis.eval(INCR_SCRIPT, 1, `ratelimit:${bucket}:${start}`, String(WINDOW_MS + 1000))) as number;
      return { count, limit: this.#limit, resetSeconds };
    } catch (err) {
      // Redis down must not take the API down: let the request through and say so.
      this.#logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; request allowed');
      return { count: 0, limit: this.#limit, resetSeconds };
    }
  }
}
