// The drop simulation behind `npm run drop-sim` (docs/decisions/26-a-fair-waiting-room.md): the
// real service started in this process (test/helpers/server.ts) with its queue in Redis and a
// ManualClock, arrivals driven through the waiting room's own use cases (challenge, join, verify,
// status: the same functions the routes call), and the admitted buyers booking through the
// hosted page's HTTP register call with their admission token. Arrivals are streamed: per
// arrival only a few typed-array slots and its status token are kept.
import { createHmac, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { AppError } from '../src/lib/errors.js';
import { ManualClock } from '../src/lib/clock.js';
import { shuffledOrder } from '../src/modules/waiting-room/shuffle.js';
import * as contact from '../src/modules/waiting-room/contact-verification.js';
import * as room from '../src/modules/waiting-room/waiting-room.service.js';
import { createEventData, keyApi } from '../test/helpers/factories.js';
import { call, createKey, organiser } from '../test/helpers/http.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { inversions, OpenSessions, orderIndependence, quantile, seededRandom } from './drop-sim-stats.js';

export interface DropSimOptions {
  arrivals: number;
  redisUrl: string;
  /** Seeds the arrivals' kinds and the buyers' choices (the opening's shuffle seed is the service's own). */
  seed: number;
  /** Share of arrivals that come before the opening (the pre-queue). */
  preQueueShare: number;
  botShare: number;
  capacity: number;
  admitPerMinute: number;
  sessionMinutes: number;
  /** Minutes of arrivals before the opening, and after it. */
  preMinutes: number;
  laterMinutes: number;
  /** Arrivals that come at one moment of the clock and are handled concurrently. */
  batch: number;
  /** The challenge's difficulty (WAITING_ROOM_POW_MAX_NUMBER): the service's minimum, since every arrival solves one. */
  powMaxNumber: number;
  joinsPerAddressMinute: number;
  /** Share of admitted buyers who never come back for the answer (their slot is spent). */
  noShowShare: number;
  progress?: (line: string) => void;
}

export const DEFAULTS: Omit<DropSimOptions, 'redisUrl'> = {
  arrivals: 1_000_000,
  seed: 26,
  preQueueShare: 0.4,
  botShare: 0.1,
  capacity: 1_000,
  admitPerMinute: 120,
  sessionMinutes: 10,
  preMinutes: 60,
  laterMinutes: 30,
  batch: 250,
  powMaxNumber: 10,
  joinsPerAddressMinute: 20,
  noShowShare: 0.05,
};

/** Bots: no proof, a spent proof replayed, a contact that already holds a place, joins in bursts from one address. */
export const BOT_KINDS = ['skip', 'replay', 'reuse', 'burst'] as const;
export type BotKind = (typeof BOT_KINDS)[number];
const HONEST = 0;
/** Joins of one burst, all from one address (over the per-address limit a minute). */
export const BURST = 25;
const TOKEN_BYTES = 64;

export interface DropSimFigures {
  options: Omit<DropSimOptions, 'progress'>;
  honest: number;
  bots: Record<BotKind, { arrivals: number; refused: Record<string, number>; places: number }>;
  botPlaces: number;
  /** Places a burst's joins within the per-address limit took (each with a mailbox of its own). */
  farmPlaces: number;
  preQueue: number;
  later: number;
  openingMs: number;
  chiSquare: ReturnType<typeof orderIndependence>;
  /** Pre-queue places out of the order HMAC(audited seed, placeId) gives. */
  outOfAuditedOrder: number;
  laterInversions: number;
  retries: number;
  admitted: number;
  noShows: number;
  booked: number;
  soldOut: number;
  bookingErrors: Record<string, number>;
  sold: number;
  oversold: number;
  mostInSession: number;
  sessionBound: number;
  status: { count: number; p50: number; p99: number; max: number };
  queueBytes: number;
  places: number;
  bytesPerPlace: number;
  wallSeconds: number;
  peakRssMb: number;
}

type Entered = { ok: true; token: string } | { ok: false; code: string };

const SIM_CODE_KEY = randomBytes(32);
/** The code a verification's mail carries in this simulation (six digits from an HMAC of its id). */
const codeOf = (verificationId: string): string =>
  String(
    createHmac('sha256', SIM_CODE_KEY).update(verificationId).digest().readUInt32BE(0) % 1_000_000,
  ).padStart(6, '0');

export async function runDropSim(o: DropSimOptions): Promise<DropSimFigures> {
  const started = performance.now();
  const say = o.progress ?? (() => {});
  const random = seededRandom(o.seed);
  const n = o.arrivals;
  const preCount = Math.round(n * o.preQueueShare);
  const t0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const opensAt = t0.getTime() + o.preMinutes * 60_000;
  const clock = new ManualClock(t0);
  // A database of its own (on PostgreSQL; the embedded one always is): the join's code mails are
  // a job each, and a shared queue of tens of thousands would hold up every other test's jobs.
  const server = await startServer({
    clock,
    isolatedDatabase: true,
    env: {
      REDIS_URL: o.redisUrl,
      WAITING_ROOM_POW_MAX_NUMBER: String(o.powMaxNumber),
      WAITING_ROOM_JOINS_PER_ADDRESS_MINUTE: String(o.joinsPerAddressMinute),
    },
  });
  const redis = new Redis(o.redisUrl);
  let eventId = '';
  try {
    const org = await organiser(server.url, 'test');
    const pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    const ev = await createEventData(
      keyApi(server.url, org.key),
      {
        capacity: o.capacity,
        onSale: {
          opensAt: new Date(opensAt).toISOString(),
          waitingRoom: { enabled: true, admitPerMinute: o.admitPerMinute, sessionMinutes: o.sessionMinutes },
        },
      },
      { publish: true },
    );
    eventId = ev.id;
    const sim = new Sim(o, server, ev.slug, pk, random);

    // Before the opening: the pre-queue.
    const preBatches = Math.ceil(preCount / o.batch);
    for (let b = 0; b < preBatches; b++) {
      clock.set(new Date(t0.getTime() + Math.floor((b * o.preMinutes * 60_000) / preBatches)));
      await sim.arrive(b * o.batch, Math.min(preCount, (b + 1) * o.batch), b);
      if (b % 200 === 0) say(`pre-queue: ${Math.min(preCount, (b + 1) * o.batch)} of ${preCount} arrivals`);
    }
    // The opening: the first status call at opensAt opens the room; then every pre-queue buyer asks once.
    clock.set(new Date(opensAt));
    const openingMs = await sim.openingSweep(preCount);
    say(`opened: pre-queue shuffled in ${openingMs.toFixed(0)} ms; every pre-queue buyer asked once`);

    // After the opening: later arrivals, the head of the queue asking every second and booking.
    const laterBatches = Math.ceil((n - preCount) / o.batch);
    const laterMs = o.laterMinutes * 60_000;
    let second = opensAt;
    for (let b = 0; b < laterBatches; b++) {
      const at = opensAt + Math.floor(((b + 1) * laterMs) / (laterBatches + 1));
      for (; second + 1000 <= at; second += 1000) await sim.admitHead(clock, second + 1000);
      clock.set(new Date(at));
      const from = preCount + b * o.batch;
      await sim.arrive(from, Math.min(n, from + o.batch), preBatches + b);
      if (b % 200 === 0) say(`later: ${Math.min(n, from + o.batch) - preCount} of ${n - preCount} arrivals`);
    }
    const memory = await queueMemory(redis, ev.id);
    // Admission goes on until the seats are gone and a whole session has run with them.
    const end = Math.max(second, opensAt + laterMs) + (o.sessionMinutes + 1) * 60_000;
    while (second < end || (sim.sold < o.capacity && !sim.exhausted)) {
      if (second > end + 24 * 3600_000) throw new Error('the seats did not sell within a day of admissions');
      second += 1000;
      await sim.admitHead(clock, second);
    }
    const sold = await soldSeats(server, ev.id);
    const seed = await auditedSeed(server, ev.id);
    const { progress: _, ...options } = o;
    return {
      options,
      ...sim.figures(preCount, seed),
      openingMs,
      sold,
      oversold: Math.max(0, sold - o.capacity),
      ...memory,
      wallSeconds: (performance.now() - started) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    if (eventId) await dropKeys(redis, eventId);
    redis.disconnect();
    await server.close();
  }
}

/** The arrivals' state: typed arrays by arrival index, and the counters. */
class Sim {
  readonly kind: Uint8Array;
  readonly position: Int32Array;
  readonly byPosition: Int32Array;
  readonly tokens: Buffer;
  readonly tokenLength: Uint8Array;
  readonly batchOf: Int32Array;
  readonly statusMs: Float64Array;
  statusCount = 0;
  readonly bots = Object.fromEntries(
    BOT_KINDS.map((k) => [k, { arrivals: 0, refused: {} as Record<string, number>, places: 0 }]),
  ) as DropSimFigures['bots'];
  readonly sessions: OpenSessions;
  readonly spent: string[] = [];
  readonly placedEmails: number[] = [];
  farms = 0;
  /** Settles once some buyer's join went through: the replaying and reusing bots need one to copy. */
  readonly firstPlaced: Promise<void>;
  #placed: () => void = () => {};
  head = 1;
  /** Calls answered 503 (Redis did not answer within the service's timeout) and asked again. */
  retries = 0;
  lastKnown = 0;
  admitted = 0;
  noShows = 0;
  booked = 0;
  soldOut = 0;
  sold = 0;
  readonly bookingErrors: Record<string, number> = {};

  constructor(
    readonly o: DropSimOptions,
    readonly server: TestServer,
    readonly slug: string,
    readonly pk: string,
    readonly random: () => number,
  ) {
    const n = o.arrivals;
    this.kind = new Uint8Array(n);
    this.position = new Int32Array(n);
    this.byPosition = new Int32Array(n + 2).fill(-1);
    this.tokens = Buffer.alloc(n * TOKEN_BYTES);
    this.tokenLength = new Uint8Array(n);
    this.batchOf = new Int32Array(n);
    this.statusMs = new Float64Array(n + 200_000);
    this.sessions = new OpenSessions(o.sessionMinutes * 60_000);
    this.firstPlaced = new Promise((resolve) => {
      this.#placed = resolve;
    });
  }

  #wr: room.WaitingRoomDeps | undefined;
  /**
   * The service's waiting room with one change: each verification's code is derived from its id
   * under a key only this simulation holds, so an honest buyer "reads their mail" by deriving it,
   * and a bot using someone else's contact, which never gets that mail, can only guess.
   */
  get wr(): room.WaitingRoomDeps {
    this.#wr ??= { ...this.server.deps.waitingRoom, newCode: (id: string) => codeOf(id) };
    return this.#wr;
  }

  /**
   * Arrivals from..to-1, all at the clock's present moment, handled concurrently. A burst takes
   * BURST arrivals in a row (cut at the batch's end), all from one address of its own.
   */
  async arrive(from: number, to: number, batch: number): Promise<void> {
    const work: Promise<void>[] = [];
    const single = (this.o.botShare * 3) / 4;
    const burst = single + this.o.botShare / 4 / BURST;
    for (let i = from; i < to; ) {
      const r = this.random();
      if (r >= single && r < burst) {
        const farm = this.farms++;
        for (const end = Math.min(to, i + BURST); i < end; i++) {
          this.batchOf[i] = batch;
          this.kind[i] = 4;
          work.push(this.bot(i, 'burst', farm));
        }
        continue;
      }
      this.batchOf[i] = batch;
      const k = r < single ? 1 + Math.floor((r / single) * 3) : HONEST;
      this.kind[i] = k;
      work.push(k === HONEST ? this.honest(i) : this.bot(i, BOT_KINDS[k - 1]!, 0));
      i++;
    }
    await Promise.all(work);
  }

  async solved(): Promise<string> {
    const challenge = (await room.challenge(this.wr, this.slug)) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('a challenge was not solved');
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }

  /** Answers 503 waiting_room_unavailable get asked again, as a buyer would, a moment later. */
  async again<T>(f: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await f();
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'waiting_room_unavailable' || attempt >= 10) throw err;
        this.retries += 1;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  /** Join (the proof, the address's limit, a code sent), then verify with the code: read from the mail, or guessed. */
  async enter(email: string, altcha: string | undefined, address: string, hasMail = true): Promise<Entered> {
    try {
      const joining = await contact.join(this.wr, this.slug, { email, altcha }, address);
      // A guess is drawn among the wrong codes: a right one (one in a million a try, five tries a
      // code) would be luck the simulation cannot count on, not a hole it should report.
      const right = codeOf(joining.verificationId);
      const guess = (Number(right) + 1 + Math.floor(this.random() * 999_999)) % 1_000_000;
      const code = hasMail ? right : String(guess).padStart(6, '0');
      const r = await contact.verify(this.wr, this.slug, { verificationId: joining.verificationId, code });
      return { ok: true, token: r.statusToken };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, code: err.code };
      throw err;
    }
  }

  async honest(i: number): Promise<void> {
    // A join answered 503 may have spent its proof already: the buyer solves a new challenge.
    let altcha = await this.solved();
    let r = await this.enter(emailOf(i), altcha, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    for (let attempt = 1; !r.ok && r.code === 'waiting_room_unavailable' && attempt < 10; attempt++) {
      this.retries += 1;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      altcha = await this.solved();
      r = await this.enter(emailOf(i), altcha, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    }
    if (!r.ok) throw new Error(`an honest arrival was refused: ${r.code}`);
    this.tokenLength[i] = this.tokens.write(r.token, i * TOKEN_BYTES, 'latin1');
    if (this.spent.length < 64) this.spent.push(altcha);
    else this.spent[i % 64] = altcha;
    if (this.placedEmails.length < 64) this.placedEmails.push(i);
    this.#placed();
    // After the opening a buyer asks at once where they stand.
    if (i >= Math.round(this.o.arrivals * this.o.preQueueShare)) await this.ask(i);
  }

  async bot(i: number, kind: BotKind, farm: number): Promise<void> {
    const b = this.bots[kind];
    b.arrivals += 1;
    const email = `bot${i}@example.in`;
    let r: Entered;
    if (kind === 'skip') r = await this.enter(email, undefined, `172.16.${(i >> 8) & 255}.${i & 255}`);
    else if (kind === 'replay') {
      await this.firstPlaced;
      const altcha = this.spent[Math.floor(this.random() * this.spent.length)]!;
      r = await this.enter(email, altcha, `172.17.${(i >> 8) & 255}.${i & 255}`);
    } else if (kind === 'reuse') {
      await this.firstPlaced;
      const victim = this.placedEmails[Math.floor(this.random() * this.placedEmails.length)]!;
      // The bot has the victim's address but not their mailbox: the code goes to the victim.
      r = await this.enter(
        emailOf(victim),
        await this.solved(),
        `172.18.${(i >> 8) & 255}.${i & 255}`,
        false,
      );
    } else r = await this.enter(email, await this.solved(), `198.18.${(farm >> 8) & 255}.${farm & 255}`);
    if (r.ok) b.places += 1;
    else b.refused[r.code] = (b.refused[r.code] ?? 0) + 1;
  }

  tokenOf(i: number): string {
    return this.tokens.toString('latin1', i * TOKEN_BYTES, i * TOKEN_BYTES + this.tokenLength[i]!);
  }

  async ask(i: number): Promise<room.QueueStatus> {
    const t = performance.now();
    const s = await this.again(() => room.status(this.wr, this.slug, this.tokenOf(i)));
    if (this.statusCount < this.statusMs.length) this.statusMs[this.statusCount++] = performance.now() - t;
    if (s.position !== null && this.position[i] === 0) {
      this.position[i] = s.position;
      this.byPosition[s.position] = i;
      this.lastKnown = Math.max(this.lastKnown, s.position);
    }
    return s;
  }

  /** The opening (the first pre-queue buyer's status call at opensAt), then every pre-queue buyer's first answer. */
  async openingSweep(preCount: number): Promise<number> {
    let first = 0;
    while (first < preCount && this.kind[first] !== HONEST) first++;
    const t = performance.now();
    if (first < preCount) await this.ask(first);
    const openingMs = performance.now() - t;
    for (let from = first + 1; from < preCount; from += this.o.batch) {
      const work: Promise<unknown>[] = [];
      for (let i = from; i < Math.min(preCount, from + this.o.batch); i++)
        if (this.kind[i] === HONEST) work.push(this.ask(i));
      await Promise.all(work);
    }
    return openingMs;
  }

  /** At `at`, the buyers at the head ask (as a waiting page near the head does, every second); the admitted book. */
  async admitHead(clock: ManualClock, at: number): Promise<void> {
    clock.set(new Date(at));
    const bookings: Promise<void>[] = [];
    for (; this.head < this.byPosition.length; this.head++) {
      const i = this.byPosition[this.head]!;
      if (i < 0) {
        // Below the last known position: a place of a bot, which never asks. Beyond it: nobody yet.
        if (this.head > this.lastKnown) break;
        continue;
      }
      if (this.random() < this.o.noShowShare) {
        // Never comes back: the slot is spent when the cursor passes it.
        this.noShows += 1;
        continue;
      }
      const s = await this.ask(i);
      if (s.state !== 'admitted') break;
      this.admitted += 1;
      this.sessions.start(at);
      bookings.push(this.book(i, s.admissionToken));
    }
    await Promise.all(bookings);
  }

  /** The walk reached the end of the queue as far as anyone has asked. */
  get exhausted(): boolean {
    return this.head > this.lastKnown;
  }

  async book(i: number, admissionToken: string): Promise<void> {
    const r = await call(this.server.url, 'POST', `/e/${this.slug}/register`, {
      body: { key: this.pk, name: `Buyer ${i}`, email: emailOf(i), admissionToken },
      headers: { origin: this.server.url },
    });
    if (r.status === 201) {
      this.booked += 1;
      this.sold += 1;
    } else if (r.status === 409 && r.body?.code === 'sold_out') this.soldOut += 1;
    else {
      const key = `${r.status} ${r.body?.code ?? ''}`.trim();
      this.bookingErrors[key] = (this.bookingErrors[key] ?? 0) + 1;
    }
  }

  figures(preCount: number, seed: Buffer | undefined) {
    const n = this.o.arrivals;
    // The pre-queue: arrival rank against position, and the order the audited seed gives.
    const pre: number[] = [];
    for (let i = 0; i < preCount; i++) if (this.kind[i] === HONEST && this.position[i]! > 0) pre.push(i);
    const byPos = [...pre].sort((a, b) => this.position[a]! - this.position[b]!);
    const rankOf = new Map(byPos.map((i, r) => [i, r]));
    const chiSquare = orderIndependence(
      pre.map((_, r) => r),
      pre.map((i) => rankOf.get(i)!),
    );
    let outOfAuditedOrder = pre.length;
    if (seed) {
      const ids = pre.map((i) => this.tokenOf(i).split('.')[0]!);
      const expected = shuffledOrder(seed, ids);
      const actual = byPos.map((i) => this.tokenOf(i).split('.')[0]!);
      outOfAuditedOrder = expected.filter((id, k) => actual[k] !== id).length;
    }
    // Later arrivals: each one's arrival time (its batch) against its position.
    const later: number[] = [];
    for (let i = preCount; i < n; i++) if (this.kind[i] === HONEST && this.position[i]! > 0) later.push(i);
    const laterInversions = inversions(
      later.map((i) => this.batchOf[i]!),
      later.map((i) => this.position[i]!),
      n + 1,
    );
    const honest = this.kind.reduce((s, k) => s + (k === HONEST ? 1 : 0), 0);
    const c = this.statusCount;
    return {
      honest,
      bots: this.bots,
      // Bots that must never hold a place: no proof, a replayed proof, someone else's contact. A
      // farm's burst from one address, each join with a mailbox of its own, is a crowd of buyers
      // to the room: the per-address limit bounds it, reported apart (farmPlaces).
      botPlaces: this.bots.skip.places + this.bots.replay.places + this.bots.reuse.places,
      farmPlaces: this.bots.burst.places,
      preQueue: pre.length,
      later: later.length,
      chiSquare,
      outOfAuditedOrder,
      laterInversions,
      retries: this.retries,
      admitted: this.admitted,
      noShows: this.noShows,
      booked: this.booked,
      soldOut: this.soldOut,
      bookingErrors: this.bookingErrors,
      mostInSession: this.sessions.most,
      sessionBound: this.o.admitPerMinute * this.o.sessionMinutes,
      status: {
        count: c,
        p50: quantile(this.statusMs, c, 0.5),
        p99: quantile(this.statusMs, c, 0.99),
        max: quantile(this.statusMs, c, 1),
      },
    };
  }
}

const emailOf = (i: number) => `b${i}@example.in`;

/** The event's queue keys in Redis and their size (MEMORY USAGE, every element counted). */
async function queueMemory(redis: Redis, eventId: string) {
  const keys = await keysOf(redis, eventId);
  let queueBytes = 0;
  for (const k of keys) queueBytes += Number((await redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '0')) ?? 0);
  const places = await redis.zcard(`wr:{${eventId}}:q`);
  return { queueBytes, places, bytesPerPlace: places ? queueBytes / places : 0 };
}

async function keysOf(redis: Redis, eventId: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `wr:{${eventId}}:*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Removes the event's keys, a thousand per command (a million verifications would overflow one call's arguments). */
async function dropKeys(redis: Redis, eventId: string): Promise<void> {
  const keys = await keysOf(redis, eventId);
  for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
}

/** Seats taken by the event's bookings, from the database. */
async function soldSeats(server: TestServer, eventId: string): Promise<number> {
  const r = await server.deps.db
    .selectFrom('registrations')
    .select(sql<string>`coalesce(sum(quantity), 0)`.as('seats'))
    .where('event_id', '=', eventId)
    .where('status', 'in', ['confirmed', 'pending', 'refunding'])
    .executeTakeFirstOrThrow();
  return Number(r.seats);
}

/** The shuffle seed the opening wrote to the audit log. */
async function auditedSeed(server: TestServer, eventId: string): Promise<Buffer | undefined> {
  const row = await server.deps.db
    .selectFrom('audit_log')
    .select('after')
    .where('action', '=', 'event.queue_open')
    .where('target_id', '=', eventId)
    .executeTakeFirst();
  const hex = (row?.after as { shuffleSeed?: string } | null)?.shuffleSeed;
  return hex ? Buffer.from(hex, 'hex') : undefined;
}
