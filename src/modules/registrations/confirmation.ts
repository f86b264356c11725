// What a confirmed booking sets off, defined once. Every path that confirms a booking
// (free in one statement, free in a transaction, paid step 2, the gateway's paid
// notification, approval) takes its effects from `confirmationEffects`: a ticket mail
// per person, the organiser's `registration.confirmed` webhook, the promo code's use
// (from the reservation made when the booking was written; `applyPendingEnd` releases it),
// for live paid tickets the fees, and for paid tickets the ledger's sale entries. A
// transfer re-issues the ticket mail from here too. A new effect is added here and reaches every path.
import type { Transaction } from 'kysely';
import type { Database, Mode, WebhookEventType } from '../../db/database.js';
import { enqueueRows, jobRow, type JobRow } from '../../jobs/queue.js';
import type { Clock } from '../../shared/clock.js';
import type { Ids } from '../../shared/ids.js';
import * as events from '../events/events.service.js';
import * as ledger from '../ledger/ledger.service.js';
import { ticketEmailJob } from '../tickets/tickets.jobs.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import { bookingFees } from '../payments/fees.js';
import * as promos from './promo.service.js';
import * as repo from './registrations.repo.js';

type EffectDeps = { clock: Clock; ids: Ids };

export interface ConfirmedBooking {
  id: string;
  mode: Mode;
  name: string;
  email: string;
  ticket_type: string;
  sub_event_id: number | null;
  quantity: number;
  amount_paise: number;
  currency: string;
  promo_code: string | null;
}

type EventFacts = Pick<events.EventRow, 'id' | 'account_id' | 'mode' | 'title' | 'slug' | 'ticket_emails_enabled'>;

export interface ConfirmationEffects {
  /** Outbox rows written whatever else holds (ids already made). */
  jobs: JobRow[];
  /** The organiser's webhook, delivered only when the account's configuration subscribes to it. */
  webhook: { accountId: string; mode: Mode; type: WebhookEventType; data: Record<string, unknown> };
  /** The promo code whose use this confirmation counts. */
  promoCode: string | null;
  /** Whether fees are recorded: live paid tickets, at the ordinals the paid counter gives. */
  recordsFees: boolean;
  /** Whether the ledger records a sale: every paid ticket (test mode in its own ledger, without fees). */
  recordsSale: boolean;
}

/** Ticket mails for these people, when the event sends them. */
export function ticketMails(deps: EffectDeps, event: EventFacts, attendeeIds: readonly string[]): JobRow[] {
  return event.ticket_emails_enabled ? attendeeIds.map((attendeeId) => jobRow(deps, ticketEmailJob, { attendeeId })) : [];
}

export function confirmationEffects(deps: EffectDeps, event: EventFacts, booking: ConfirmedBooking, attendeeIds: readonly string[]): ConfirmationEffects {
  const now = deps.clock.now().toISOString();
  return {
    jobs: ticketMails(deps, event, attendeeIds),
    webhook: {
      accountId: event.account_id,
      mode: event.mode,
      type: 'registration.confirmed',
      // The primary only, with the quantity.
      data: {
        registrationId: booking.id,
        eventId: event.id,
        eventTitle: event.title,
        eventSlug: event.slug,
        name: booking.name,
        email: booking.email,
        ticketType: booking.ticket_type,
        subEventId: booking.sub_event_id === null ? null : String(booking.sub_event_id),
        quantity: booking.quantity,
        amount: booking.amount_paise / 100,
        currency: booking.currency,
        status: 'confirmed',
        confirmedAt: now,
      },
    },
    promoCode: booking.promo_code,
    recordsFees: booking.mode === 'live' && booking.amount_paise > 0,
    recordsSale: booking.amount_paise > 0,
  };
}

/**
 * The webhook of `effects` as an outbox row, for the one-statement path, which checks
 * the subscription in SQL. The envelope is the one `webhooks.emit` queues.
 */
export function webhookJobRow(deps: EffectDeps, effects: ConfirmationEffects): JobRow {
  return webhooks.deliveryJobRow(deps, effects.webhook);
}

/** Seat scopes a booking holds: the event, its tier, its track, and the paid counter when paid. */
export function seatScopes(booking: { ticket_type: string; sub_event_id: number | null; amount_paise: number | string }): string[] {
  const scopes = events.scopesFor(booking.ticket_type, booking.sub_event_id);
  if (Number(booking.amount_paise) > 0) scopes.push(events.PAID_SCOPE);
  return scopes;
}

/**
 * Writes the effects of confirming `booking` and claims its seats, inside the
 * confirming transaction. The claim comes last so the counter rows stay locked as
 * briefly as possible. False when a seat is gone: the caller rolls back.
 */
export async function applyConfirmation(
  trx: Transaction<Database>,
  deps: EffectDeps,
  event: EventFacts,
  booking: ConfirmedBooking,
  attendeeIds: readonly string[],
): Promise<boolean> {
  const effects = confirmationEffects(deps, event, booking, attendeeIds);
  await enqueueRows(trx, deps, effects.jobs);
  await webhooks.emit(trx, deps, effects.webhook);
  // The use reserved when the booking was written becomes a use; never refused here.
  if (effects.promoCode !== null) await promos.useReservation(trx, event.id, effects.promoCode);
  const claimed = await events.claimSeats(trx, event.id, seatScopes(booking), booking.quantity);
  if (!claimed) return false;
  let fees = { platform: 0, gateway: 0 };
  if (effects.recordsFees) {
    const soldBefore = claimed.get(events.PAID_SCOPE)! - booking.quantity;
    fees = bookingFees(Math.floor(booking.amount_paise / booking.quantity), booking.quantity, soldBefore);
    await repo.setFees(trx, booking.id, fees);
  }
  if (effects.recordsSale) {
    await ledger.recordTicketSale(trx, {
      accountId: event.account_id,
      mode: event.mode,
      registrationId: booking.id,
      grossPaise: booking.amount_paise,
      platformFeePaise: fees.platform,
      gatewayFeePaise: fees.gateway,
      capturedAt: deps.clock.now(),
    });
  }
  return true;
}

/**
 * What a pending booking ending unconfirmed (rejected, cancelled, expired unpaid, lost
 * the race for the last seat) sets off, inside the transaction that ended it: its promo
 * code's reserved use goes back. Every path that ends a pending booking calls this.
 */
export async function applyPendingEnd(trx: Transaction<Database>, booking: { event_id: string; promo_code: string | null }): Promise<void> {
  if (booking.promo_code !== null) await promos.releaseReservation(trx, booking.event_id, booking.promo_code);
}

/** A transfer re-issues the primary's ticket mail. */
export async function applyTransfer(trx: Transaction<Database>, deps: EffectDeps, event: EventFacts, registrationId: string): Promise<void> {
  await enqueueRows(trx, deps, ticketMails(deps, event, [registrationId]));
}
