// The idempotency module's tables: their row types, and in IdempotencyTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the idempotency module owns. */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}

export interface IdempotencyKeysTable {
  account_id: string;
  mode: Mode;
  key: string;
  request_hash: string;
  status: 'in_flight' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  locked_until: Timestamp;
  created_at: Timestamp;
}
