// The jobs module's tables: their row types, and in JobsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Json } from '../db/columns.js';

/** The tables the jobs module owns. */
export interface JobsTables {
  jobs: JobsTable;
}

export interface JobsTable {
  id: string;
  topic: string;
  payload: Json<unknown>;
  status: Generated<JobStatus>;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  /** After this a failure parks the job as `dead` instead of retrying it; null: 72 hours after created_at. */
  retry_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Enqueue order (an identity column): breaks ties between jobs due at the same instant. */
  seq: ColumnType<string, never, never>;
}

export type JobStatus = 'pending' | 'done' | 'dead';
