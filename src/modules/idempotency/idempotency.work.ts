// Idempotency keys are kept a day; the expired ones are pruned hourly.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ModuleWork } from '../../jobs/jobs.js';
import { pruneIdempotencyKeys } from './idempotency.hooks.js';

export function idempotencyWork(deps: { db: Kysely<Database> }): ModuleWork {
  return {
    jobs: [],
    maintenance: [
      {
        name: 'prune idempotency keys',
        everyMs: 3_600_000,
        run: (now) => pruneIdempotencyKeys(deps.db, now),
      },
    ],
  };
}
