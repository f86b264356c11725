// The mail module's upkeep: test mode's kept mails are pruned hourly.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ModuleWork } from '../../jobs/jobs.js';
import { pruneKeptEmails } from './sandbox-mail.js';

export function mailWork(deps: { db: Kysely<Database> }): ModuleWork {
  return {
    jobs: [],
    maintenance: [
      { name: 'prune sandbox mails', everyMs: 3_600_000, run: (now) => pruneKeptEmails(deps.db, now) },
    ],
  };
}
