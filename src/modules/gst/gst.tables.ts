// The gst module's tables: their row types, and in GstTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType } from 'kysely';
import type { Timestamp, Json, Mode } from '../../db/columns.js';

/** The tables the gst module owns. */
export interface GstTables {
  gst_profiles: GstProfilesTable;
  gst_counters: GstCountersTable;
  gst_documents: GstDocumentsTable;
}

export interface GstProfilesTable {
  account_id: string;
  mode: Mode;
  gstin: string | null;
  legal_name: string;
  address: string;
  state_code: string | null;
  series_prefix: string;
  updated_at: Timestamp;
}

export interface GstCountersTable {
  account_id: string;
  mode: Mode;
  gstin: string;
  series: string;
  fy: string;
  last_seq: number;
}

export type GstDocumentKind = 'tax_invoice' | 'bill_of_supply' | 'credit_note';

export interface GstDocumentsTable {
  id: string;
  account_id: string;
  mode: Mode;
  gstin: string;
  kind: GstDocumentKind;
  role: 'sale' | 'refund';
  series: string;
  fy: string;
  seq: number;
  number: string;
  registration_id: string;
  event_id: string;
  original_id: string | null;
  issued_at: Timestamp;
  /** The issue date in India time, `YYYY-MM-DD`. */
  issued_on: string;
  place_of_supply: string;
  recipient_gstin: string | null;
  rate: number;
  total_paise: ColumnType<string, number, never>;
  doc: Json<unknown>;
}
