// How an answer read from the read pool (read-pool.ts) says how far behind the replica was, and
// what the operations that read there say about it.

/** The header an answer read from the read pool carries: the replica's lag, in seconds. */
export const REPLICA_LAG_HEADER = 'x-replica-lag';

/** The lag as the header says it: seconds, to the millisecond. */
export const lagHeaderValue = (seconds: number) => seconds.toFixed(3);

/** What an operation that reads from the read pool says about it (its OpenAPI description). */
export const READ_POOL_NOTE =
  'Read from the read pool: a streaming replica when `DATABASE_READ_URL` is set, so a change made a moment ago may be missing; the `X-Replica-Lag` header says how many seconds behind the replica was (0 when caught up or without one).';
