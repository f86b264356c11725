// The reconciliation module's tables: their row types, and in ReconciliationTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Timestamp } from '../../db/columns.js';

/** The tables the reconciliation module owns. */
export interface ReconciliationTables {
  reconcile_lease: ReconcileLeaseTable;
}

export interface ReconcileLeaseTable {
  name: string;
  holder: string | null;
  until: Timestamp;
}
