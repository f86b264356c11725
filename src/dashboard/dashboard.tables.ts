// The dashboard module's tables: their row types, and in DashboardTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../db/columns.js';

/** The tables the dashboard module owns. */
export interface DashboardTables {
  dashboard_sessions: DashboardSessionsTable;
}

export interface DashboardFlash {
  kind: 'ok' | 'error' | 'secret';
  text: string;
  /** A secret shown once (an API key, a webhook signing secret): only in the answer that made it, never stored. */
  secret?: string;
  /** A send in progress or done: a progress bar. */
  progress?: { done: number; failed: number; total: number };
}

export interface DashboardSessionsTable {
  id_hash: string;
  user_id: string;
  flash: ColumnType<DashboardFlash | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** The organisation this session works in (a person may belong to several); null: their first. */
  organisation_id: ColumnType<string | null, string | null | undefined, string | null>;
}
