// The durable job queue: a transactional outbox in the `jobs` table. A job is
// inserted in the same transaction as the state change that causes it, so it
// exists exactly when that change committed. Workers claim due jobs with
// FOR UPDATE SKIP LOCKED under a lease. A failure is retried with capped back-off
// (1 s doubling to 1 h) until the job's retry window (72 hours by default) has
// passed, then the job is parked as `dead` for staff to see and retry; it is never
// dropped silently. A worker that dies leaves its lease to expire: that counts as a
// failed attempt (so a one-attempt job is never run twice), and the job is retried
// like any other failure. Handlers must therefore be idempotent.
//
// Definitions, handlers' types and enqueueing are in jobs.ts (re-exported here); this file is
// the worker: JobRunner claims, runs and finishes jobs.
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { every, type Loop } from '../lib/every.js';
import type { Ids } from '../lib/ids.js';
import { givesUp, retryDelayMs, type MaintenanceTask, type RegisteredHandler } from './jobs.js';

export * from './jobs.js';

/** How often a worker looks for jobs whose worker died (their lease expired). */
const REAP_EVERY_MS = 5_000;

/** Periodic upkeep the workers run (pruning tables that only grow). */
export type { MaintenanceTask } from './jobs.js';

export interface RunnerOptions {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  handlers: ReadonlyMap<string, RegisteredHandler>;
  leaseMs?: number;
  pollMs?: number;
  batchSize?: number;
  maintenance?: readonly MaintenanceTask[];
}

export class JobRunner {
  readonly #o: Required<RunnerOptions>;
  readonly #workerId: string;
  #loop: Loop | undefined;
  /** When expired leases are next looked for, by the injected clock. */
  #nextReap = 0;
  /** When each maintenance task is next due, by the injected clock. */
  readonly #due = new Map<string, number>();

  constructor(options: RunnerOptions) {
    this.#o = { leaseMs: 60_000, pollMs: 500, batchSize: 50, maintenance: [], ...options };
    this.#workerId = options.ids.make('wrk', 6);
  }

  start(): void {
    if (this.#loop) return;
    const { pollMs, batchSize, logger } = this.#o;
    this.#loop = every(
      pollMs,
      async () => {
        await this.maintainIfDue();
        return this.runOnce();
      },
      // A full batch means more may be due: poll again at once.
      {
        next: (count) => (count === batchSize ? 0 : pollMs),
        onError: (err) => logger.error({ err }, 'job poll failed'),
      },
    );
  }

  /** Asks for a poll soon, e.g. after a commit that enqueued work in this process. */
  kick(): void {
    this.#loop?.kick();
  }

  async stop(): Promise<void> {
    const loop = this.#loop;
    this.#loop = undefined;
    await loop?.stop();
  }

  /**
   * Runs the maintenance tasks that are due by the injected clock (each at most once
   * per its period in this process; the tasks are idempotent, so several instances
   * may run them). The poll loop calls it; tests call it after moving the clock.
   */
  async maintainIfDue(): Promise<string[]> {
    const now = this.#o.clock.now();
    const ran: string[] = [];
    for (const task of this.#o.maintenance) {
      const due = this.#due.get(task.name) ?? 0;
      if (now.getTime() < due) continue;
      this.#due.set(task.name, now.getTime() + task.everyMs);
      try {
        await task.run(now);
        ran.push(task.name);
      } catch (err) {
        this.#o.logger.warn(
          { task: task.name, err: err instanceof Error ? err.message : String(err) },
          'maintenance failed',
        );
      }
    }
    return ran;
  }

  /**
   * Jobs whose worker died (lease expired, never finished): the attempt it claimed
   * counts as failed, so the job waits its back-off or, out of attempts or time, is
   * parked as dead. A one-attempt job is therefore never run a second time.
   */
  async reapExpiredLeases(now: Date): Promise<number> {
    const expired = await this.#o.db
      .selectFrom('jobs')
      .select(['id', 'topic', 'attempts', 'max_attempts', 'created_at', 'retry_until', 'locked_until'])
      .where('status', '=', 'pending')
      .where('locked_until', '<', now)
      .limit(100)
      .execute();
    for (const job of expired) {
      const dead = givesUp(job, now);
      const r = await this.#o.db
        .updateTable('jobs')
        .set({
          status: dead ? 'dead' : 'pending',
          finished_at: dead ? now : null,
          run_at: new Date(now.getTime() + retryDelayMs(job.attempts)),
          locked_until: null,
          locked_by: null,
          last_error: 'the worker running it stopped before finishing (lease expired)',
        })
        .where('id', '=', job.id)
        .where('status', '=', 'pending')
        .where('locked_until', '=', job.locked_until)
        .executeTakeFirst();
      if (r.numUpdatedRows > 0n)
        this.#o.logger.warn(
          { jobId: job.id, topic: job.topic, attempts: job.attempts, dead },
          'job lease expired',
        );
    }
    return expired.length;
  }

  /** Claims and runs one batch of due jobs; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const { db, clock, leaseMs, batchSize, handlers, logger } = this.#o;
    const now = clock.now();
    // Expired leases are looked for every few seconds (by the injected clock), not on every batch.
    if (now.getTime() >= this.#nextReap) {
      this.#nextReap = now.getTime() + REAP_EVERY_MS;
      await this.reapExpiredLeases(now);
    }
    const claimed = await db
      .updateTable('jobs')
      .set({
        locked_until: new Date(now.getTime() + leaseMs),
        locked_by: this.#workerId,
        attempts: sql`attempts + 1`,
      })
      .where('id', 'in', (qb) =>
        qb
          .selectFrom('jobs')
          .select('id')
          .where('status', '=', 'pending')
          .where('run_at', '<=', now)
          .where('locked_until', 'is', null)
          .orderBy('run_at')
          .orderBy('created_at')
          .orderBy('seq')
          .limit(batchSize)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'topic', 'payload', 'attempts', 'max_attempts', 'created_at', 'retry_until'])
      .execute();

    type Claimed = (typeof claimed)[number];
    const done: string[] = [];
    const fail = async (job: Claimed, err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      const final = givesUp(job, clock.now());
      logger.warn(
        { jobId: job.id, topic: job.topic, attempts: job.attempts, final, err: message },
        final ? 'job failed; parked as dead' : 'job failed; retried later',
      );
      await db
        .updateTable('jobs')
        .set({
          status: final ? 'dead' : 'pending',
          finished_at: final ? clock.now() : null,
          run_at: new Date(clock.now().getTime() + retryDelayMs(job.attempts)),
          locked_until: null,
          last_error: message.slice(0, 1000),
        })
        .where('id', '=', job.id)
        .where('locked_by', '=', this.#workerId)
        .execute();
    };
    const byTopic = new Map<string, Claimed[]>();
    for (const job of claimed) {
      const group = byTopic.get(job.topic);
      if (group) group.push(job);
      else byTopic.set(job.topic, [job]);
    }
    await Promise.all(
      [...byTopic].map(async ([topic, jobs]) => {
        const handler = handlers.get(topic);
        if (!handler)
          return Promise.all(jobs.map((job) => fail(job, new Error(`no handler for topic ${topic}`))));
        if ('many' in handler) {
          let outcomes: readonly unknown[];
          try {
            outcomes = await handler.many(
              jobs.map((j) => ({ payload: j.payload, id: j.id, attempts: j.attempts })),
            );
          } catch (err) {
            outcomes = jobs.map(() => err ?? new Error('the batch failed'));
          }
          return Promise.all(
            jobs.map((job, i) => (outcomes[i] === undefined ? done.push(job.id) : fail(job, outcomes[i]))),
          );
        }
        return Promise.all(
          jobs.map(async (job) => {
            try {
              await handler.one(job.payload, { id: job.id, attempts: job.attempts });
              done.push(job.id);
            } catch (err) {
              await fail(job, err);
            }
          }),
        );
      }),
    );
    // The batch's finished jobs in one statement (a crash before it runs them again: at least once, as before).
    if (done.length > 0) {
      await db
        .updateTable('jobs')
        .set({ status: 'done', finished_at: clock.now(), locked_until: null, last_error: null })
        .where('id', 'in', done)
        .where('locked_by', '=', this.#workerId)
        .execute();
    }
    return claimed.length;
  }
}
