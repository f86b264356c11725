// The queue in Redis (sorted sets, Lua scripts): one queue for every instance on that Redis.
// Keys per event under `wr:{<event id>}:` (one hash slot): `emails` (verified email → place),
// `phones` (verified phone → place), `places` (place → email), `pre` (the pre-queue by arrival; `frozen` while the opening moves it),
// `q` (the queue by score), `meta` (arrival counter, opening, seed, admission cursor), `adm`
// (place → when first seen admitted), `v:<id>` (a verification: the code's HMAC, its tries).
// Verifications expire an hour after their code; the room's keys at the `keepUntil` the service
// gives (a while after the event ends), renewed with every new place.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError, unavailable } from '../../lib/errors.js';
import type { PlaceState, QueueStore, Verification, Verified, VerifyInput } from './queue-store.js';
import { OPEN_BEGIN, OPEN_FINISH, OPEN_MOVE, PLACE, VERIFY } from './redis-scripts.js';

type Reply = (string | number)[];
interface Scripts {
  wrVerify(...args: string[]): Promise<Reply>;
  wrOpenBegin(...args: string[]): Promise<Reply>;
  /** The place ids go as one array (ioredis flattens it). */
  wrOpenMove(...args: (string | string[])[]): Promise<number>;
  wrOpenFinish(...args: string[]): Promise<number>;
  wrPlace(...args: string[]): Promise<Reply>;
}

const keys = (eventId: string) => {
  const b = `wr:{${eventId}}`;
  return {
    emails: `${b}:emails`,
    phones: `${b}:phones`,
    places: `${b}:places`,
    pre: `${b}:pre`,
    frozen: `${b}:frozen`,
    q: `${b}:q`,
    meta: `${b}:meta`,
    adm: `${b}:adm`,
    verification: (id: string) => `${b}:v:${id}`,
  };
};

/** A verification is kept this long after its code expires, to answer `code_expired` rather than forget it. */
const VERIFICATION_GRACE_MS = 3_600_000;
/**
 * How long the opening's reading and moving of the pre-queue may take (a million places: seconds):
 * its connection's command timeout, and its lease (by the service's clock), after which another
 * instance takes the move over.
 */
export const OPENING_TIMEOUT_MS = 60_000;
/** How long a status call waits for another instance's move before answering without a position. */
export const OPENING_WAIT_MS = 5_000;
/** Place ids read, and moved, per command: each holds Redis for milliseconds, never the whole opening. */
export const OPENING_CHUNK = 10_000;

export class RedisQueueStore implements QueueStore {
  readonly kind = 'redis' as const;
  readonly #redis: Redis & Scripts;
  readonly #opening = new Map<string, Promise<{ opened: boolean; count: number }>>();

  /** Redis not answering is an outage of the queue (503), not a fault of the request. */
  static outage(err: unknown): never {
    if (err instanceof AppError) throw err;
    throw unavailable('waiting_room_unavailable');
  }

  constructor(redis: Redis) {
    redis.defineCommand('wrVerify', { numberOfKeys: 8, lua: VERIFY });
    redis.defineCommand('wrOpenBegin', { numberOfKeys: 3, lua: OPEN_BEGIN });
    redis.defineCommand('wrOpenFinish', { numberOfKeys: 2, lua: OPEN_FINISH });
    redis.defineCommand('wrPlace', { numberOfKeys: 6, lua: PLACE });
    this.#redis = redis as Redis & Scripts;
  }

  async startVerification(eventId: string, v: Verification, now: Date): Promise<void> {
    const key = keys(eventId).verification(v.id);
    const ttl = Math.max(1000, v.expiresAt.getTime() - now.getTime() + VERIFICATION_GRACE_MS);
    await this.#redis
      .multi()
      .hset(key, {
        mac: v.codeMac,
        exp: String(v.expiresAt.getTime()),
        tries: '0',
        channel: v.channel,
        email: v.email,
        phone: v.phone ?? '',
      })
      .pexpire(key, ttl)
      .exec()
      .catch(RedisQueueStore.outage);
  }

  async verify(eventId: string, input: VerifyInput): Promise<Verified> {
    const k = keys(eventId);
    const r = await this.#redis
      .wrVerify(
        k.verification(input.verificationId),
        k.emails,
        k.phones,
        k.pre,
        k.q,
        k.meta,
        k.places,
        k.adm,
        input.codeMac,
        String(input.now.getTime()),
        input.placeId,
        String(input.maxAttempts),
        String(input.keepUntil.getTime()),
      )
      .catch(RedisQueueStore.outage);
    if (r[0] === 'wrong') return { kind: 'wrong', attemptsLeft: Number(r[1]) };
    if (r[0] === 'placed') return { kind: 'placed', placeId: String(r[1]), existing: Number(r[2]) === 1 };
    if (r[0] === 'expired' || r[0] === 'spent') return { kind: r[0] };
    return { kind: 'unknown' };
  }

  /**
   * The opening, in steps so that no command holds Redis for long with a pre-queue of hundreds of
   * thousands: one script freezes the pre-queue and marks the room open and moving under this
   * opener's token (later verifications queue after it); the frozen places are read in chunks,
   * ordered, and moved in chunks; a last script ends the move and starts admission. Nobody has a
   * position until then. An opener that dies mid-move leaves its lease to run out: the next
   * instance to ask resumes with the seed drawn first (the order is the seed's, so a repeat writes
   * the same ranks). One opening per event at a time in this process, so a crowd asking at opensAt
   * does not read the pre-queue once each; the bulk commands go on a connection of their own with
   * OPENING_TIMEOUT_MS, beyond the service's one-second command timeout.
   */
  async open(
    eventId: string,
    now: Date,
    rate: number,
    seedHex: string,
    order: (ids: string[], seedHex: string) => string[],
    keepUntil: Date,
  ) {
    const running = this.#opening.get(eventId);
    if (running) {
      await running.catch(() => {});
      return { opened: false, count: 0, seedHex };
    }
    const opening = this.#openOnce(eventId, now, rate, seedHex, order, keepUntil);
    this.#opening.set(eventId, opening);
    try {
      return await opening;
    } finally {
      this.#opening.delete(eventId);
    }
  }

  async #openOnce(
    eventId: string,
    now: Date,
    rate: number,
    seedHex: string,
    order: (ids: string[], seedHex: string) => string[],
    keepUntil: Date,
  ) {
    const k = keys(eventId);
    const token = randomUUID();
    const until = String(keepUntil.getTime());
    const begun = await this.#redis
      .wrOpenBegin(
        k.pre,
        k.frozen,
        k.meta,
        String(now.getTime()),
        String(rate),
        seedHex,
        until,
        String(now.getTime() + OPENING_TIMEOUT_MS),
        token,
      )
      .catch(RedisQueueStore.outage);
    if (begun[0] === 'busy') await this.#awaitMove(eventId);
    if (begun[0] === 'open' || begun[0] === 'busy') return { opened: false, count: 0, seedHex };
    const seed = String(begun[1]);
    if (begun[0] === 'opened') return { opened: true, count: 0, seedHex: seed };
    const bulk = this.#redis.duplicate({ commandTimeout: OPENING_TIMEOUT_MS, lazyConnect: true }) as Redis &
      Scripts;
    bulk.on('error', () => {});
    bulk.defineCommand('wrOpenMove', { numberOfKeys: 2, lua: OPEN_MOVE });
    try {
      await bulk.connect().catch(RedisQueueStore.outage);
      const n = Number(begun[2]);
      const frozen: string[] = [];
      for (let i = 0; i < n; i += OPENING_CHUNK)
        frozen.push(...(await bulk.zrange(k.frozen, i, i + OPENING_CHUNK - 1).catch(RedisQueueStore.outage)));
      const ids = order(frozen, seed);
      for (let i = 0; i < ids.length; i += OPENING_CHUNK) {
        const chunk = ids.slice(i, i + OPENING_CHUNK);
        const moved = await bulk
          .wrOpenMove(k.q, k.meta, token, String(i + 1), until, chunk)
          .catch(RedisQueueStore.outage);
        if (moved === -1) return { opened: false, count: 0, seedHex: seed };
      }
      const count = await this.#redis
        .wrOpenFinish(k.frozen, k.meta, token, String(now.getTime()))
        .catch(RedisQueueStore.outage);
      return count === -1
        ? { opened: false, count: 0, seedHex: seed }
        : { opened: true, count, seedHex: seed };
    } finally {
      bulk.disconnect();
    }
  }

  /**
   * Another instance is moving the pre-queue: wait for it (a look every 50 ms, for at most
   * OPENING_WAIT_MS), so a status call at the opening answers a position, as it does when the
   * move runs in this process. Past that the caller answers without one and is asked again.
   */
  async #awaitMove(eventId: string): Promise<void> {
    for (let waited = 0; waited < OPENING_WAIT_MS && !(await this.isOpen(eventId)); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** Open, with the pre-queue moved: false while an opening moves it. */
  async isOpen(eventId: string): Promise<boolean> {
    const [opened, moving] = await this.#redis
      .hmget(keys(eventId).meta, 'opened', 'moving')
      .catch(RedisQueueStore.outage);
    return opened !== null && moving === null;
  }

  async place(
    eventId: string,
    placeId: string,
    now: Date,
    rate: number,
    keepUntil: Date,
  ): Promise<PlaceState> {
    const k = keys(eventId);
    const r = await this.#redis
      .wrPlace(
        k.q,
        k.meta,
        k.adm,
        k.pre,
        k.places,
        k.frozen,
        placeId,
        String(now.getTime()),
        String(rate),
        String(keepUntil.getTime()),
      )
      .catch(RedisQueueStore.outage);
    if (r[0] === 'prequeue') return { kind: 'prequeue' };
    if (r[0] !== 'queued') return { kind: 'unknown' };
    const n = (i: number) => Number(r[i]);
    return {
      kind: 'queued',
      rank: n(1),
      admitted: n(2),
      total: n(3),
      cursor: { base: n(4), anchorMs: n(5), rate: n(6) },
      admittedAt: r[7] === '' ? null : n(7),
      fresh: n(8) === 1,
      email: String(r[9]),
    };
  }

  async spendProof(proof: string, now: Date, expiresAt: Date): Promise<boolean> {
    const ms = Math.max(1000, expiresAt.getTime() - now.getTime() + 60_000);
    const set = await this.#redis.set(`wr:proof:${proof}`, '1', 'PX', ms, 'NX').catch(RedisQueueStore.outage);
    return set === 'OK';
  }
}
