// Exports (docs/decisions/17-the-organisers-office.md): an event's registrations, the members, the ledger and
// the GST documents of the caller's account and mode as CSV, streamed. HTTP-free: each
// export checks its input, then answers a file name and a byte stream that reads the
// owners' rows a batch at a time (keyset pages through their own services) as the
// reader takes the bytes, so 100,000 rows take no more memory than 500.
import { type BookedSeat, seatsOf, seatWords } from '../seat-holds/booked-seats.service.js';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, LedgerKind, Mode } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { nowFor } from '../accounts/account-clock.js';
import * as events from '../events/events.service.js';
import * as gst from '../gst/documents.service.js';
import * as ledger from '../ledger/ledger.service.js';
import * as memberships from '../memberships/memberships.service.js';
import { computeStanding } from '../memberships/standing.js';
import * as registrations from '../registrations/registrations.service.js';
import type { ReadPool } from '../../db/read-pool.js';
import { paymentColumns } from './payment-columns.js';
import { csvStream, istTimestamp, rupeesText, type CellValue, type Column } from './csv.js';

/** Rows read per query: one batch is all an export holds at a time. */
export const EXPORT_BATCH = 500;

export interface CsvExport {
  filename: string;
  stream: Readable;
  /** How many seconds behind the primary the rows were read (the read pool's replica; 0 without one). */
  lagSeconds: number;
}

export interface ExportDeps {
  db: Kysely<Database>;
  /** Where the files' rows are read (src/db/read-pool.ts): a replica, or the primary. */
  reads: ReadPool;
  clock: Clock;
  /** The ledger's settings (PAYOUT_CLEARING_DAYS), for when entries count as available. */
  ledger: ledger.LedgerDeps;
}

/** `registrations-<slug>-test-2026-11-25.csv`: what, whose, the mode when test, the day (India time). */
export function fileName(parts: readonly string[], mode: Mode, now: Date): string {
  const day = istTimestamp(now).slice(0, 10);
  const name = [...parts, ...(mode === 'test' ? ['test'] : []), day].join('-');
  return `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.csv`;
}

/** `from-2026-04-01`, `to-2026-04-30` in a file name, for the days asked. */
export const rangeParts = (days: DayRange) => [
  ...(days.from ? [`from-${days.from}`] : []),
  ...(days.to ? [`to-${days.to}`] : []),
];

export async function* flatten<T>(batches: AsyncIterable<readonly T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

// ---------------------------------------------------------------- days

export interface DayRange {
  /** First day, `YYYY-MM-DD`, India time (inclusive). */
  from?: string | undefined;
  /** Last day, inclusive. */
  to?: string | undefined;
}

function checkDay(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!d || d.toISOString().slice(0, 10) !== value)
    throw badRequest('invalid_date', `${field} must be a day as YYYY-MM-DD, such as 2026-04-01`);
  return value;
}

/** A checked range of days: 400 `invalid_date` for a day that does not exist or `from` after `to`. */
export function parseDayRange(range: DayRange): DayRange {
  const from = checkDay(range.from, 'from');
  const to = checkDay(range.to, 'to');
  if (from !== undefined && to !== undefined && from > to)
    throw badRequest('invalid_date', 'from must not be after to');
  return { from, to };
}

/** The instants a range of India days covers: [start of `from`, start of the day after `to`). */
export function instantsOf(range: DayRange): { from?: Date | undefined; to?: Date | undefined } {
  const start = (day: string) => new Date(`${day}T00:00:00+05:30`);
  return {
    from: range.from === undefined ? undefined : start(range.from),
    to: range.to === undefined ? undefined : new Date(start(range.to).getTime() + 86_400_000),
  };
}

// ---------------------------------------------------------------- registrations

type EventRow = Awaited<ReturnType<typeof events.loadOwnedEvent>>;
type Booking = {
  r: registrations.RegistrationRow;
  people: readonly registrations.AttendeeRow[];
  numbers: { invoice: string | null; creditNote: string | null } | undefined;
  /** A seated event's seats of the booking, in words. */
  seats?: readonly string[] | undefined;
};

/** An answer as its cell: text as given, a number as written, a tick as yes/no, anything else as JSON. */
function answerText(value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/**
 * The registrations file's columns: the booking, its people and door state, its money and
 * documents, then one column per question the event asks now (headed by its label; by
 * `label [name]` where two share a label) and `other_answers`, the answers to questions
 * the event no longer asks, as JSON.
 */
export function registrationColumns(
  event: Pick<EventRow, 'tracks' | 'custom_fields' | 'seating_plan_id'>,
): Column<Booking>[] {
  const primary = (b: Booking) => b.people.find((a) => a.idx === 0);
  const questions = event.custom_fields;
  const labels = new Map<string, number>();
  for (const q of questions) labels.set(q.label, (labels.get(q.label) ?? 0) + 1);
  const asked = new Set(questions.map((q) => q.name));
  return [
    { header: 'registration_id', value: (b) => b.r.id },
    { header: 'status', value: (b) => b.r.status },
    { header: 'pending_reason', value: (b) => b.r.pending_reason },
    { header: 'name', value: (b) => b.r.name },
    { header: 'email', value: (b) => b.r.email },
    { header: 'phone', value: (b) => b.r.phone },
    { header: 'ticket_type', value: (b) => b.r.ticket_type },
    { header: 'track_number', value: (b) => (b.r.sub_event_id === null ? null : b.r.sub_event_id + 1) },
    {
      header: 'track',
      value: (b) => (b.r.sub_event_id === null ? null : (event.tracks[b.r.sub_event_id]?.title ?? null)),
    },
    // A seated event's file names the seats (`Stalls · Row C, seat 12; …`, one per person, in seat order).
    ...(!events.isSeated(event)
      ? []
      : [{ header: 'seats', value: (b: Booking) => b.seats?.join('; ') || null } satisfies Column<Booking>]),
    { header: 'quantity', value: (b) => b.r.quantity },
    {
      header: 'team_members',
      value: (b) =>
        b.people
          .filter((a) => a.idx > 0)
          .map((a) => `${a.name} <${a.email}>`)
          .join('; ') || null,
    },
    { header: 'amount', value: (b) => rupeesText(b.r.amount_paise) },
    { header: 'currency', value: (b) => b.r.currency },
    ...paymentColumns<Booking>((b) => b.r),
    { header: 'promo_code', value: (b) => b.r.promo_code },
    { header: 'invoice_number', value: (b) => b.numbers?.invoice ?? null },
    { header: 'credit_note_number', value: (b) => b.numbers?.creditNote ?? null },
    { header: 'checked_in', value: (b) => (primary(b)?.checked_in_at ?? null) !== null },
    { header: 'checked_in_at', value: (b) => primary(b)?.checked_in_at ?? null },
    { header: 'people_checked_in', value: (b) => b.people.filter((a) => a.checked_in_at !== null).length },
    { header: 'ticket_code', value: (b) => b.r.ticket_code },
    { header: 'booked_at', value: (b) => b.r.created_at },
    { header: 'confirmed_at', value: (b) => b.r.confirmed_at },
    { header: 'cancelled_at', value: (b) => b.r.cancelled_at },
    ...questions.map(
      (q): Column<Booking> => ({
        header: (labels.get(q.label) ?? 0) > 1 ? `${q.label} [${q.name}]` : q.label,
        value: (b) =>
          Object.hasOwn(b.r.custom_fields, q.name) ? answerText(b.r.custom_fields[q.name]) : null,
      }),
    ),
    {
      header: 'other_answers',
      value: (b) => {
        const other = Object.entries(b.r.custom_fields).filter(([k]) => !asked.has(k));
        return other.length === 0 ? null : JSON.stringify(Object.fromEntries(other));
      },
    },
  ];
}

export interface RegistrationExportInput {
  status?: 'pending' | 'confirmed' | 'cancelled' | 'refunded' | undefined;
  ticketType?: string | undefined;
  /** A track index as the API writes it (0-based decimal). */
  subEventId?: string | undefined;
  checkedIn?: 'true' | 'false' | undefined;
  q?: string | undefined;
}

export async function registrationsCsv(
  deps: ExportDeps,
  p: KeyPrincipal,
  eventId: string,
  input: RegistrationExportInput,
): Promise<CsvExport> {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const filter: registrations.RegistrationExportFilter = {
    status: input.status,
    ticketType: input.ticketType,
    subEventId:
      input.subEventId === undefined ? undefined : events.parseTrackIndex(input.subEventId, 'subEventId'),
    checkedIn: input.checkedIn === undefined ? undefined : input.checkedIn === 'true',
    q: input.q,
  };
  async function* bookings(): AsyncGenerator<Booking> {
    const db = deps.reads.db;
    for await (const batch of registrations.exportBatches(db, event.id, filter, EXPORT_BATCH)) {
      const ids = batch.rows.map((r) => r.id);
      const numbers = await gst.documentNumbersOf(db, ids);
      const seats = !events.isSeated(event) ? new Map<string, BookedSeat[]>() : await seatsOf(db, ids);
      for (const r of batch.rows) {
        const booked = seats.get(r.id)?.map(seatWords);
        yield { r, people: batch.people.get(r.id) ?? [], numbers: numbers.get(r.id), seats: booked };
      }
    }
  }
  return {
    filename: fileName(['registrations', event.slug], p.mode, deps.clock.now()),
    stream: await csvStream(registrationColumns(event), bookings()),
    lagSeconds: await deps.reads.lagSeconds(),
  };
}

// ---------------------------------------------------------------- members

type MemberRow = memberships.MemberExportRow;

export function memberColumns(now: Date): Column<MemberRow>[] {
  const standing = (m: MemberRow) =>
    computeStanding(memberships.standingInput(m, { kind: m.plan_kind }), now);
  return [
    { header: 'membership_id', value: (m) => m.id },
    { header: 'name', value: (m) => m.name },
    { header: 'email', value: (m) => m.email },
    { header: 'phone', value: (m) => m.phone },
    { header: 'plan_id', value: (m) => m.plan_id },
    { header: 'plan', value: (m) => m.plan_name },
    { header: 'plan_kind', value: (m) => m.plan_kind },
    { header: 'state', value: (m) => standing(m).displayStatus },
    { header: 'good_standing', value: (m) => standing(m).goodStanding },
    { header: 'status', value: (m) => m.status },
    { header: 'valid_until', value: (m) => m.valid_until },
    { header: 'cancel_at_period_end', value: (m) => m.cancel_at_period_end },
    { header: 'ended_at', value: (m) => m.ended_at },
    { header: 'source', value: (m) => m.source },
    { header: 'subscription_id', value: (m) => m.subscription_id },
    { header: 'joined_at', value: (m) => m.created_at },
  ];
}

export async function membersCsv(
  deps: ExportDeps,
  p: KeyPrincipal,
  input: { planId?: string | undefined },
): Promise<CsvExport> {
  // Standing as of one instant for the whole file (test mode: the account's sandbox clock).
  const now = await nowFor(deps, p.userId, p.mode);
  return {
    filename: fileName(['members'], p.mode, deps.clock.now()),
    stream: await csvStream(
      memberColumns(now),
      flatten(memberships.exportMembers(deps.reads.db, p, { planId: input.planId }, EXPORT_BATCH)),
    ),
    lagSeconds: await deps.reads.lagSeconds(),
  };
}

// ---------------------------------------------------------------- ledger

const KIND_TEXT: Record<LedgerKind, string> = {
  ticket_sale: 'Ticket sale',
  platform_fee: 'Platform fee',
  gateway_fee: 'Gateway fee',
  ticket_refund: 'Ticket refund',
  platform_fee_reversal: 'Platform fee reversed',
  membership_payment: 'Membership payment',
  payout_hold: 'Withdrawal',
  payout_credit: 'Withdrawal returned',
  offline_sale: 'Offline sale',
  offline_refund: 'Offline refund',
};

/**
 * The ledger file's columns. Amounts are split into `credit` and `debit` (both written
 * without a sign, one of them empty), as bank statements do: a negative number would
 * begin with `-`, which the formula rule would have to prefix, and then no spreadsheet
 * could add it up.
 */
export function ledgerColumns(now: Date): Column<ledger.EntryView>[] {
  return [
    { header: 'entry_id', value: (e) => e.id },
    { header: 'created_at', value: (e) => e.createdAt },
    { header: 'kind', value: (e) => e.kind },
    { header: 'description', value: (e) => KIND_TEXT[e.kind] },
    { header: 'credit', value: (e) => (e.amountPaise >= 0 ? rupeesText(e.amountPaise) : null) },
    { header: 'debit', value: (e) => (e.amountPaise < 0 ? rupeesText(-e.amountPaise) : null) },
    { header: 'currency', value: () => 'INR' },
    { header: 'source_type', value: (e) => e.sourceType },
    { header: 'source_id', value: (e) => e.sourceId },
    { header: 'payment_id', value: (e) => (e.sourceType === 'membership' ? e.ref : null) },
    { header: 'captured_at', value: (e) => e.capturedAt },
    { header: 'available_from', value: (e) => e.availableFrom ?? e.createdAt },
    {
      header: 'state',
      value: (e) => (e.availableFrom === null || e.availableFrom <= now ? 'available' : 'pending'),
    },
  ];
}

export async function ledgerCsv(deps: ExportDeps, p: KeyPrincipal, range: DayRange): Promise<CsvExport> {
  const days = parseDayRange(range);
  const now = await ledger.ledgerNow(deps.ledger, p.userId, p.mode);
  return {
    filename: fileName(['ledger', ...rangeParts(days)], p.mode, deps.clock.now()),
    stream: await csvStream(
      ledgerColumns(now),
      flatten(
        ledger.exportEntries(
          { ...deps.ledger, db: deps.reads.db },
          p.userId,
          p.mode,
          instantsOf(days),
          EXPORT_BATCH,
        ),
      ),
    ),
    lagSeconds: await deps.reads.lagSeconds(),
  };
}

// ---------------------------------------------------------------- GST documents
