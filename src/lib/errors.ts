// One error type for everything the service refuses on purpose, and one catalogue of the
// codes it may carry. `code` is a stable snake_case word callers can branch on; its HTTP
// status comes from the catalogue, so the same code always answers the same status.
// `extra` carries fields callers read beside the code (refusalReason, reason, …).

import { type CatalogueEntry, ORGANISATION_ERRORS } from './errors-organisations.js';

export const ERRORS = {
  ...ORGANISATION_ERRORS,
  // 400: the request itself is wrong.
  bad_request: { status: 400, message: 'the request is not valid' },
  offer_mismatch: { status: 400, message: 'a waitlist offer books the choice it was made for, one seat' },
  invalid_request: { status: 400, message: 'the request is not valid' },
  invalid_json: { status: 400, message: 'body is not valid JSON' },
  invalid_header: { status: 400, message: 'a header is not valid' },
  invalid_content_length: { status: 400, message: 'Content-Length does not match the body' },
  invalid_url: { status: 400, message: 'the URL path has an invalid percent-escape' },
  invalid_amount: { status: 400, message: 'the amount is not valid' },
  amount_above_recurring_limit: {
    status: 400,
    message: 'a recurring plan may charge at most 15,000 rupees per period',
  },
  confirmation_required: { status: 400, message: 'confirm the recipient count of the preview to send' },
  invalid_custom_field: { status: 400, message: 'a custom field definition is not valid' },
  invalid_seating_plan: { status: 400, message: 'the seating plan is not valid' },
  seat_hold_required: { status: 400, message: 'a seated event is booked with the holdToken of its seats' },
  seat_hold_mismatch: {
    status: 400,
    message: 'the seat hold does not fit this booking: one seat per person, one category',
  },
  missing_custom_field: { status: 400, message: 'a required custom field has no answer' },
  unknown_custom_field: { status: 400, message: 'an answer names no custom field of this event' },
  invalid_date: { status: 400, message: 'a date is not valid' },
  use_start_date: { status: 400, message: 'send startDate, not date' },
  track_required: {
    status: 400,
    message: 'choose a session (subEventId): this event sells its tracks one by one',
  },
  conflicting_fields: { status: 400, message: 'two fields that mean the same thing say different things' },
  invalid_email: { status: 400, message: 'the email address is not valid' },
  undeliverable_email: { status: 400, message: 'the email address cannot receive mail' },
  invalid_event_type: { status: 400, message: 'unknown webhook event type' },
  invalid_field: { status: 400, message: 'a field is not valid' },
  invalid_message: { status: 400, message: 'the message is not valid' },
  invalid_subject: { status: 400, message: 'the subject is not valid' },
  invalid_name: { status: 400, message: 'the name is not valid' },
  invalid_origin: { status: 400, message: 'the origin is not valid' },
  origin_needs_checkout_key: { status: 400, message: 'only a checkout key may be pinned to an origin' },
  invalid_plan: { status: 400, message: 'the plan is not valid' },
  // The organiser's definition of a code (create) is not valid.
  invalid_promo_code: { status: 400, message: 'the promo code definition is not valid' },
  // A buyer's code: unknown, out of date and used up answer alike, so codes cannot be guessed.
  promo_code_invalid: { status: 400, message: 'this promo code cannot be used for this booking' },
  invalid_qr: { status: 400, message: 'the scanned value is not a ticket' },
  invalid_signature: { status: 400, message: 'the signature does not match the body' },
  invalid_phone: {
    status: 400,
    message: 'phone is an E.164 number (+919812345678) or a 10-digit Indian mobile number',
  },
  phone_required: { status: 400, message: 'whatsappOptIn needs a phone number' },
  invalid_tier: { status: 400, message: 'a ticket tier is not valid' },
  unknown_ticket_type: { status: 400, message: 'no ticket tier of this name' },
  invalid_track_index: { status: 400, message: 'a track index is a decimal number' },
  invalid_webhook_url: { status: 400, message: 'the webhook URL is not allowed' },
  member_mismatch: { status: 400, message: 'the ticket does not belong to this person' },
  not_a_team_event: { status: 400, message: 'this event takes no team members' },
  team_too_large: { status: 400, message: 'the team is larger than this event allows' },
  recipients_not_accepted: {
    status: 400,
    message: 'a broadcast goes to an audience, never to a list of addresses',
  },
  secret_not_accepted: { status: 400, message: 'the service generates the signing secret' },
  weak_password: { status: 400, message: 'the password is too short' },
  invalid_characters: {
    status: 400,
    message:
      'the request holds a character that cannot be stored (a NUL byte or an unpaired UTF-16 surrogate)',
  },
  invalid_verification_token: { status: 400, message: 'this verification link is not valid' },
  // A members-only tier's mailed code (docs/decisions/28-a-persons-day.md).
  member_code_wrong: {
    status: 400,
    message: 'this is not the code we mailed; check the newest mail and try again',
  },
  member_code_expired: {
    status: 400,
    message: 'this code has expired or was already used; ask for a new one',
  },
  verification_token_expired: { status: 400, message: 'this verification link has expired' },
  verification_token_used: { status: 400, message: 'this verification link has already been used' },
  invalid_reset_token: {
    status: 400,
    message: 'this password reset link is not valid, has expired or was already used',
  },
  invalid_mode: { status: 400, message: 'mode is test or live' },
  invalid_status: { status: 400, message: 'not a registration status' },
  invalid_audience: { status: 400, message: 'not a broadcast audience' },
  invalid_limit: { status: 400, message: 'limit is a whole number from 1 to 1000' },
  invalid_cursor: { status: 400, message: 'startingAfter is not a cursor this list gave' },
  invalid_roster_cursor: { status: 400, message: 'since is not a cursor the roster gave' },
  amount_below_minimum: { status: 400, message: 'a payout is at least 100 rupees' },
  invalid_upi_id: { status: 400, message: 'a UPI id has the form name@handle' },
  bad_http_request: { status: 400, message: 'the request is not valid HTTP' },
  invalid_gstin: { status: 400, message: 'the GSTIN is not valid' },
  invalid_state: { status: 400, message: 'not a GST state code' },
  invalid_sac: { status: 400, message: 'a SAC is 4 or 6 digits beginning with 99' },
  invalid_month: { status: 400, message: 'month must be YYYY-MM' },
  invalid_format: { status: 400, message: 'format is json, pdf or html' },
  invalid_idempotency_key: { status: 400, message: 'Idempotency-Key is 1 to 255 visible ASCII characters' },
  request_timeout: { status: 408, message: 'the request did not arrive in time' },
  headers_too_large: { status: 431, message: 'the request line and headers are too large' },
  // 401: who is calling is unknown.
  missing_api_key: { status: 401, message: 'missing x-api-key header' },
  invalid_api_key: { status: 401, message: 'API key not recognised' },
  missing_session: { status: 401, message: 'Missing Authorization Bearer token' },
  invalid_session: { status: 401, message: 'the session token is not valid' },
  session_expired: { status: 401, message: 'the session has expired; sign in again' },
  invalid_credentials: { status: 401, message: 'wrong email or password' },
  invalid_metrics_token: { status: 401, message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' },
  session_required: { status: 401, message: 'sign in to the account this link was sent for, then confirm' },
  session_ended: {
    status: 401,
    message: 'this session was ended (password reset or changed, or signed out everywhere); sign in again',
  },
  missing_door_pass: { status: 401, message: 'missing door pass (Authorization: DoorPass <token>)' },
  invalid_door_pass: { status: 401, message: 'this door pass is not recognised' },
  // 402: a payment that cannot be bound.
  payment_not_verified: { status: 402, message: 'the payment could not be verified' },
  // 403: known caller, not allowed.
  api_key_revoked: { status: 403, message: 'this API key has been revoked' },
  door_pass_revoked: { status: 403, message: 'this door pass has been revoked' },
  door_pass_expired: { status: 403, message: 'this door pass has expired' },
  door_pass_other_event: { status: 403, message: 'this door pass opens another event’s door' },
  checkout_key_required: { status: 403, message: 'a web page may only carry a checkout key' },
  checkout_key_not_allowed: { status: 403, message: 'a checkout key may not do this' },
  origin_not_allowed: { status: 403, message: 'this key may not be used from this origin' },
  preview_invalid: {
    status: 403,
    message: 'this preview link is not valid: open the preview again from the event’s page in the dashboard',
  },
  preview_expired: {
    status: 403,
    message: 'this preview link has expired: open the preview again from the event’s page in the dashboard',
  },
  members_only: { status: 403, message: 'this ticket tier is for members in good standing' },
  member_code_tries_used: { status: 403, message: 'too many wrong tries for this code; ask for a new one' },
  membership_required: {
    status: 403,
    message: 'this ticket tier needs membershipId, a membership in good standing with this email',
  },
  not_your_object: { status: 403, message: 'this belongs to another account' },
  organiser_access_required: { status: 403, message: 'publishing needs organiser access' },
  staff_only: { status: 403, message: 'only platform staff may do this' },
  csrf_refused: {
    status: 403,
    message: 'this form was not sent from the dashboard; reload the page and try again',
  },
  cross_origin_refused: { status: 403, message: 'this form must be sent from the ticket page itself' },
  email_unverified: { status: 403, message: 'verify your email address first' },
  wrong_password: { status: 403, message: 'the current password is wrong' },
  password_reset_required: {
    status: 403,
    message:
      'sign-in to this account is locked after too many failed attempts; use the password reset link mailed to its address',
  },
  test_mode_only: { status: 403, message: 'this endpoint is for test keys only' },
  live_mode_only: { status: 403, message: 'this endpoint is for live keys only' },
  route_not_open: {
    status: 403,
    message: 'this route declares no access rule, so it is refused to everyone',
  },
  signature_not_verified: { status: 403, message: 'X-Hub-Signature-256 does not match the body' },
  verify_token_mismatch: {
    status: 403,
    message: 'hub.verify_token is not this service’s WHATSAPP_VERIFY_TOKEN',
  },
  // 404
  not_found: { status: 404, message: 'not found' },
  account_not_found: { status: 404, message: 'no such account' },
  event_not_found: { status: 404, message: 'no such event' },
  key_not_found: { status: 404, message: 'no such key on this account' },
  member_not_found: { status: 404, message: 'no person at this index on the booking' },
  membership_not_found: { status: 404, message: 'no such membership' },
  order_not_found: { status: 404, message: 'no such order' },
  plan_not_found: { status: 404, message: 'no such plan' },
  webhook_not_found: { status: 404, message: 'no webhook is configured' },
  payout_not_found: { status: 404, message: 'no such payout' },
  registration_not_found: { status: 404, message: 'no such registration for this event' },
  subscription_not_found: { status: 404, message: 'no such subscription' },
  ticket_not_found: { status: 404, message: 'no ticket with this id for this event' },
  track_not_found: { status: 404, message: 'no track at this index' },
  publishing_request_not_found: { status: 404, message: 'no such request for publishing access' },
  job_not_found: { status: 404, message: 'no such job' },
  broadcast_not_found: { status: 404, message: 'no such broadcast for this event' },
  document_not_found: { status: 404, message: 'no such GST document for this registration' },
  door_pass_not_found: { status: 404, message: 'no such door pass for this event' },
  wallet_not_configured: { status: 404, message: 'this wallet’s passes are not configured on this service' },
  waitlist_entry_not_found: { status: 404, message: 'no such waitlist entry for this event' },
  ticket_page_not_found: {
    status: 404,
    message: 'this link is not valid: the ticket was transferred, or the link was mistyped',
  },
  // 405, 409, 413, 414, 415, 422, 429
  method_not_allowed: { status: 405, message: 'this method is not allowed on this path' },
  already_ended: { status: 409, message: 'this registration has already ended' },
  audience_changed: { status: 409, message: 'the audience moved since the preview; preview again' },
  busy: { status: 409, message: 'the resource is busy; retry shortly' },
  email_already_verified: { status: 409, message: 'this address is verified already' },
  email_taken: { status: 409, message: 'an account with this email exists' },
  event_not_published: { status: 409, message: 'this event is not published' },
  has_paid_registrations: { status: 409, message: 'this event has paid registrations' },
  has_payments_in_flight: {
    status: 409,
    message: 'bookings of this event hold payments in flight or captured and not refunded',
  },
  not_a_paid_registration: { status: 409, message: 'this registration has no payment to confirm' },
  not_awaiting_approval: { status: 409, message: 'this registration is not awaiting approval' },
  not_confirmed: { status: 409, message: 'this registration is not confirmed' },
  not_admissible: { status: 409, message: 'this ticket cannot be admitted' },
  transferred: { status: 409, message: 'this ticket was transferred; the new holder has a new code' },
  nothing_to_refund: { status: 409, message: 'this registration has no captured payment to refund' },
  promo_code_exists: { status: 409, message: 'this event already has a promo code of this name' },
  registration_changed: { status: 409, message: 'this registration changed meanwhile; read it again' },
  refund_exceeds_capture: {
    status: 409,
    message: 'the refunds of this payment would exceed what it captured',
  },
  registration_not_pending: { status: 409, message: 'this registration is not pending' },
  sweep_in_progress: { status: 409, message: 'a reconciliation sweep is running; try again shortly' },
  sold_out: { status: 409, message: 'no seats left for this booking' },
  seats_unavailable: { status: 409, message: 'a seat asked for is taken, held or blocked' },
  event_not_seated: { status: 409, message: 'this event has no seating plan' },
  seating_plan_in_use: { status: 409, message: 'this change would take a seat an event sells from the plan' },
  seat_hold_lapsed: { status: 409, message: 'the seat hold has lapsed, was let go or was booked already' },

  seats_available: { status: 409, message: 'seats are available: register instead of joining the waitlist' },
  waitlist_closed: { status: 409, message: 'this event (or track) takes no waitlist' },
  waitlist_entry_ended: { status: 409, message: 'this waitlist entry has already ended' },
  offer_not_valid: { status: 409, message: 'this waitlist offer has lapsed or been used' },
  self_service_closed: { status: 409, message: 'this change is no longer possible from the ticket page' },
  self_service_not_allowed: {
    status: 409,
    message: 'the organiser does not allow this change from the ticket page',
  },
  insufficient_balance: { status: 409, message: 'the amount is more than the available balance' },
  invalid_payout_transition: { status: 409, message: 'the payout cannot move to this state' },
  tier_not_on_sale: { status: 409, message: 'this ticket tier is not on sale now' },
  job_not_dead: { status: 409, message: 'only a dead job can be retried' },
  key_limit: {
    status: 409,
    message: 'this account has as many keys in this mode as it may; revoke one first',
  },
  // Not a passing outage but how the service is set up (docs/decisions/17-the-organisers-office.md): a retry does not help, so 409, not 503.
  payments_not_configured: {
    status: 409,
    message: 'online payments are not available for this event at the moment; please contact the organiser',
  },
  track_in_use: {
    status: 409,
    message: 'this track has bookings or a waitlist; a track can be removed only while nobody has booked it',
  },
  publishing_request_pending: {
    status: 409,
    message: 'a request for publishing access is already waiting for review',
  },
  already_can_publish: { status: 409, message: 'this account may already publish events' },
  publishing_request_decided: { status: 409, message: 'this request has already been decided' },
  settle_nothing_pending: { status: 409, message: 'no test-mode sale is pending' },
  idempotency_key_in_flight: {
    status: 409,
    message: 'a request with this Idempotency-Key is still being processed; retry shortly',
  },
  idempotency_key_reused: { status: 422, message: 'this Idempotency-Key was used with another request' },
  payload_too_large: { status: 413, message: 'request body is too large' },
  too_many_recipients: { status: 413, message: 'too many recipients for one broadcast' },
  uri_too_long: { status: 414, message: 'a path parameter is too long' },
  unsupported_media_type: { status: 415, message: 'Content-Type must be application/json' },
  too_many_attempts: { status: 429, message: 'too many attempts; retry later' },
  rate_limited: { status: 429, message: 'rate limit reached; retry later' },
  too_many_signups: { status: 429, message: 'too many sign-ups from this address; retry later' },
  too_many_holds: { status: 429, message: 'this address holds too many seats of this event at once' },
  too_many_pending: {
    status: 429,
    message: 'too many bookings on this event are waiting for payment; pay or let one lapse first',
  },
  // 5xx that say what failed; an unexpected fault is a bare `internal` 500.
  internal: { status: 500, message: 'internal error' },
  gateway_error: { status: 502, message: 'the payment gateway failed; nothing changed' },
  gateway_refused: { status: 502, message: 'the payment gateway refused; nothing changed' },
  database_unavailable: { status: 503, message: 'the database does not answer' },
  payouts_not_configured: {
    status: 503,
    message: 'live payouts are not configured on this service (RAZORPAYX_ACCOUNT_NUMBER)',
  },
  webhooks_not_configured: {
    status: 503,
    message: 'gateway notifications are not configured on this service',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERRORS;
/** The codes whose catalogue status is S. */
export type CodeWithStatus<S extends number> = {
  [K in ErrorCode]: (typeof ERRORS)[K]['status'] extends S ? K : never;
}[ErrorCode];

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

/** Any catalogued refusal; the helpers below narrow the code to one status. */
export const appError = (
  code: ErrorCode,
  message?: string,
  extra?: Record<string, unknown>,
  headers?: Record<string, string>,
) => new AppError(code, message, extra, headers);
export const badRequest = (code: CodeWithStatus<400>, message?: string, extra?: Record<string, unknown>) =>
  new AppError(code, message, extra);
export const unauthorized = (code: CodeWithStatus<401>, message?: string) => new AppError(code, message);
export const forbidden = (code: CodeWithStatus<403>, message?: string, extra?: Record<string, unknown>) =>
  new AppError(code, message, extra);
export const notFound = (message?: string, code: CodeWithStatus<404> = 'not_found') =>
  new AppError(code, message);
export const conflict = (code: CodeWithStatus<409>, message?: string, extra?: Record<string, unknown>) =>
  new AppError(code, message, extra);
export const badGateway = (message?: string, code: CodeWithStatus<502> = 'gateway_error') =>
  new AppError(code, message);
export const unavailable = (code: CodeWithStatus<503>, message?: string) => new AppError(code, message);
