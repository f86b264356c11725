// The durable job queue: a transactional outbox in the `jobs` table. A job is
// inserted in the same transaction as the state change that causes it, so it
// exists exactly when that change committed. Workers claim due jobs with
// FOR UPDATE SKIP LOCKED under a lease; a worker that dies leaves its lease to
// expire and another worker (or the same one after a restart) runs the job again.
// Handlers must therefore be idempotent.
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { Clock } from '../shared/clock.js';
import type { Ids } from '../shared/ids.js';

export type JobHandler<P = unknown> = (payload: P, job: { id: string; attempts: number }) => Promise<void>;

/**
 * A job topic and the type of its payload, exported by the module that handles it.
 * Enqueueing through a definition checks the payload against that type, and the
 * handler registered for it (`handleJob`) receives the same type.
 */
export interface JobDefinition<P> {
  readonly topic: string;
  readonly maxAttempts: number;
  /** Carries the payload type only; never set. */
  readonly payloadType?: P;
}

export function defineJob<P>(topic: string, options: { maxAttempts?: number } = {}): JobDefinition<P> {
  return { topic, maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS };
}

/** Registers the handler of a defined job. The payload was written by `enqueue` with the same definition. */
export function handleJob<P>(handlers: Map<string, JobHandler>, def: JobDefinition<P>, handler: JobHandler<P>): void {
  handlers.set(def.topic, handler as JobHandler);
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
}

const DEFAULT_MAX_ATTEMPTS = 10;

/** A job as the values of its row, for a caller that inserts it inside a larger statement. */
export interface JobRow {
  id: string;
  topic: string;
  /** JSON text. */
  payload: string;
  maxAttempts: number;
}

export function jobRow<P>(deps: { ids: Ids }, def: JobDefinition<P>, payload: P, options: { maxAttempts?: number } = {}): JobRow {
  return { id: deps.ids.make('job'), topic: def.topic, payload: JSON.stringify(payload), maxAttempts: options.maxAttempts ?? def.maxAttempts };
}

/** Queues one job in the caller's transaction (the outbox row commits with the change or not at all). */
export async function enqueue<P>(
  db: Kysely<Database>,
  deps: { clock: Clock; ids: Ids },
  def: JobDefinition<P>,
  payload: P,
  options: EnqueueOptions = {},
): Promise<string> {
  const row = jobRow(deps, def, payload, options);
  const now = deps.clock.now();
  await insertJobs(db, [row], options.runAt ?? now, now);
  return row.id;
}

export async function enqueueRows(db: Kysely<Database>, deps: { clock: Clock }, rows: readonly JobRow[]): Promise<void> {
  if (rows.length === 0) return;
  const now = deps.clock.now();
  await insertJobs(db, rows, now, now);
}

async function insertJobs(db: Kysely<Database>, rows: readonly JobRow[], runAt: Date, now: Date): Promise<void> {
  await db
    .insertInto('jobs')
    .values(
      rows.map((r) => ({
        id: r.id,
        topic: r.topic,
        payload: r.payload,
        run_at: runAt,
        max_attempts: r.maxAttempts,
        created_at: now,
        locked_until: null,
        locked_by: null,
        last_error: null,
        finished_at: null,
      })),
    )
    .execute();
}

/** Delay before attempt n+1 after n failures: 1 s, 2 s, 4 s … capped at one hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failedAttempts - 1), 3_600_000);
}

export interface RunnerOptions {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  handlers: ReadonlyMap<string, JobHandler>;
  leaseMs?: number;
  pollMs?: number;
  batchSize?: number;
}

export class JobRunner {
  readonly #o: Required<RunnerOptions>;
  readonly #workerId: string;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = true;

  constructor(options: RunnerOptions) {
    this.#o = { leaseMs: 60_000, pollMs: 500, batchSize: 10, ...options };
    this.#workerId = options.ids.make('wrk', 6);
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Asks for a poll soon, e.g. after a commit that enqueued work in this process. */
  kick(): void {
    if (!this.#stopped && this.#running === undefined) this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #schedule(ms: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.runOnce()
        .catch((err: unknown) => this.#o.logger.error({ err }, 'job poll failed'))
        .then((count) => {
          this.#running = undefined;
          if (!this.#stopped) this.#schedule(count === this.#o.batchSize ? 0 : this.#o.pollMs);
        });
    }, ms);
    this.#timer.unref();
  }

  /** Claims and runs one batch of due jobs; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const { db, clock, leaseMs, batchSize, handlers, logger } = this.#o;
    const now = clock.now();
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
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
          .orderBy('run_at')
          .orderBy('created_at')
          .limit(batchSize)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'topic', 'payload', 'attempts', 'max_attempts'])
      .execute();

    await Promise.all(
      claimed.map(async (job) => {
        const handler = handlers.get(job.topic);
        try {
          if (!handler) throw new Error(`no handler for topic ${job.topic}`);
          await handler(job.payload, { id: job.id, attempts: job.attempts });
          await db
            .updateTable('jobs')
            .set({ status: 'done', finished_at: clock.now(), locked_until: null, last_error: null })
            .where('id', '=', job.id)
            .where('locked_by', '=', this.#workerId)
            .execute();
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const final = job.attempts >= job.max_attempts;
          logger.warn({ jobId: job.id, topic: job.topic, attempts: job.attempts, final, err: message }, 'job failed');
          await db
            .updateTable('jobs')
            .set({
              status: final ? 'failed' : 'pending',
              finished_at: final ? clock.now() : null,
              run_at: new Date(clock.now().getTime() + retryDelayMs(job.attempts)),
              locked_until: null,
              last_error: message.slice(0, 1000),
            })
            .where('id', '=', job.id)
            .where('locked_by', '=', this.#workerId)
            .execute();
        }
      }),
    );
    return claimed.length;
  }
}
