// What staff (the admin routes and the dashboard) see of the job queue: jobs by
// status, newest first, in pages; a dead job put back in the queue on demand.
import type { Kysely } from 'kysely';
import type { Database, JobStatus } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { appError, notFound } from '../lib/errors.js';
import { decodeCursor, pageOf } from '../lib/keyset-cursor.js';
import { RETRY_WINDOW_MS } from './queue.js';

export interface JobView {
  id: string;
  topic: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number | null;
  lastError: string | null;
  createdAt: string;
  runAt: string;
  finishedAt: string | null;
  retryUntil: string;
}

type JobRowFull = {
  id: string;
  topic: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: Date;
  run_at: Date;
  finished_at: Date | null;
  retry_until: Date | null;
};

function present(r: JobRowFull): JobView {
  return {
    id: r.id,
    topic: r.topic,
    status: r.status,
    attempts: r.attempts,
    maxAttempts: r.max_attempts > 0 ? r.max_attempts : null,
    lastError: r.last_error,
    createdAt: r.created_at.toISOString(),
    runAt: r.run_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
    retryUntil: (r.retry_until ?? new Date(r.created_at.getTime() + RETRY_WINDOW_MS)).toISOString(),
  };
}

const columns = [
  'id',
  'topic',
  'status',
  'attempts',
  'max_attempts',
  'last_error',
  'created_at',
  'run_at',
  'finished_at',
  'retry_until',
] as const;

/** Jobs in one status, newest first; the payload is not shown (it may hold personal data). */
export async function listJobs(
  db: Kysely<Database>,
  q: { status: JobStatus; limit: number; startingAfter?: string | undefined },
) {
  const after = decodeCursor(q.startingAfter);
  let query = db.selectFrom('jobs').select(columns).where('status', '=', q.status);
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.at),
        eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)]),
      ]),
    );
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const page = pageOf(rows, q.limit, (r) => ({ at: r.created_at, id: r.id }));
  const total = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', q.status)
    .executeTakeFirstOrThrow();
  return {
    data: page.items.map(present),
    count: Number(total.n),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
  };
}

/** How many jobs are parked as dead (the dashboard's warning). */
export async function countDeadJobs(db: Kysely<Database>): Promise<number> {
  const r = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'dead')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Puts a dead job back in the queue now, with its attempts counted afresh and a new
 * retry window. 404 for no such job; 409 `job_not_dead` for a job that is not dead.
 */
export async function retryJob(db: Kysely<Database>, clock: Clock, id: string): Promise<JobView> {
  const now = clock.now();
  const row = await db
    .updateTable('jobs')
    .set({
      status: 'pending',
      attempts: 0,
      run_at: now,
      retry_until: new Date(now.getTime() + RETRY_WINDOW_MS),
      finished_at: null,
      locked_until: null,
      locked_by: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'dead')
    .returning(columns)
    .executeTakeFirst();
  if (row) return present(row);
  const exists = await db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirst();
  if (!exists) throw notFound('no such job', 'job_not_found');
  throw appError('job_not_dead', `this job is ${exists.status}; only a dead job can be retried`);
}

/** Done jobs are kept this long; dead ones longer, for staff to look into. */
export const DONE_JOB_RETENTION_MS = 30 * 86_400_000;
export const DEAD_JOB_RETENTION_MS = 90 * 86_400_000;

/** Deletes finished jobs past their retention, a batch at a time; returns how many went. */
export async function pruneFinishedJobs(db: Kysely<Database>, now: Date, batch = 1000): Promise<number> {
  let total = 0;
  for (const [status, keepMs] of [
    ['done', DONE_JOB_RETENTION_MS],
    ['dead', DEAD_JOB_RETENTION_MS],
  ] as const) {
    const before = new Date(now.getTime() - keepMs);
    for (;;) {
      const r = await db
        .deleteFrom('jobs')
        .where('id', 'in', (qb) =>
          qb
            .selectFrom('jobs')
            .select('id')
            .where('status', '=', status)
            .where('finished_at', '<', before)
            .limit(batch),
        )
        .executeTakeFirst();
      const n = Number(r.numDeletedRows);
      total += n;
      if (n < batch) break;
    }
  }
  return total;
}

export interface TopicStats {
  topic: string;
  pending: number;
  /** Pending jobs that failed at least once and wait for another try (deliveries failing). */
  retrying: number;
  dead: number;
  oldestPendingAt: Date | null;
}

/** The queue by topic, for /metrics: depth, retries, dead jobs and the oldest waiting job. */
export async function topicStats(db: Kysely<Database>): Promise<TopicStats[]> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'topic',
      eb.fn.countAll<number>().filterWhere('status', '=', 'pending').as('pending'),
      eb.fn
        .countAll<number>()
        .filterWhere((w) => w.and([w('status', '=', 'pending'), w('attempts', '>', 0)]))
        .as('retrying'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'dead').as('dead'),
      eb.fn.min('created_at').filterWhere('status', '=', 'pending').as('oldest'),
    ])
    .where('status', 'in', ['pending', 'dead'])
    .groupBy('topic')
    .execute();
  return rows.map((r) => ({
    topic: r.topic,
    pending: Number(r.pending),
    retrying: Number(r.retrying),
    dead: Number(r.dead),
    oldestPendingAt: r.oldest === null ? null : new Date(r.oldest as unknown as string | Date),
  }));
}
