// Jobs of the durable queue (see queue.ts): their definitions and handlers' types, enqueueing
// in the caller's transaction (the outbox row commits with the change or not at all), and the
// retry policy (capped back-off within a retry window).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { Ids } from '../lib/ids.js';

export type JobHandler<P = unknown> = (payload: P, job: { id: string; attempts: number }) => Promise<void>;

/**
 * A handler given every job of its topic in a claimed batch at once, so it can read what
 * they need in one query and write in one statement. It answers each job, in order:
 * undefined when it is done, or the error it failed with (retried like any failure).
 */
export type JobBatchHandler<P = unknown> = (
  jobs: readonly { payload: P; id: string; attempts: number }[],
) => Promise<readonly unknown[]>;

export type RegisteredHandler = { one: JobHandler } | { many: JobBatchHandler };
export type JobHandlers = Map<string, RegisteredHandler>;

/**
 * A job topic and the type of its payload, exported by the module that handles it.
 * Enqueueing through a definition checks the payload against that type, and the
 * handler registered for it (`handleJob`) receives the same type.
 */
export interface JobDefinition<P> {
  readonly topic: string;
  /** 0: no limit on attempts; the retry window decides. */
  readonly maxAttempts: number;
  /** How long after queueing failures are still retried (default 72 hours). */
  readonly retryForMs: number;
  /** Carries the payload type only; never set. */
  readonly payloadType?: P;
}

export function defineJob<P>(
  topic: string,
  options: { maxAttempts?: number; retryForMs?: number } = {},
): JobDefinition<P> {
  return {
    topic,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    retryForMs: options.retryForMs ?? RETRY_WINDOW_MS,
  };
}

/** Registers the handler of a defined job. The payload was written by `enqueue` with the same definition. */
export function handleJob<P>(handlers: JobHandlers, def: JobDefinition<P>, handler: JobHandler<P>): void {
  handlers.set(def.topic, { one: handler as JobHandler });
}

/** Registers a handler that takes a claimed batch's jobs of this topic together. */
export function handleJobs<P>(
  handlers: JobHandlers,
  def: JobDefinition<P>,
  handler: JobBatchHandler<P>,
): void {
  handlers.set(def.topic, { many: handler as JobBatchHandler });
}

/** A module's handler for one topic, registered with the workers by the composition root. */
export type JobRegistration = (handlers: JobHandlers) => void;

/** The handler of a topic, one job at a time. */
export const onJob =
  <P>(def: JobDefinition<P>, handler: JobHandler<P>): JobRegistration =>
  (handlers) =>
    handleJob(handlers, def, handler);

/** The handler of a topic, given a claimed batch's jobs of it together. */
export const onJobBatch =
  <P>(def: JobDefinition<P>, handler: JobBatchHandler<P>): JobRegistration =>
  (handlers) =>
    handleJobs(handlers, def, handler);

/** Periodic upkeep the workers run (by the injected clock), such as pruning a table that only grows. */
export interface MaintenanceTask {
  name: string;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

/**
 * What a module hands the background workers: its job handlers and its periodic upkeep. Each
 * module that has background work exports one function answering this (`<m>.work.ts`); the
 * composition root (src/deps.ts) lists them and registers what they answer.
 */
export interface ModuleWork {
  readonly jobs: readonly JobRegistration[];
  readonly maintenance?: readonly MaintenanceTask[];
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  retryForMs?: number;
}

/** No limit on the number of attempts: a job is retried until its window has passed. */
const DEFAULT_MAX_ATTEMPTS = 0;
/** Failures are retried for at least this long after a job was queued. */
export const RETRY_WINDOW_MS = 72 * 3_600_000;
/** The longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/** A job as the values of its row, for a caller that inserts it inside a larger statement. */
export interface JobRow {
  id: string;
  topic: string;
  /** JSON text. */
  payload: string;
  maxAttempts: number;
  /** Undefined: the default window (72 hours). */
  retryForMs?: number | undefined;
}

export function jobRow<P>(
  deps: { ids: Ids },
  def: JobDefinition<P>,
  payload: P,
  options: { maxAttempts?: number; retryForMs?: number } = {},
): JobRow {
  const retryForMs = options.retryForMs ?? def.retryForMs;
  return {
    id: deps.ids.make('job'),
    topic: def.topic,
    payload: JSON.stringify(payload),
    maxAttempts: options.maxAttempts ?? def.maxAttempts,
    ...(retryForMs !== RETRY_WINDOW_MS ? { retryForMs } : {}),
  };
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

export async function enqueueRows(
  db: Kysely<Database>,
  deps: { clock: Clock },
  rows: readonly JobRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const now = deps.clock.now();
  await insertJobs(db, rows, now, now);
}

async function insertJobs(
  db: Kysely<Database>,
  rows: readonly JobRow[],
  runAt: Date,
  now: Date,
): Promise<void> {
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
        retry_until: r.retryForMs === undefined ? null : new Date(now.getTime() + r.retryForMs),
      })),
    )
    .execute();
}

/** Delay before attempt n+1 after n failures: 1 s, 2 s, 4 s … capped at one hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(1000 * 2 ** Math.min(40, Math.max(0, failedAttempts - 1)), MAX_RETRY_DELAY_MS);
}

/** Whether a job that just failed its `attempts`-th attempt is parked instead of retried. */
export function givesUp(
  job: { attempts: number; max_attempts: number; created_at: Date; retry_until: Date | null },
  now: Date,
): boolean {
  if (job.max_attempts > 0 && job.attempts >= job.max_attempts) return true;
  const until = job.retry_until ?? new Date(job.created_at.getTime() + RETRY_WINDOW_MS);
  return now.getTime() >= until.getTime();
}
