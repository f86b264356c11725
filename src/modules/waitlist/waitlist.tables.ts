// The waitlist module's tables: their row types, and in WaitlistTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Generated } from 'kysely';
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the waitlist module owns. */
export interface WaitlistTables {
  waitlist_entries: WaitlistEntriesTable;
}

export type WaitlistStatus = 'waiting' | 'offered' | 'booked' | 'lapsed' | 'removed';

export interface WaitlistEntriesTable {
  id: string;
  seq: Generated<string>;
  event_id: string;
  account_id: string;
  mode: Mode;
  name: string;
  email: string;
  ticket_type: string;
  sub_event_id: number | null;
  status: WaitlistStatus;
  offered_at: Timestamp | null;
  expires_at: Timestamp | null;
  registration_id: string | null;
  created_at: Timestamp;
  ended_at: Timestamp | null;
}
