// What a booking ending sets off, and a part of it refunded, defined once
// (docs/decisions/20-booking-lifecycle.md, docs/decisions/28-a-persons-day.md): seats freed (and offered to the waitlist), a pending booking's promo reservation
// released, the ledger's refund entries, the credit note, and the holder's mail saying what
// happened and, for a refund, how much and when to expect it. Every way a booking ends comes
// through `applyBookingEnd`, every partial refund through `applyPartialRefund`, both from the
// lifecycle's changeBooking, inside the transaction that makes the change.
import type { Transaction } from 'kysely';
import type { Database, RegistrationStatus } from '../../db/database.js';
import { enqueueRows, jobRow, type JobRow } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import * as events from '../events/events.service.js';
import * as gst from '../gst/gst.service.js';
import * as ledger from '../ledger/ledger.service.js';
import * as offlineLedger from '../ledger/offline-sales.service.js';
import { bookingMailJob } from '../tickets/booking-mails.jobs.js';
import * as waitlist from '../waitlist/waitlist.service.js';
import { seatScopes } from './confirmation.js';
import * as seatHolds from '../seat-holds/booked-seats.service.js';
import * as promos from './promo.service.js';

type EffectDeps = { clock: Clock; ids: Ids };

/** A booking as it was before it ended: what `applyBookingEnd` needs of it. */
export interface EndingBooking {
  id: string;
  /** Its status before it ended: a confirmed booking held seats, a pending one a promo reservation. */
  status: RegistrationStatus;
  /** A pending booking awaiting payment outside the gateway holds its seats too. */
  pending_reason?: string | null;
  event_id: string;
  ticket_type: string;
  sub_event_id: number | null;
  amount_paise: number | string;
  quantity: number;
  promo_code: string | null;
  /** The holder, whom the booking's mail goes to. */
  name: string;
  email: string;
}

/**
 * A refund made with a change: `refundPaise` given back now, of a booking of `amountPaise`
 * of which `refundedBeforePaise` had been given back already. `ref` tells one refund of the
 * booking from another in the ledger.
 */
export interface EndRefund {
  reason: string;
  refundPaise: number;
  amountPaise: number;
  refundedBeforePaise: number;
  ref: string;
  /** Given back outside the gateway (a sale paid outside it): the ledger's offline refund. */
  offline?: boolean;
}

/**
 * What a booking ending sets off, defined once, inside the transaction that ended it.
 * Every way a booking ends comes here: the organiser's reject, cancel and refund, the
 * attendee's cancellation, a pending booking expiring unpaid or losing the last seat,
 * reconciliation finding it refunded at the gateway, the event's deletion. A confirmed
 * booking's seats are freed (and offered to the waitlist); a pending booking's promo
 * reservation goes back; a refund writes the ledger's refund entries and the credit note;
 * a confirmed booking ended as `mail` (cancelled, refunded) tells its holder by mail.
 */
export async function applyBookingEnd(
  trx: Transaction<Database>,
  deps: EffectDeps,
  booking: EndingBooking,
  refund?: EndRefund,
  mail?: 'cancelled' | 'refunded',
): Promise<void> {
  // A seated booking's seats, held or sold, come free first (then the counters, and the waitlist).
  await seatHolds.freeSeats(trx, booking.id);
  const awaitingOffline = booking.status === 'pending' && booking.pending_reason === 'offline_payment';
  if (booking.status === 'confirmed') await freeSeats(trx, deps, booking);
  // Its seats were taken when it was written; the paid counter only when it is paid.
  if (awaitingOffline) await freeSeats(trx, deps, { ...booking, amount_paise: 0 });
  if (booking.status === 'pending') await applyPendingEnd(trx, booking);
  const creditNote = refund ? await applyRefund(trx, deps, booking.id, refund) : undefined;
  if (mail && (booking.status === 'confirmed' || awaitingOffline))
    await enqueueRows(trx, deps, [bookingMail(deps, booking, mail, refund, creditNote)]);
}

/** A part of a confirmed paid booking given back (it stays confirmed): the ledger, the credit note and the buyer's mail. */
export async function applyPartialRefund(
  trx: Transaction<Database>,
  deps: EffectDeps,
  booking: Pick<EndingBooking, 'id' | 'name' | 'email'>,
  refund: EndRefund,
): Promise<void> {
  const creditNote = await applyRefund(trx, deps, booking.id, refund);
  await enqueueRows(trx, deps, [bookingMail(deps, booking, 'partly_refunded', refund, creditNote)]);
}

/** The holder's mail about a change to their booking (what changed and, for a refund, how much and when to expect it). */
function bookingMail(
  deps: EffectDeps,
  booking: Pick<EndingBooking, 'id' | 'name' | 'email'>,
  kind: 'cancelled' | 'refunded' | 'partly_refunded',
  refund: EndRefund | undefined,
  creditNote: string | undefined,
): JobRow {
  return jobRow(deps, bookingMailJob, {
    registrationId: booking.id,
    kind,
    to: { name: booking.name, email: booking.email },
    ...(creditNote ? { creditNote } : {}),
    ...(refund
      ? {
          refundPaise: refund.refundPaise,
          refundedPaise: refund.refundedBeforePaise + refund.refundPaise,
          amountPaise: refund.amountPaise,
        }
      : {}),
    ...(refund && kind === 'partly_refunded' ? { reason: refund.reason } : {}),
  });
}

/**
 * What a paid booking's refund sets off: the ledger's refund entries (the last refund, which
 * gives back all that is left, also reverses the platform fee) and, when it had a tax
 * invoice or bill of supply, its credit note for the part refunded (its number answered).
 */
async function applyRefund(
  trx: Transaction<Database>,
  deps: EffectDeps,
  registrationId: string,
  refund: EndRefund,
): Promise<string | undefined> {
  const at = deps.clock.now();
  if (refund.offline) await offlineLedger.recordOfflineRefund(trx, { registrationId, at });
  else if (refund.refundedBeforePaise + refund.refundPaise >= refund.amountPaise)
    await ledger.recordTicketRefund(trx, { registrationId, at });
  // A part refunded (an attendee's policy kept a fee, or the organiser gave part back): the
  // part back to the buyer, the platform fee kept.
  else
    await ledger.recordTicketPartialRefund(trx, {
      registrationId,
      refundPaise: refund.refundPaise,
      at,
      ref: refund.ref,
    });
  return gst.issueCreditNote(trx, deps, {
    registrationId,
    at,
    reason: refund.reason,
    refundPaise: refund.refundPaise,
  });
}

/**
 * A confirmed booking's seats come free (cancelled, refunded, refunded at the gateway):
 * released, and offered to whoever waits for them, in the same transaction (through
 * `applyBookingEnd`).
 */
async function freeSeats(
  trx: Transaction<Database>,
  deps: EffectDeps,
  booking: {
    event_id: string;
    ticket_type: string;
    sub_event_id: number | null;
    amount_paise: number | string;
    quantity: number;
  },
): Promise<void> {
  await events.releaseSeats(trx, booking.event_id, seatScopes(booking), booking.quantity, async (t) => {
    await waitlist.offerSeats(t, deps, booking.event_id);
  });
}

/**
 * What a pending booking ending unconfirmed (rejected, cancelled, expired unpaid, lost
 * the race for the last seat) sets off: its promo code's reserved use goes back (through
 * `applyBookingEnd`).
 */
async function applyPendingEnd(
  trx: Transaction<Database>,
  booking: { event_id: string; promo_code: string | null },
): Promise<void> {
  if (booking.promo_code !== null) await promos.releaseReservation(trx, booking.event_id, booking.promo_code);
}
