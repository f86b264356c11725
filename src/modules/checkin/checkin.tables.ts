// The checkin module's tables: their row types, and in CheckinTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Json } from '../../db/columns.js';

/** The tables the checkin module owns. */
export interface CheckinTables {
  door_passes: DoorPassesTable;
  checkin_log: CheckinLogTable;
  door_sync_scans: DoorSyncScansTable;
  door_versions: DoorVersionsTable;
  door_list_admissions: DoorListAdmissionsTable;
}

export interface DoorPassesTable {
  id: string;
  event_id: string;
  label: string;
  token_hash: string;
  created_by: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** The check-in list (migration 0065): one track, or one day; both null: the whole event. */
  scope_track_index: ColumnType<number | null, number | null | undefined, number | null>;
  scope_date: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CheckinLogTable {
  id: Generated<string>;
  event_id: string;
  attendee_id: string;
  action: 'admit' | 'undo';
  actor: string;
  at: Timestamp;
  /** The list admitted on (`track:<i>`, `date:<day>`); null: the whole event. */
  list: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DoorSyncScansTable {
  event_id: string;
  /** Who synced it (migration 0065): `pass:<id>`, `key:<id>` or `dashboard`. */
  holder: string;
  device_id: string;
  seq: number;
  result: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

/** Per event, how many door-affecting changes have committed (migration 0021): the rosters' staleness check. */
export interface DoorVersionsTable {
  event_id: string;
  version: number;
  /** Some instance holds a roster of the event: its changes are notified. */
  watched: Generated<boolean>;
}

/** Admissions on a track's or a day's list (migration 0065); an undo keeps the row with `checked_in_at` null. */
export interface DoorListAdmissionsTable {
  event_id: string;
  list: string;
  attendee_id: string;
  registration_id: string;
  checked_in_at: Timestamp | null;
  checked_in_by: string | null;
}
