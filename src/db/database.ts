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
}

export interface TrackDoc {
  title: string;
  pricePaise: number;
  capacity: number;
  date: string | null;
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
  created_at: Timestamp;
  updated_at: Timestamp;
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

export type WebhookEventType = 'registration.confirmed' | 'subscription.authenticated';

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

export interface ReconcileLeaseTable {
  name: string;
  holder: string | null;
  until: Timestamp;
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
}
