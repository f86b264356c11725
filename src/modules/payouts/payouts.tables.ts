// The payouts module's tables: their row types, and in PayoutsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the payouts module owns. */
export interface PayoutsTables {
  payouts: PayoutsTable;
  payout_contacts: PayoutContactsTable;
  payout_fund_accounts: PayoutFundAccountsTable;
}

export type PayoutStatus = 'processing' | 'processed' | 'failed' | 'cancelled' | 'reversed';

export interface PayoutsTable {
  seq: Generated<string>;
  id: string;
  account_id: string;
  mode: Mode;
  amount_paise: ColumnType<string, number, never>;
  upi_id: string;
  status: PayoutStatus;
  gateway_payout_id: string | null;
  gateway_status: string | null;
  utr: string | null;
  failure_reason: string | null;
  expected_by: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PayoutContactsTable {
  account_id: string;
  contact_id: string;
  created_at: Timestamp;
}

export interface PayoutFundAccountsTable {
  account_id: string;
  upi_id: string;
  fund_account_id: string;
  created_at: Timestamp;
}
