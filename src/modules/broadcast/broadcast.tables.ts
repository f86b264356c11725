// The broadcast module's tables: their row types, and in BroadcastTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the broadcast module owns. */
export interface BroadcastTables {
  broadcasts: BroadcastsTable;
  broadcast_recipients: BroadcastRecipientsTable;
}

export interface BroadcastsTable {
  id: string;
  event_id: string;
  account_id: string;
  mode: Mode;
  event_title: string;
  subject: string;
  message: string;
  audience: string;
  recipient_count: number;
  created_at: Timestamp;
}

export type BroadcastRecipientStatus = 'queued' | 'sending' | 'delivered' | 'failed';

export interface BroadcastRecipientsTable {
  broadcast_id: string;
  email: string;
  status: BroadcastRecipientStatus;
  error: string | null;
  updated_at: Timestamp;
}
