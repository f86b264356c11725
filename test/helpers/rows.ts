// Named fixtures that read (and, where a test needs a state the API cannot reach, set) rows of
// the service's tables. A test outside a module's own folder reaches that module's tables only
// through these (scripts/check-fixtures.mjs checks it), so what each test looks at has a name.
import type { Selectable } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { drainJobs, type TestServer } from './server.js';

type Row<T extends keyof Database> = Selectable<Database[T]>;
const dbOf = (server: Pick<TestServer, 'deps'>) => server.deps.db;

// ---------------------------------------------------------------- the job queue

/** The jobs waiting to run, of one topic or of all. */
export async function pendingJobs(
  server: Pick<TestServer, 'deps'>,
  topic?: string,
  dueBy?: Date,
): Promise<Row<'jobs'>[]> {
  let q = dbOf(server).selectFrom('jobs').selectAll().where('status', '=', 'pending');
  if (topic) q = q.where('topic', '=', topic);
  if (dueBy) q = q.where('run_at', '<=', dueBy);
  return q.execute();
}

/**
 * Runs jobs until none of `topic` (or none at all) is pending; with `due`, only jobs due by the
 * server's clock count (a later retry may wait).
 */
export async function runJobs(
  server: TestServer,
  options: { topic?: string; due?: boolean } = {},
): Promise<void> {
  await drainJobs(
    server,
    async () =>
      (await pendingJobs(server, options.topic, options.due ? server.clock.now() : undefined)).length === 0,
  );
}

/** Every job of one topic, oldest first; with `payload`, those whose payload contains it. */
export async function jobsOf(
  server: Pick<TestServer, 'deps'>,
  topic: string,
  payload?: Record<string, unknown>,
): Promise<Row<'jobs'>[]> {
  let q = dbOf(server).selectFrom('jobs').selectAll().where('topic', '=', topic);
  if (payload) q = q.where('payload', '@>', JSON.stringify(payload) as never);
  return q.orderBy('created_at').execute();
}

/** Every job whose payload contains `payload`, whatever its topic. */
export async function jobsWith(
  server: Pick<TestServer, 'deps'>,
  payload: Record<string, unknown>,
): Promise<Row<'jobs'>[]> {
  return dbOf(server)
    .selectFrom('jobs')
    .selectAll()
    .where('payload', '@>', JSON.stringify(payload) as never)
    .execute();
}

// ---------------------------------------------------------------- mail

/** A mail test mode kept (for the Test inbox) under this id, or undefined. */
export async function keptMail(
  server: Pick<TestServer, 'deps'>,
  id: string,
): Promise<Row<'sandbox_emails'> | undefined> {
  return dbOf(server).selectFrom('sandbox_emails').selectAll().where('id', '=', id).executeTakeFirst();
}

// ---------------------------------------------------------------- bookings and money

/** A booking's row. */
export async function registrationRow(
  server: Pick<TestServer, 'deps'>,
  id: string,
): Promise<Row<'registrations'>> {
  return dbOf(server).selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The ledger entries written for one source (a booking, membership or payout id), oldest first. */
export async function ledgerOf(
  server: Pick<TestServer, 'deps'>,
  sourceId: string,
): Promise<Row<'ledger_entries'>[]> {
  return dbOf(server)
    .selectFrom('ledger_entries')
    .selectAll()
    .where('source_id', '=', sourceId)
    .orderBy('seq')
    .execute();
}

/** Every ledger entry of an account, oldest first. */
export async function accountLedger(
  server: Pick<TestServer, 'deps'>,
  accountId: string,
): Promise<Row<'ledger_entries'>[]> {
  return dbOf(server)
    .selectFrom('ledger_entries')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('seq')
    .execute();
}

/** A payment at the sandbox gateway. */
export async function sandboxPaymentRow(
  server: Pick<TestServer, 'deps'>,
  id: string,
): Promise<Row<'sandbox_payments'>> {
  return dbOf(server)
    .selectFrom('sandbox_payments')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** A payout's row. */
export async function payoutRow(server: Pick<TestServer, 'deps'>, id: string): Promise<Row<'payouts'>> {
  return dbOf(server).selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A membership's row. */
export async function membershipRow(
  server: Pick<TestServer, 'deps'>,
  id: string,
): Promise<Row<'memberships'>> {
  return dbOf(server).selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The GST documents of one booking, in the order issued. */
export async function gstDocumentsOf(
  server: Pick<TestServer, 'deps'>,
  registrationId: string,
): Promise<Row<'gst_documents'>[]> {
  return dbOf(server)
    .selectFrom('gst_documents')
    .selectAll()
    .where('registration_id', '=', registrationId)
    .orderBy('issued_at')
    .execute();
}

// ---------------------------------------------------------------- events

/** An event's row. */
export async function eventRow(server: Pick<TestServer, 'deps'>, id: string): Promise<Row<'events'>> {
  return dbOf(server).selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** An event's seat counter for one scope (`event`, `tier:<name>`, `track:<n>`): how many seats are taken. */
export async function seatsTaken(
  server: Pick<TestServer, 'deps'>,
  eventId: string,
  scope = 'event',
): Promise<number> {
  const row = await dbOf(server)
    .selectFrom('seat_counters')
    .select('taken')
    .where('event_id', '=', eventId)
    .where('scope', '=', scope)
    .executeTakeFirstOrThrow();
  return Number(row.taken);
}

/**
 * A seat of an event held as another instance of the service would hold it: its row written
 * straight to the database, so this server's memory of the event's statuses is not told.
 */
export async function seatHeldElsewhere(
  server: Pick<TestServer, 'deps' | 'clock'>,
  eventId: string,
  seatId: string,
): Promise<void> {
  const event = await eventRow(server, eventId);
  await dbOf(server)
    .insertInto('event_seats')
    .values({
      event_id: event.id,
      seat_id: seatId,
      account_id: event.account_id,
      mode: event.mode,
      category: 'Gold',
      status: 'held',
      hold_token: `hold_elsewhere_${seatId}`,
      held_until: new Date(server.clock.now().getTime() + 3_600_000),
      registration_id: null,
      attendee_id: null,
      client_address: null,
      updated_at: server.clock.now(),
    })
    .execute();
}

/** The event with this title, or undefined (titles of a run's own: the database may hold other runs'). */
export async function eventTitled(
  server: Pick<TestServer, 'deps'>,
  title: string,
): Promise<Row<'events'> | undefined> {
  return dbOf(server).selectFrom('events').selectAll().where('title', '=', title).executeTakeFirst();
}

/**
 * Marks an event published without the API's checks (a state the API refuses to reach, as when
 * the account's keys or publishing access went away after it was published).
 */
export async function forcePublished(server: Pick<TestServer, 'deps'>, eventId: string): Promise<void> {
  await dbOf(server).updateTable('events').set({ status: 'published' }).where('id', '=', eventId).execute();
}

// ---------------------------------------------------------------- accounts

/** The account (user) with this email, or undefined. */
export async function userByEmail(
  server: Pick<TestServer, 'deps'>,
  email: string,
): Promise<Row<'users'> | undefined> {
  return dbOf(server)
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** An account's API keys. */
export async function apiKeysOf(
  server: Pick<TestServer, 'deps'>,
  userId: string,
): Promise<Row<'api_keys'>[]> {
  return dbOf(server).selectFrom('api_keys').selectAll().where('user_id', '=', userId).execute();
}

/** An account's dashboard sessions. */
export async function dashboardSessionsOf(
  server: Pick<TestServer, 'deps'>,
  userId?: string,
): Promise<Row<'dashboard_sessions'>[]> {
  let q = dbOf(server).selectFrom('dashboard_sessions').selectAll();
  if (userId) q = q.where('user_id', '=', userId);
  return q.execute();
}

// ---------------------------------------------------------------- organisations and their members

/** The organisation's member rows (docs/decisions/25-organiser-teams-and-roles.md). */
export async function organisationMembers(
  server: Pick<TestServer, 'deps'>,
  organisationId: string,
): Promise<Row<'organisation_members'>[]> {
  return dbOf(server)
    .selectFrom('organisation_members')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('user_id')
    .execute();
}

/**
 * Makes a person a member of an organisation, as an accepted invitation would, and has their
 * dashboard sessions work in it (the matrix test sets up every role this way).
 */
export async function joinOrganisation(
  server: Pick<TestServer, 'deps' | 'clock'>,
  organisationId: string,
  userId: string,
  role: Row<'organisation_members'>['role'],
  eventIds: string[] | null = null,
): Promise<void> {
  await dbOf(server)
    .insertInto('organisation_members')
    .values({
      organisation_id: organisationId,
      user_id: userId,
      role,
      event_ids: eventIds,
      created_at: server.clock.now(),
    })
    .execute();
  await dbOf(server)
    .updateTable('dashboard_sessions')
    .set({ organisation_id: organisationId })
    .where('user_id', '=', userId)
    .execute();
}

/** A user row alone, as sign-up wrote it before organisations (migration 0080) existed. */
export async function insertUserAsBeforeOrganisations(
  server: Pick<TestServer, 'deps' | 'clock'>,
  user: { id: string; email: string; passwordHash: string; name: string },
): Promise<void> {
  await dbOf(server)
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      password_hash: user.passwordHash,
      name: user.name,
      phone: null,
      created_at: server.clock.now(),
    })
    .execute();
}

// ---------------------------------------------------------------- memberships

/** The member codes issued to an email (only their hashes are stored). */
export async function memberCodesOf(
  server: Pick<TestServer, 'deps'>,
  email: string,
): Promise<Row<'member_codes'>[]> {
  return dbOf(server).selectFrom('member_codes').selectAll().where('email', '=', email).execute();
}

// ---------------------------------------------------------------- the sandbox gateway

/** A subscription at the sandbox gateway. */
export async function sandboxSubscriptionRow(
  server: Pick<TestServer, 'deps'>,
  id: string,
): Promise<Row<'sandbox_subscriptions'>> {
  return dbOf(server)
    .selectFrom('sandbox_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Moves a sandbox subscription to a status the gateway reached on its own (a state no call of ours sets). */
export async function setSandboxSubscriptionStatus(
  server: Pick<TestServer, 'deps'>,
  id: string,
  status: Row<'sandbox_subscriptions'>['status'],
): Promise<void> {
  await dbOf(server).updateTable('sandbox_subscriptions').set({ status }).where('id', '=', id).execute();
}

/** The orders the sandbox gateway was asked for by an account. */
export async function sandboxOrdersOf(
  server: Pick<TestServer, 'deps'>,
  accountId: string,
): Promise<Row<'sandbox_orders'>[]> {
  return dbOf(server).selectFrom('sandbox_orders').selectAll().where('account_id', '=', accountId).execute();
}

/** Seeds a payment at the sandbox gateway in a state its API does not make (uncaptured, or in another currency). */
export async function seedSandboxPayment(
  server: Pick<TestServer, 'deps' | 'clock'>,
  payment: {
    id: string;
    orderId: string;
    amount: number;
    status: Row<'sandbox_payments'>['status'];
    currency: string;
  },
): Promise<void> {
  const { id, orderId, amount, status, currency } = payment;
  await dbOf(server)
    .insertInto('sandbox_payments')
    .values({ id, order_id: orderId, amount, currency, status, created_at: server.clock.now() })
    .execute();
}

/** Marks the newest job dead, as if it had given up (a state only many failed attempts reach); answers its id. */
export async function markNewestJobDead(server: Pick<TestServer, 'deps'>): Promise<string> {
  const job = await dbOf(server)
    .selectFrom('jobs')
    .select('id')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  await dbOf(server).updateTable('jobs').set({ status: 'dead' }).where('id', '=', job.id).execute();
  return job.id;
}

// ---------------------------------------------------------------- the door

/** The door lists a person (attendee) was admitted on, or expected at: `{ list, checked_in_at }` per list. */
export async function doorListAdmissionsOf(
  server: Pick<TestServer, 'deps'>,
  attendeeId: string,
): Promise<Row<'door_list_admissions'>[]> {
  return dbOf(server)
    .selectFrom('door_list_admissions')
    .selectAll()
    .where('attendee_id', '=', attendeeId)
    .execute();
}

// ---- fx-door

/** The confirmed bookings of one event. */
export async function confirmedBookingsOf(
  server: Pick<TestServer, 'deps'>,
  eventId: string,
): Promise<Row<'registrations'>[]> {
  return dbOf(server)
    .selectFrom('registrations')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('status', '=', 'confirmed')
    .execute();
}

/** An account's payouts, newest first. */
export async function payoutsOf(
  server: Pick<TestServer, 'deps'>,
  accountId: string,
): Promise<Row<'payouts'>[]> {
  return dbOf(server)
    .selectFrom('payouts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('seq', 'desc')
    .execute();
}

/** An account's sandbox clocks (none while its clock was never moved). */
export async function sandboxClocksOf(
  server: Pick<TestServer, 'deps'>,
  accountId: string,
): Promise<Row<'sandbox_clocks'>[]> {
  return dbOf(server).selectFrom('sandbox_clocks').selectAll().where('account_id', '=', accountId).execute();
}

/** Every booking of one event, whatever its state. */
export async function registrationsOf(
  server: Pick<TestServer, 'deps'>,
  eventId: string,
): Promise<Row<'registrations'>[]> {
  return dbOf(server).selectFrom('registrations').selectAll().where('event_id', '=', eventId).execute();
}

/**
 * Seeds webhook delivery log entries of an account (test mode, answered 200), as if that many
 * had been sent: a log the API fills only by sending.
 */
export async function addWebhookDeliveries(
  server: Pick<TestServer, 'deps'>,
  accountId: string,
  deliveries: { id: string; createdAt: Date; eventId?: string }[],
): Promise<void> {
  await dbOf(server)
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((d) => ({
        id: d.id,
        account_id: accountId,
        mode: 'test' as const,
        event_id: d.eventId ?? `evt_${d.id}`,
        type: 'registration.confirmed',
        url: 'https://example.com/h',
        status_code: 200,
        error: null,
        duration_ms: 5,
        created_at: d.createdAt,
      })),
    )
    .execute();
}

/** Seeds a job that ran and finished at `at` (of a topic no handler knows). */
export async function addFinishedJob(
  server: Pick<TestServer, 'deps'>,
  id: string,
  topic: string,
  at: Date,
): Promise<void> {
  await dbOf(server)
    .insertInto('jobs')
    .values({
      id,
      topic,
      payload: '{}',
      status: 'done',
      run_at: at,
      max_attempts: 0,
      created_at: at,
      finished_at: at,
      locked_until: null,
      locked_by: null,
      last_error: null,
    })
    .execute();
}

/** A job's row, or undefined once it is gone. */
export async function jobRow(server: Pick<TestServer, 'deps'>, id: string): Promise<Row<'jobs'> | undefined> {
  return dbOf(server).selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Seeds a gateway order the service made and nobody expects any more (as a subscribe that lost
 * its claim leaves it), due for its check now.
 */
export async function addGatewayOrder(
  server: Pick<TestServer, 'deps' | 'clock'>,
  order: {
    receipt: string;
    kind: 'registration' | 'membership';
    mode: 'test' | 'live';
    accountId: string;
    amountPaise: number;
    orderId: string;
  },
): Promise<void> {
  const now = server.clock.now();
  await dbOf(server)
    .insertInto('gateway_orders')
    .values({
      receipt: order.receipt,
      kind: order.kind,
      mode: order.mode,
      account_id: order.accountId,
      amount_paise: order.amountPaise,
      currency: 'INR',
      order_id: order.orderId,
      payment_id: null,
      created_at: now,
      check_after: now,
      settled_at: null,
      outcome: null,
      last_error: null,
    })
    .execute();
}

/** Every job in the queue, whatever its topic and state. */
export async function everyJob(server: Pick<TestServer, 'deps'>): Promise<Row<'jobs'>[]> {
  return dbOf(server).selectFrom('jobs').selectAll().execute();
}

/** An event's door passes, oldest first. */
export async function doorPassesOf(
  server: Pick<TestServer, 'deps'>,
  eventId: string,
): Promise<Row<'door_passes'>[]> {
  return dbOf(server)
    .selectFrom('door_passes')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('created_at')
    .execute();
}

/** An account's audit entries of one action, oldest first. */
export async function auditEntriesOf(
  server: Pick<TestServer, 'deps'>,
  accountId: string,
  action: string,
): Promise<Row<'audit_log'>[]> {
  return dbOf(server)
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('action', '=', action)
    .orderBy('seq')
    .execute();
}
