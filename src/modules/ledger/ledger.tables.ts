// The ledger module's tables: their row types, and in LedgerTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the ledger module owns. */
export interface LedgerTables {
  ledger_entries: LedgerEntriesTable;
  ledger_test_settlements: LedgerTestSettlementsTable;
}

/** Test mode's "Settle now": captures up to `settled_through` count as cleared, the clock untouched. */
export interface LedgerTestSettlementsTable {
  account_id: string;
  settled_through: Timestamp;
  settled_at: Timestamp;
}

export type LedgerKind =
  | 'ticket_sale'
  | 'platform_fee'
  | 'gateway_fee'
  | 'ticket_refund'
  | 'platform_fee_reversal'
  | 'membership_payment'
  | 'payout_hold'
  | 'payout_credit'
  /** A sale paid to the organiser directly: recorded, never payable (docs/decisions/24-payment-outside-the-gateway.md). */
  | 'offline_sale'
  | 'offline_refund';

export type LedgerSource = 'registration' | 'membership' | 'payout';

export interface LedgerEntriesTable {
  seq: Generated<string>;
  id: string;
  account_id: string;
  mode: Mode;
  kind: LedgerKind;
  amount_paise: ColumnType<string, number, never>;
  source_type: LedgerSource;
  source_id: string;
  ref: Generated<string>;
  /** The capture this entry's money came with (pending until it clears); null: counts at once. */
  captured_at: Timestamp | null;
  created_at: Timestamp;
}
