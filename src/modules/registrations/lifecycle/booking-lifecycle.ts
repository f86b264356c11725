// A booking's lifecycle as one pure table (docs/decisions/20-booking-lifecycle.md), shaped like
// payouts/payout-state.ts: the states, the events that move a booking between them, the
// guard each event needs and who may set it off. `changeBooking` (change-booking.ts) is the
// one function that applies a row of it; the one-statement free booking and the door's admit
// take their SQL guards from here too (`guardSql`), and test/registrations/lifecycle.test.ts
// evaluates every state × event pair in PostgreSQL against `canApply`.
import { sql, type RawBuilder } from 'kysely';
import type { CodeWithStatus } from '../../../lib/errors.js';
import type { AuditActorKind, RegistrationStatus } from '../../../db/database.js';

/** Every status a booking can be in; `refunding` is the claim a refund holds while the gateway is asked. */
export const BOOKING_STATUSES = [
  'pending',
  'confirmed',
  'refunding',
  'cancelled',
  'refunded',
] as const satisfies readonly RegistrationStatus[];

/** Why a pending booking waits: a payment at the gateway, the organiser's approval, or a payment outside the gateway (§24). */
export type PendingReason = 'payment' | 'approval' | 'offline_payment';

/** A booking's state as the table reads it. */
export interface BookingState {
  status: RegistrationStatus;
  pending_reason: PendingReason | null;
  /** The gateway payment bound to it, if any. */
  payment_id: string | null;
  amount_paise: number | string;
}

/** What may happen to a booking. */
export type BookingEvent =
  | 'book' // a free booking, confirmed as it is written
  | 'await_payment' // a paid booking's step 1: pending until paid
  | 'await_approval' // a booking the organiser approves first
  | 'await_offline_payment' // a paid booking to be paid outside the gateway: pending, its seats held, until payBy
  | 'pay' // a verified captured payment (step 2, the gateway's notification, the sweep)
  | 'lose_last_seat' // paid, but the last seat went meanwhile: cancelled, the payment refunded by a job
  | 'approve'
  | 'reject'
  | 'cancel' // ends a booking holding no captured money (pending, free or unpaid)
  | 'claim_refund' // the claim before a refund at the gateway (cancel, refund or a partial refund of a paid booking)
  | 'complete_refund' // the gateway refunded: the claim ends as cancelled or refunded, or confirmed again after a partial refund
  | 'release_claim' // the gateway refused the refund: the booking is as it was
  | 'expire' // a paid booking left unpaid past its checkout window
  | 'mark_paid' // the organiser says the money arrived outside the gateway
  | 'lapse_unpaid' // an offline booking still unpaid at its payBy
  | 'refund_offline' // the organiser gave back, outside the gateway, what was paid outside it
  | 'refunded_at_gateway' // reconciliation found the payment refunded in full at the gateway
  | 'transfer' // a new holder, a new ticket code; the status stays
  | 'admit'; // the door lets its people in; the status stays

/** Where a refund's claim ends: the booking ended (cancelled, refunded), or still confirmed after a part was given back. */
export type ClaimedStatus = 'cancelled' | 'refunded' | 'confirmed';
export const CLAIMED_STATUSES = [
  'cancelled',
  'refunded',
  'confirmed',
] as const satisfies readonly ClaimedStatus[];

/** Who sets an event off, as the audit log names them. */
export type LifecycleActor = AuditActorKind;

export interface Transition {
  /** The states it starts from (none: the booking is being written). */
  from: readonly RegistrationStatus[];
  /** When it starts from pending: which wait it ends. */
  pendingReason?: PendingReason;
  /** Whether the booking must hold (true) or must not hold (false) a captured payment. */
  paid?: boolean;
  /** The state it leaves the booking in; `from` means unchanged (transfer, admit), a list the claim's choice. */
  to: RegistrationStatus | 'unchanged' | readonly ClaimedStatus[];
  /** Who may set it off. */
  actors: readonly LifecycleActor[];
  /** The audit log's verb (`registration.<verb>`; a completed refund's is its claim's, `cancel` or `refund`); none for the door, whose admits the check-in log records. */
  audit?: string;
  /** The 409 code a booking not in a `from` state gets. */
  refusal: CodeWithStatus<409>;
}

const PEOPLE: readonly LifecycleActor[] = ['user', 'key', 'staff'];
const BUYER: readonly LifecycleActor[] = ['key', 'user', 'system'];

/** The table. */
export const TRANSITIONS: { readonly [E in BookingEvent]: Transition } = {
  book: { from: [], to: 'confirmed', actors: BUYER, audit: 'book', refusal: 'registration_changed' },
  await_payment: { from: [], to: 'pending', actors: BUYER, audit: 'book', refusal: 'registration_changed' },
  await_approval: { from: [], to: 'pending', actors: BUYER, audit: 'book', refusal: 'registration_changed' },
  await_offline_payment: {
    from: [],
    to: 'pending',
    actors: BUYER,
    audit: 'book',
    refusal: 'registration_changed',
  },
  pay: {
    from: ['pending'],
    pendingReason: 'payment',
    to: 'confirmed',
    actors: ['key', 'user', 'system'],
    audit: 'pay',
    refusal: 'registration_not_pending',
  },
  lose_last_seat: {
    from: ['pending'],
    pendingReason: 'payment',
    to: 'cancelled',
    actors: ['key', 'user', 'system'],
    audit: 'sold_out',
    refusal: 'registration_not_pending',
  },
  approve: {
    from: ['pending'],
    pendingReason: 'approval',
    to: 'confirmed',
    actors: PEOPLE,
    audit: 'approve',
    refusal: 'not_awaiting_approval',
  },
  reject: {
    from: ['pending'],
    pendingReason: 'approval',
    to: 'cancelled',
    actors: PEOPLE,
    audit: 'reject',
    refusal: 'not_awaiting_approval',
  },
  cancel: {
    from: ['pending', 'confirmed'],
    paid: false,
    to: 'cancelled',
    actors: [...PEOPLE, 'attendee', 'system'],
    audit: 'cancel',
    refusal: 'already_ended',
  },
  claim_refund: {
    from: ['confirmed'],
    paid: true,
    to: 'refunding',
    actors: [...PEOPLE, 'attendee', 'system'],
    audit: 'refund_claim',
    refusal: 'already_ended',
  },
  complete_refund: {
    from: ['refunding'],
    to: CLAIMED_STATUSES,
    actors: [...PEOPLE, 'attendee', 'system'],
    audit: 'refund',
    refusal: 'registration_changed',
  },
  release_claim: {
    from: ['refunding'],
    to: 'confirmed',
    actors: [...PEOPLE, 'attendee', 'system'],
    audit: 'refund_release',
    refusal: 'registration_changed',
  },
  expire: {
    from: ['pending'],
    pendingReason: 'payment',
    paid: false,
    to: 'cancelled',
    actors: ['system'],
    audit: 'expire',
    refusal: 'registration_not_pending',
  },
  mark_paid: {
    from: ['pending'],
    pendingReason: 'offline_payment',
    to: 'confirmed',
    actors: PEOPLE,
    audit: 'mark_paid',
    refusal: 'registration_not_pending',
  },
  lapse_unpaid: {
    from: ['pending'],
    pendingReason: 'offline_payment',
    to: 'cancelled',
    actors: ['system'],
    audit: 'lapse_unpaid',
    refusal: 'registration_not_pending',
  },
  refund_offline: {
    from: ['confirmed'],
    paid: false,
    to: 'refunded',
    actors: PEOPLE,
    audit: 'refund_offline',
    refusal: 'already_ended',
  },
  refunded_at_gateway: {
    from: ['confirmed'],
    paid: true,
    to: 'refunded',
    actors: ['system'],
    audit: 'refunded_at_gateway',
    refusal: 'registration_changed',
  },
  transfer: {
    from: ['confirmed'],
    to: 'unchanged',
    actors: [...PEOPLE, 'attendee'],
    audit: 'transfer',
    refusal: 'not_confirmed',
  },
  admit: {
    from: ['confirmed'],
    to: 'unchanged',
    actors: ['user', 'key', 'door_pass', 'staff'],
    refusal: 'not_confirmed',
  },
};

export const BOOKING_EVENTS = Object.keys(TRANSITIONS) as BookingEvent[];

/** Whether the booking holds money captured at the gateway (what a refund gives back). */
export function holdsPayment(s: Pick<BookingState, 'payment_id' | 'amount_paise'>): boolean {
  return s.payment_id !== null && Number(s.amount_paise) > 0;
}

/** Whether `event` may happen to a booking in state `s` (the guard; the actor is checked apart). */
export function canApply(event: BookingEvent, s: BookingState): boolean {
  const t = TRANSITIONS[event];
  if (!t.from.includes(s.status)) return false;
  if (t.pendingReason !== undefined && s.pending_reason !== t.pendingReason) return false;
  if (t.paid !== undefined && holdsPayment(s) !== t.paid) return false;
  return true;
}

/** Whether `actor` may set `event` off. */
export function mayAct(event: BookingEvent, actor: LifecycleActor): boolean {
  return TRANSITIONS[event].actors.includes(actor);
}

/** The state after `event` (for a claim's completion, the status it claimed). */
export function statusAfter(
  event: BookingEvent,
  from: RegistrationStatus,
  claimed?: ClaimedStatus,
): RegistrationStatus {
  const to = TRANSITIONS[event].to;
  if (to === 'unchanged') return from;
  if (typeof to === 'string') return to;
  const chosen = to.find((s) => s === claimed);
  if (chosen === undefined) throw new Error(`${event} needs the status its claim chose`);
  return chosen;
}

/**
 * The guard of `event` as SQL over a row aliased `t` with the registrations' columns
 * `status`, `pending_reason`, `payment_id` and `amount_paise`: the condition of every
 * conditional UPDATE the lifecycle runs, of the door's admit and, for `book`, none (the row
 * is being written; its status is `statusAfter('book', …)`).
 */
export function guardSql(event: BookingEvent, t?: string): RawBuilder<boolean> {
  const col = (c: string) => (t === undefined ? sql.ref(c) : sql.ref(`${t}.${c}`));
  const tr = TRANSITIONS[event];
  if (tr.from.length === 0) return sql<boolean>`false`;
  const parts: RawBuilder<unknown>[] = [sql`${col('status')} = any(${[...tr.from]}::text[])`];
  if (tr.pendingReason !== undefined)
    parts.push(sql`${col('pending_reason')} is not distinct from ${tr.pendingReason}::text`);
  if (tr.paid === true) parts.push(sql`(${col('payment_id')} is not null and ${col('amount_paise')} > 0)`);
  if (tr.paid === false)
    parts.push(sql`not (${col('payment_id')} is not null and ${col('amount_paise')} > 0)`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** The lifecycle as a Mermaid state diagram, drawn from the table (docs/architecture/booking-lifecycle.md). */
export function stateDiagram(): string {
  const lines = ['stateDiagram-v2'];
  for (const e of BOOKING_EVENTS) {
    const t = TRANSITIONS[e];
    const tos = t.to === 'unchanged' ? null : typeof t.to === 'string' ? [t.to] : [...t.to];
    const label = `${e}${t.pendingReason ? ` (${t.pendingReason})` : ''}${t.paid === true ? ' [paid]' : t.paid === false ? ' [unpaid]' : ''}: ${t.actors.join(', ')}`;
    const froms = t.from.length === 0 ? ['[*]'] : t.from;
    for (const f of froms) for (const to of tos ?? [f]) lines.push(`  ${f} --> ${to}: ${label}`);
  }
  return lines.join('\n');
}
