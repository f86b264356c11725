// The payments module's tables: their row types, and in PaymentsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Generated } from 'kysely';
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the payments module owns. */
export interface PaymentsTables {
  gateway_orders: GatewayOrdersTable;
  payment_captures: PaymentCapturesTable;
}

/** A payment bound to a booking: what it captured, and what has been refunded of it (never more; a CHECK refuses it). */
export interface PaymentCapturesTable {
  mode: Mode;
  payment_id: string;
  account_id: string;
  registration_id: string | null;
  captured_paise: number;
  refunded_paise: Generated<number>;
  created_at: Timestamp;
}

export interface GatewayOrdersTable {
  receipt: string;
  kind: 'registration' | 'membership';
  mode: Mode;
  account_id: string;
  amount_paise: number;
  currency: string;
  order_id: string | null;
  payment_id: string | null;
  created_at: Timestamp;
  check_after: Timestamp;
  checks: Generated<number>;
  settled_at: Timestamp | null;
  outcome: string | null;
  last_error: string | null;
}
