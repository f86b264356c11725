// Migrations are imported, not read from a folder, so the compiled build and tsx
// run the same list. Names sort in order of application.
import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_events.js';
import * as m0003 from './0003_registrations.js';
import * as m0004 from './0004_webhooks.js';
import * as m0005 from './0005_memberships.js';
import * as m0006 from './0006_reconciliation.js';
import * as m0007 from './0007_trust.js';
import * as m0008 from './0008_ledger.js';
import * as m0009 from './0009_dashboard.js';
import * as m0011 from './0011_promo_reservations.js';
import * as m0012 from './0012_jobs.js';
import * as m0013 from './0013_account_recovery.js';
import * as m0014 from './0014_ledger_immutable.js';
import * as m0015 from './0015_pending_bookings.js';
import * as m0018 from './0018_door.js';
import * as m0019 from './0019_idempotency.js';
import * as m0020 from './0020_job_order.js';
import * as m0021 from './0021_door_versions.js';
import * as m0035 from './0035_whatsapp.js';
import * as m0040 from './0040_gst.js';
import * as m0050 from './0050_waitlist.js';
import * as m0051 from './0051_audit_log.js';
import * as m0053 from './0053_publishing_requests.js';
import * as m0055 from './0055_export_order.js';
import * as m0060 from './0060_booking_lifecycle.js';
import * as m0061 from './0061_sandbox_refunds_gwrefund.js';
import * as m0062 from './0062_members_ending_claim.js';
import * as m0063 from './0063_test_orders_clock.js';
import * as m0064 from './0064_whole_event_option.js';
import * as m0065 from './0065_door_lists.js';
import * as m0067 from './0067_sandbox_mail_bodies.js';
import * as m0068 from './0068_plan_pages.js';
import * as m0069 from './0069_closing_loops.js';
import * as m0070 from './0070_seating_plans.js';
import * as m0071 from './0071_event_seats.js';
import * as m0072 from './0072_booked_seats.js';
import * as m0073 from './0073_hold_addresses.js';
import * as m0074 from './0074_seat_moves_door.js';
import * as m0075 from './0075_track_seats.js';
import * as m0076 from './0076_offline_payment.js';
import * as m0077 from './0077_awaiting_offline_payment.js';
import * as m0080 from './0080_organisations.js';
import * as m0081 from './0081_statement_mappings.js';
import * as m0083 from './0083_two_factor.js';
import * as m0084 from './0084_waiting_room.js';
import * as m0085 from './0085_waiting_room_verification.js';
import * as m0087 from './0087_partitioned_audit_log.js';
import * as m0088 from './0088_partitioned_webhook_deliveries.js';
import * as m0089 from './0089_partitioned_jobs.js';
import * as m0090 from './0090_partitioned_checkin_log.js';
import * as m0091 from './0091_buyer_limit_indexes.js';
import * as m0092 from './0092_attendees_event.js';
import * as m0093 from './0093_events_list.js';
import * as m0094 from './0094_registrations_null_indexes.js';

const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_events': m0002,
  '0003_registrations': m0003,
  '0004_webhooks': m0004,
  '0005_memberships': m0005,
  '0006_reconciliation': m0006,
  '0007_trust': m0007,
  '0008_ledger': m0008,
  '0009_dashboard': m0009,
  '0011_promo_reservations': m0011,
  '0012_jobs': m0012,
  '0013_account_recovery': m0013,
  '0014_ledger_immutable': m0014,
  '0015_pending_bookings': m0015,
  '0018_door': m0018,
  '0019_idempotency': m0019,
  '0020_job_order': m0020,
  '0021_door_versions': m0021,
  '0035_whatsapp': m0035,
  '0040_gst': m0040,
  '0050_waitlist': m0050,
  '0051_audit_log': m0051,
  '0053_publishing_requests': m0053,
  '0055_export_order': m0055,
  '0060_booking_lifecycle': m0060,
  '0061_sandbox_refunds_gwrefund': m0061,
  '0062_members_ending_claim': m0062,
  '0063_test_orders_clock': m0063,
  '0064_whole_event_option': m0064,
  '0065_door_lists': m0065,
  '0067_sandbox_mail_bodies': m0067,
  '0068_plan_pages': m0068,
  '0069_closing_loops': m0069,
  '0070_seating_plans': m0070,
  '0071_event_seats': m0071,
  '0072_booked_seats': m0072,
  '0073_hold_addresses': m0073,
  '0074_seat_moves_door': m0074,
  '0075_track_seats': m0075,
  '0076_offline_payment': m0076,
  '0077_awaiting_offline_payment': m0077,
  '0080_organisations': m0080,
  '0081_statement_mappings': m0081,
  '0083_two_factor': m0083,
  '0084_waiting_room': m0084,
  '0085_waiting_room_verification': m0085,
  '0087_partitioned_audit_log': m0087,
  '0088_partitioned_webhook_deliveries': m0088,
  '0089_partitioned_jobs': m0089,
  '0090_partitioned_checkin_log': m0090,
  '0091_buyer_limit_indexes': m0091,
  '0092_attendees_event': m0092,
  '0093_events_list': m0093,
  '0094_registrations_null_indexes': m0094,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
