// The registrations module's tables: their row types, and in RegistrationsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Json, Mode } from '../../db/columns.js';

/** The tables the registrations module owns. */
export interface RegistrationsTables {
  registrations: RegistrationsTable;
  attendees: AttendeesTable;
  promo_codes: PromoCodesTable;
}

/** `refunding`: a refund's claim while the gateway is asked (lifecycle/booking-lifecycle.ts). */
export type RegistrationStatus = 'pending' | 'confirmed' | 'refunding' | 'cancelled' | 'refunded';

/** What a refund's claim holds (lifecycle/refund-claim.ts): enough for the sweep to finish it. */
export interface RefundClaimDoc {
  /** The status the booking ends in once refunded: `confirmed` for a part of it given back. */
  to: 'cancelled' | 'refunded' | 'confirmed';
  refundPaise: number;
  keptPaise: number;
  /** The gateway's idempotency key: derived from the booking and the change. */
  key: string;
  /** Who claimed it, as the audit log names them. */
  actor: { kind: string; id: string; display: string };
  /** Why, in the organiser's words (a refund asked for with a reason). */
  reason?: string;
}

/** The buyer's billing details for the tax invoice (all optional; a GSTIN makes the sale B2B). */
export interface BillingDoc {
  gstin: string | null;
  name: string | null;
  address: string | null;
  stateCode: string | null;
}

export interface RegistrationsTable {
  id: string;
  event_id: string;
  account_id: string;
  mode: Mode;
  status: RegistrationStatus;
  name: string;
  email: string;
  phone: string | null;
  ticket_type: string;
  sub_event_id: number | null;
  quantity: number;
  amount_paise: number;
  currency: Generated<string>;
  platform_fee_paise: Generated<number>;
  gateway_fee_paise: Generated<number>;
  custom_fields: Json<Record<string, unknown>>;
  promo_code: string | null;
  ticket_code: string | null;
  created_at: Timestamp;
  confirmed_at: Timestamp | null;
  pending_reason: 'payment' | 'approval' | 'offline_payment' | null;
  order_id: string | null;
  payment_id: string | null;
  refund_id: string | null;
  previous_ticket_codes: ColumnType<string[], string | undefined, string>;
  cancelled_at: Timestamp | null;
  /** Where a paid booking was made from (the client address as the service saw it); caps unpaid bookings. */
  client_address: ColumnType<string | null, string | null | undefined, string | null>;
  /** The buyer agreed to get the ticket over WhatsApp at `phone` (the consent Meta asks businesses to keep). */
  whatsapp_opt_in: Generated<boolean>;
  billing: ColumnType<BillingDoc | null, string | null | undefined, string | null>;
  /** The waitlist offer this booking was made from: confirming it takes the offer's held seat. */
  waitlist_entry_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the organiser keeps of a captured payment after a cancellation under its policy. */
  kept_paise: ColumnType<number, number | undefined, number>;
  /** What has been given back of the captured payment so far (partial refunds and the last one). */
  refunded_paise: ColumnType<number, number | undefined, number>;
  /** A refund's claim while `refunding` (null otherwise). */
  claim: ColumnType<RefundClaimDoc | null, string | null | undefined, string | null>;
  claimed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md): the method chosen at step 1. */
  offline_method: ColumnType<
    OfflineMethodName | null,
    OfflineMethodName | null | undefined,
    OfflineMethodName | null
  >;
  /** The reference the buyer quotes when paying, unique per account (`TKT-7F3K9M`). */
  offline_reference: ColumnType<string | null, string | null | undefined, string | null>;
  /** When an unpaid offline booking lapses (on its account's clock). */
  pay_by: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When its reminder mail was queued (once). */
  reminded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** How it was marked paid. */
  offline_paid: ColumnType<OfflinePaidDoc | null, string | null | undefined, string | null>;
}

export type OfflineMethodName = 'bank_transfer' | 'upi_to_organiser' | 'cash_at_venue';

/** What the organiser recorded when marking an offline booking paid. */
export interface OfflinePaidDoc {
  method: OfflineMethodName;
  reference: string | null;
  amountPaise: number;
  paidAt: string;
  /** Set when the organiser recorded a refund given outside the gateway. */
  refundedAt?: string;
}

export interface AttendeesTable {
  id: string;
  registration_id: string;
  /** The booking's event, kept beside it (migration 0092) so who is in is read by event. */
  event_id: string;
  idx: number;
  name: string;
  email: string;
  checked_in_at: Timestamp | null;
  /** Who admitted them: `pass:<id>[/<device>]`, `key:<id>` or `dashboard` (null when not in). */
  checked_in_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PromoCodesTable {
  id: string;
  event_id: string;
  code: string;
  code_key: string;
  discount_percent: number | null;
  discount_paise: number | null;
  valid_from: Timestamp | null;
  valid_until: Timestamp | null;
  max_uses: number | null;
  uses: Generated<number>;
  /** Uses held by pending bookings (reserved at step 1, released when they end unpaid). */
  uses_reserved: Generated<number>;
  created_at: Timestamp;
}
