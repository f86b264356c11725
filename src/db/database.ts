// Table types for Kysely. Each module owns its tables; only its repo queries them.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export type Mode = 'test' | 'live';
export type KeyClass = 'full' | 'checkout';

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  phone: string | null;
  is_organizer: Generated<boolean>;
  can_publish: Generated<boolean>;
  created_at: Timestamp;
  /** Null until the address is proved by the verification mail. */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** idTokens carry the epoch they were issued in; a reset, a change or "sign out everywhere" raises it. */
  session_epoch: Generated<number>;
  /** Set after too many failed sign-ins from everywhere; only the password reset link lifts it. */
  login_locked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface EmailVerificationsTable {
  token_hash: string;
  user_id: string;
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  mode: Mode;
  class: KeyClass;
  allowed_origin: string | null;
  key_hash: string;
  prefix: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface DashboardFlash {
  kind: 'ok' | 'error' | 'secret';
  text: string;
  /** A secret shown once (an API key, a webhook signing secret): only in the answer that made it, never stored. */
  secret?: string;
  /** A send in progress or done: a progress bar. */
  progress?: { done: number; failed: number; total: number };
}

export interface DashboardSessionsTable {
  id_hash: string;
  user_id: string;
  flash: ColumnType<DashboardFlash | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface JobsTable {
  id: string;
  topic: string;
  payload: Json<unknown>;
  status: Generated<JobStatus>;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  /** After this a failure parks the job as `dead` instead of retrying it; null: 72 hours after created_at. */
  retry_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Enqueue order (an identity column): breaks ties between jobs due at the same instant. */
  seq: ColumnType<string, never, never>;
}

export type JobStatus = 'pending' | 'done' | 'dead';

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

export interface TierDoc {
  name: string;
  pricePaise: number;
  capacity: number;
  membersOnly: boolean;
  availableFrom: string | null;
  availableUntil: string | null;
  /** The SAC the organiser chose for this tier (GST, §17); null: the event's. */
  sac?: string | null;
}

/** A waitlist's settings (an event's, or a track's own). */
export interface WaitlistDoc {
  enabled: boolean;
  /** How long an offer holds its seat. */
  offerMinutes: number;
}

/** What an attendee may do from their own page, and until when (hours before the start). */
export interface SelfServiceDoc {
  transfer: boolean;
  cancel: boolean;
  cutoffHours: number;
  /** `full`, `none`, or the part of the price kept as a fee, in hundredths of a percent. */
  refund: 'full' | 'none' | { feeBasisPoints: number };
}

export interface TrackDoc {
  title: string;
  pricePaise: number;
  capacity: number;
  date: string | null;
  /** The track's own waitlist; absent: the event's applies. */
  waitlist?: WaitlistDoc | null;
}

export interface CustomFieldDoc {
  name: string;
  label: string;
  type: 'text' | 'number' | 'email' | 'select' | 'checkbox';
  required: boolean;
  options: string[] | null;
}

export type EventStatus = 'draft' | 'published';
export type RegistrationStatus = 'pending' | 'confirmed' | 'cancelled' | 'refunded';

export interface EventsTable {
  id: string;
  account_id: string;
  mode: Mode;
  slug: string;
  status: EventStatus;
  title: string;
  description: string;
  start_date: string | null;
  start_at: Timestamp | null;
  end_date: string | null;
  location: string | null;
  capacity: number;
  price_paise: number;
  currency: string;
  max_team_size: number;
  requires_approval: boolean;
  custom_fields: Json<CustomFieldDoc[]>;
  special_prices: Json<TierDoc[]>;
  tracks: Json<TrackDoc[]>;
  ticket_emails_enabled: Generated<boolean>;
  waitlist: ColumnType<WaitlistDoc | null, string | null | undefined, string | null>;
  self_service: ColumnType<SelfServiceDoc | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** GST (§17): how admission to this event is taxed. */
  tax_category: ColumnType<TaxCategory, TaxCategory | undefined, TaxCategory>;
  /** The GSTIN that supplies this event when it is not the account's (a casual registration in the event's state). */
  supplier_gstin: ColumnType<string | null, string | null | undefined, string | null>;
  /** The SAC the organiser chose for the event's tickets (a tier may choose its own). */
  sac: ColumnType<string | null, string | null | undefined, string | null>;
  /** The GST state code of the venue: the place of supply. */
  venue_state: ColumnType<string | null, string | null | undefined, string | null>;
}

export type TaxCategory = 'standard' | 'admission_exempt_upto_500' | 'premium_sporting' | 'none';

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
  pending_reason: 'payment' | 'approval' | null;
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
}

/** `unsent`: the Cloud API was not reached or refused the last try (retried as mail is); then its webhooks' statuses. */
export type WhatsAppStatus = 'unsent' | 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';

export interface WhatsAppMessagesTable {
  /** Ours (`wam_…`), sent as `biz_opaque_callback_data` so a status can be matched even if the send's answer was lost. */
  id: string;
  registration_id: string;
  phone: string;
  /** The Cloud API's message id, once it accepted the message. */
  wamid: string | null;
  status: WhatsAppStatus;
  status_at: Timestamp;
  /** The Cloud API's error code of a refusal or a `failed` status. */
  error_code: number | null;
  created_at: Timestamp;
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

export interface AttendeesTable {
  id: string;
  registration_id: string;
  idx: number;
  name: string;
  email: string;
  checked_in_at: Timestamp | null;
  /** Who admitted them: `pass:<id>[/<device>]`, `key:<id>` or `dashboard` (null when not in). */
  checked_in_by: ColumnType<string | null, string | null | undefined, string | null>;
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
}

export interface CheckinLogTable {
  id: Generated<string>;
  event_id: string;
  attendee_id: string;
  action: 'admit' | 'undo';
  actor: string;
  at: Timestamp;
}

export interface DoorSyncScansTable {
  event_id: string;
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

export interface SeatCountersTable {
  event_id: string;
  scope: string;
  capacity: number;
  taken: Generated<number>;
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
  amount_refunded: Generated<number>;
  created_at: Timestamp;
}

export interface SandboxEmailsTable {
  id: string;
  account_id: string;
  recipients: Json<string[]>;
  subject: string;
  text: string;
  attachments: Json<string[]>;
  created_at: Timestamp;
}

export type WebhookEventType = 'registration.confirmed' | 'subscription.authenticated' | 'waitlist.offered';

export interface WebhookConfigsTable {
  account_id: string;
  mode: Mode;
  url: string;
  enabled: boolean;
  events: Json<WebhookEventType[]>;
  secret_sealed: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  mode: Mode;
  event_id: string;
  type: string;
  url: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Timestamp;
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
}

export interface SandboxClocksTable {
  account_id: string;
  offset_ms: number;
}

export interface SandboxSubscriptionsTable {
  id: string;
  account_id: string;
  status: string;
  cancel_at_cycle_end: Generated<boolean>;
  created_at: Timestamp;
}

export type LedgerKind =
  | 'ticket_sale'
  | 'platform_fee'
  | 'gateway_fee'
  | 'ticket_refund'
  | 'platform_fee_reversal'
  | 'membership_payment'
  | 'payout_hold'
  | 'payout_credit';
export type LedgerSource = 'registration' | 'membership' | 'payout';

export interface LedgerEntriesTable {
  seq: Generated<string>;
  id: string;
  account_id: string;
  mode: Mode;
  kind: LedgerKind;
  amount_paise: ColumnType<string, number, never>;
  source_type: LedgerSource;
  source_id: string;
  ref: Generated<string>;
  /** The capture this entry's money came with (pending until it clears); null: counts at once. */
  captured_at: Timestamp | null;
  created_at: Timestamp;
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

export interface IdempotencyKeysTable {
  account_id: string;
  mode: Mode;
  key: string;
  request_hash: string;
  status: 'in_flight' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  locked_until: Timestamp;
  created_at: Timestamp;
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

export interface ReconcileLeaseTable {
  name: string;
  holder: string | null;
  until: Timestamp;
}

/** Who made a change the audit log records. */
export type AuditActorKind = 'user' | 'key' | 'door_pass' | 'staff' | 'attendee' | 'system';

/** The audit log (migration 0051): append-only, the database refuses UPDATE and DELETE. */
export interface AuditLogTable {
  id: string;
  seq: Generated<string>;
  account_id: string;
  mode: Mode;
  actor_kind: AuditActorKind;
  actor_id: string;
  actor_display: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown | null;
  after: unknown | null;
  at: Date;
}

export interface Database {
  ledger_entries: LedgerEntriesTable;
  payouts: PayoutsTable;
  payout_contacts: PayoutContactsTable;
  payout_fund_accounts: PayoutFundAccountsTable;
  gateway_orders: GatewayOrdersTable;
  reconcile_lease: ReconcileLeaseTable;
  plans: PlansTable;
  memberships: MembershipsTable;
  sandbox_clocks: SandboxClocksTable;
  sandbox_subscriptions: SandboxSubscriptionsTable;
  webhook_configs: WebhookConfigsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  events: EventsTable;
  registrations: RegistrationsTable;
  attendees: AttendeesTable;
  door_passes: DoorPassesTable;
  checkin_log: CheckinLogTable;
  door_sync_scans: DoorSyncScansTable;
  door_versions: DoorVersionsTable;
  seat_counters: SeatCountersTable;
  promo_codes: PromoCodesTable;
  sandbox_orders: SandboxOrdersTable;
  sandbox_payments: SandboxPaymentsTable;
  sandbox_emails: SandboxEmailsTable;
  users: UsersTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  api_keys: ApiKeysTable;
  dashboard_sessions: DashboardSessionsTable;
  jobs: JobsTable;
  broadcasts: BroadcastsTable;
  broadcast_recipients: BroadcastRecipientsTable;
  idempotency_keys: IdempotencyKeysTable;
  whatsapp_messages: WhatsAppMessagesTable;
  gst_profiles: GstProfilesTable;
  gst_counters: GstCountersTable;
  gst_documents: GstDocumentsTable;
  waitlist_entries: WaitlistEntriesTable;
  audit_log: AuditLogTable;
}
