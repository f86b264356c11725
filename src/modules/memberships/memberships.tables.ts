// The memberships module's tables: their row types, and in MembershipsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Mode } from '../../db/columns.js';

/** The tables the memberships module owns. */
export interface MembershipsTables {
  plans: PlansTable;
  memberships: MembershipsTable;
  member_codes: MemberCodesTable;
}

export type PlanKind = 'fixed_term' | 'recurring';

export type MembershipStatus = 'created' | 'authorised' | 'active' | 'halted' | 'ended' | 'pending_payment';

export interface PlansTable {
  id: string;
  account_id: string;
  mode: Mode;
  name: string;
  description: string | null;
  amount_paise: number;
  kind: PlanKind;
  term_months: number | null;
  period: 'weekly' | 'monthly' | 'quarterly' | 'yearly' | null;
  total_count: number;
  gateway_plan_id: string | null;
  created_at: Timestamp;
  /** Public: the plan's hosted page is /m/{slug}. */
  slug: string;
}

/** A one-time code mailed to a member's address: only its hash is kept. */
export interface MemberCodesTable {
  id: string;
  account_id: string;
  mode: Mode;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface MembershipsTable {
  id: string;
  account_id: string;
  mode: Mode;
  plan_id: string;
  name: string;
  email: string;
  phone: string | null;
  status: MembershipStatus;
  source: 'api' | 'manual';
  subscription_id: string | null;
  authorisation_url: string | null;
  pending_order_id: string | null;
  pending_amount_paise: number | null;
  last_payment_id: string | null;
  valid_until: Timestamp | null;
  cancel_at_period_end: Generated<boolean>;
  ended_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The receipt of the order or mandate a subscribe is creating right now (one at a time). */
  pending_receipt: ColumnType<string | null, string | null | undefined, string | null>;
  pending_claimed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** A cancel that ends the membership now holds it while the gateway cancels the mandate (charges meanwhile are refunded). */
  ending_claimed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
