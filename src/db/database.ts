// The database Kysely sees: the union of the tables each module declares next to its code
// (src/modules/<m>/<m>.tables.ts, src/jobs/jobs.tables.ts: the row types and the tables the module
// owns). Every row type is re-exported here, so `import type { … } from '…/db/database.js'` works
// for any of them.
import type { AccountsTables } from '../modules/accounts/accounts.tables.js';
import type { AuditTables } from '../modules/audit/audit.tables.js';
import type { BroadcastTables } from '../modules/broadcast/broadcast.tables.js';
import type { CheckinTables } from '../modules/checkin/checkin.tables.js';
import type { DashboardTables } from '../dashboard/dashboard.tables.js';
import type { EventsTables } from '../modules/events/events.tables.js';
import type { GstTables } from '../modules/gst/gst.tables.js';
import type { IdempotencyTables } from '../modules/idempotency/idempotency.tables.js';
import type { JobsTables } from '../jobs/jobs.tables.js';
import type { KeysTables } from '../modules/keys/keys.tables.js';
import type { LedgerTables } from '../modules/ledger/ledger.tables.js';
import type { MailTables } from '../modules/mail/mail.tables.js';
import type { MembershipsTables } from '../modules/memberships/memberships.tables.js';
import type { PaymentsTables } from '../modules/payments/payments.tables.js';
import type { PayoutsTables } from '../modules/payouts/payouts.tables.js';
import type { ReconciliationTables } from '../modules/reconciliation/reconciliation.tables.js';
import type { RegistrationsTables } from '../modules/registrations/registrations.tables.js';
import type { SandboxTables } from '../modules/sandbox/sandbox.tables.js';
import type { SeatHoldsTables } from '../modules/seat-holds/seat-holds.tables.js';
import type { SeatingTables } from '../modules/seating/seating.tables.js';
import type { StatementsTables } from '../modules/statements/statements.tables.js';
import type { WaitingRoomTables } from '../modules/waiting-room/waiting-room.tables.js';
import type { WaitlistTables } from '../modules/waitlist/waitlist.tables.js';
import type { WebhooksTables } from '../modules/webhooks/webhooks.tables.js';
import type { WhatsAppTables } from '../modules/whatsapp/whatsapp.tables.js';

export type { Json, Mode, Role, Timestamp } from './columns.js';
export type * from '../modules/accounts/accounts.tables.js';
export type * from '../modules/audit/audit.tables.js';
export type * from '../modules/broadcast/broadcast.tables.js';
export type * from '../modules/checkin/checkin.tables.js';
export type * from '../dashboard/dashboard.tables.js';
export type * from '../modules/events/events.tables.js';
export type * from '../modules/gst/gst.tables.js';
export type * from '../modules/idempotency/idempotency.tables.js';
export type * from '../jobs/jobs.tables.js';
export type * from '../modules/keys/keys.tables.js';
export type * from '../modules/ledger/ledger.tables.js';
export type * from '../modules/mail/mail.tables.js';
export type * from '../modules/memberships/memberships.tables.js';
export type * from '../modules/payments/payments.tables.js';
export type * from '../modules/payouts/payouts.tables.js';
export type * from '../modules/reconciliation/reconciliation.tables.js';
export type * from '../modules/registrations/registrations.tables.js';
export type * from '../modules/sandbox/sandbox.tables.js';
export type * from '../modules/seat-holds/seat-holds.tables.js';
export type * from '../modules/seating/seating.tables.js';
export type * from '../modules/statements/statements.tables.js';
export type * from '../modules/waiting-room/waiting-room.tables.js';
export type * from '../modules/waitlist/waitlist.tables.js';
export type * from '../modules/webhooks/webhooks.tables.js';
export type * from '../modules/whatsapp/whatsapp.tables.js';

/** Every table; declared only by the modules (no table is added here). */
export interface Database
  extends AccountsTables,
    AuditTables,
    BroadcastTables,
    CheckinTables,
    DashboardTables,
    EventsTables,
    GstTables,
    IdempotencyTables,
    JobsTables,
    KeysTables,
    LedgerTables,
    MailTables,
    MembershipsTables,
    PaymentsTables,
    PayoutsTables,
    ReconciliationTables,
    RegistrationsTables,
    SandboxTables,
    SeatHoldsTables,
    SeatingTables,
    StatementsTables,
    WaitingRoomTables,
    WaitlistTables,
    WebhooksTables,
    WhatsAppTables {}
