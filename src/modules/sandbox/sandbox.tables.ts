// The sandbox module's tables: their row types, and in SandboxTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Generated } from 'kysely';
import type { Timestamp, Json } from '../../db/columns.js';

/** The tables the sandbox module owns. */
export interface SandboxTables {
  sandbox_subscriptions: SandboxSubscriptionsTable;
  sandbox_orders: SandboxOrdersTable;
  sandbox_payments: SandboxPaymentsTable;
  sandbox_refunds: SandboxRefundsTable;
}

export interface SandboxOrdersTable {
  id: string;
  account_id: string;
  amount: number;
  currency: string;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  notes: Json<Record<string, string>>;
  created_at: Timestamp;
}

export interface SandboxPaymentsTable {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  /** Never above `amount`: refunds add to it in one conditional statement (and a check refuses more). */
  amount_refunded: Generated<number>;
  created_at: Timestamp;
}

/** A refund made, with the X-Refund-Idempotency key it was made under (unique per account, payment and key). */
export interface SandboxRefundsTable {
  id: string;
  account_id: string;
  payment_id: string;
  idempotency_key: string | null;
  amount: number;
  notes: Json<Record<string, string>>;
  /** The request as sent (amount or none, notes), canonical JSON: a replay under the key must match it. */
  request: string;
  created_at: Timestamp;
}

export interface SandboxSubscriptionsTable {
  id: string;
  account_id: string;
  status: string;
  cancel_at_cycle_end: Generated<boolean>;
  created_at: Timestamp;
}
