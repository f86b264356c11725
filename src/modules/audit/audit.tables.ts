// The audit module's tables: their row types, and in AuditTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Generated } from 'kysely';
import type { Mode } from '../../db/columns.js';

/** The tables the audit module owns. */
export interface AuditTables {
  audit_log: AuditLogTable;
}

/** Who made a change the audit log records. */
export type AuditActorKind = 'user' | 'key' | 'door_pass' | 'staff' | 'attendee' | 'system';

/** The audit log (migration 0051): append-only, the database refuses UPDATE and DELETE. */
export interface AuditLogTable {
  id: string;
  seq: Generated<string>;
  account_id: string;
  mode: Mode;
  actor_kind: AuditActorKind;
  actor_id: string;
  actor_display: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown | null;
  after: unknown | null;
  at: Date;
}
