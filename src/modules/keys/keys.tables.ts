// The keys module's tables: their row types, and in KeysTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType } from 'kysely';
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the keys module owns. */
export interface KeysTables {
  api_keys: ApiKeysTable;
}

export type KeyClass = 'full' | 'checkout';

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  mode: Mode;
  class: KeyClass;
  allowed_origin: string | null;
  key_hash: string;
  prefix: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
