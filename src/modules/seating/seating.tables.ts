// The seating module's tables: their row types, and in SeatingTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Json, Timestamp } from '../../db/columns.js';

/** The tables the seating module owns. */
export interface SeatingTables {
  seating_plans: SeatingPlansTable;
}

/** A seat as stored in a plan's layout. */
export interface StoredSeat {
  id: string;
  section: string;
  row: string;
  number: number;
  label: string;
  x: number;
  y: number;
  category: string;
  accessible: boolean;
  blocked: boolean;
}

/** An account's reusable seating plan: its seats and stage as one layout. */
export interface SeatingPlansTable {
  id: string;
  account_id: string;
  name: string;
  /** The plan's seats and stage (plan.ts `SeatingPlanLayout`). */
  layout: Json<{ stage: { x: number; y: number }; seats: StoredSeat[] }>;
  seat_count: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}
