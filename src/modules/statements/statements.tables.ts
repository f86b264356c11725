// The statements module's tables: their row types, and in StatementsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Json, Timestamp } from '../../db/columns.js';

/** The tables the statements module owns. */
export interface StatementsTables {
  statement_mappings: StatementMappingTable;
}

/**
 * Which of a bank export's columns hold what (header names as the export writes them). Either
 * `amount` (one signed column, or with a `Cr`/`Dr` mark) or `credit` (with an optional `debit`).
 */
export interface StatementMappingDoc {
  date: string;
  narration: string;
  amount?: string | undefined;
  credit?: string | undefined;
  debit?: string | undefined;
}

export interface StatementMappingTable {
  account_id: string;
  mapping: Json<StatementMappingDoc>;
  updated_at: Timestamp;
}
