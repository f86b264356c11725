// What a confirmed booking sets off, defined once. Every path that confirms a booking
// (free in one statement, free in a transaction, paid step 2, the gateway's paid
// notification, approval) takes its effects from `confirmationEffects`: a ticket mail
// per person (and the primary's over WhatsApp when asked for), the organiser's `registration.confirmed` webhook, the promo code's use
// (from the reservation made when the booking was written; `applyPendingEnd` releases it),
// for live paid tickets the fees, for paid tickets the ledger's sale entries and, for a
// GST-registered organiser, the tax invoice (numbered inside this transaction). A
// transfer re-issues the ticket mail from here too (and tells the giver); what a booking
// ending or a part refunded sets off is endings.ts's. A new effect is added here and
// reaches every path.
import type { Transaction } from 'kysely';
import type { BillingDoc, Database, Mode, WebhookEventType } from '../../db/database.js';
import { enqueueRows, jobRow, type JobRow } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import * as events from '../events/events.service.js';
import * as gst from '../gst/gst.service.js';
import * as ledger from '../ledger/ledger.service.js';
import * as offlineLedger from '../ledger/offline-sales.service.js';
import { bookingMailJob } from '../tickets/booking-mails.jobs.js';
import { ticketEmailJob } from '../tickets/tickets.jobs.js';
import { whatsappTicketJob } from '../whatsapp/whatsapp.jobs.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import * as waitlist from '../waitlist/waitlist.service.js';
import { bookingFees } from '../payments/fees.js';
import * as seatHolds from '../seat-holds/booked-seats.service.js';
import * as promos from './promo.service.js';
import * as repo from './registrations.repo.js';

/** `sendsWhatsApp`: WhatsApp is configured (RegisterDeps says so). */
type EffectDeps = { clock: Clock; ids: Ids; sendsWhatsApp?: boolean };

export interface ConfirmedBooking {
  id: string;
  mode: Mode;
  name: string;
  email: string;
  phone: string | null;
  whatsapp_opt_in: boolean;
  ticket_type: string;
  sub_event_id: number | null;
  quantity: number;
  amount_paise: number;
  currency: string;
  promo_code: string | null;
  /** The buyer's billing details for the tax invoice (paid bookings). */
  billing?: BillingDoc | null;
  /** The gateway payment that pays it (paid confirmations). */
  payment_id?: string | null;
  /** Paid outside the gateway (set when marked paid): its seats were taken when it was written; no gateway charge. */
  offline_paid?: unknown;
  /** The waitlist offer it was booked from: its held seat is taken instead of claiming one. */
  waitlist_entry_id?: string | null | undefined;
}

export type EventFacts = Pick<
  events.EventRow,
  | 'id'
  | 'account_id'
  | 'mode'
  | 'title'
  | 'slug'
  | 'ticket_emails_enabled'
  | 'start_date'
  | 'special_prices'
  | 'tracks'
  | 'tax_category'
  | 'supplier_gstin'
  | 'sac'
  | 'venue_state'
  | 'seating_plan_id'
>;

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
  return event.ticket_emails_enabled
    ? attendeeIds.map((attendeeId) => jobRow(deps, ticketEmailJob, { attendeeId }))
    : [];
}

/**
 * The primary's ticket over WhatsApp, for a live booking whose buyer gave a phone and opted
 * in, when WhatsApp is configured (test mode sends no WhatsApp, as it sends no mail). Its
 * ticket id is the registration id: a booking is confirmed before any transfer.
 */
export function whatsappTicket(
  deps: EffectDeps,
  booking: Pick<ConfirmedBooking, 'id' | 'mode' | 'phone' | 'whatsapp_opt_in'>,
): JobRow[] {
  if (!deps.sendsWhatsApp || booking.mode !== 'live' || booking.phone === null || !booking.whatsapp_opt_in)
    return [];
  return [jobRow(deps, whatsappTicketJob, { registrationId: booking.id, ticketId: booking.id })];
}

export function confirmationEffects(
  deps: EffectDeps,
  event: EventFacts,
  booking: ConfirmedBooking,
  attendeeIds: readonly string[],
): ConfirmationEffects {
  const now = deps.clock.now().toISOString();
  return {
    jobs: [...ticketMails(deps, event, attendeeIds), ...whatsappTicket(deps, booking)],
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
 * How the one-statement free booking (lifecycle/free-booking.repo.ts) writes each effect of a
 * confirmation: `written` in its statement, or `absent`, an effect it cannot write, which
 * the bookings it takes never have (register.service.ts sends a booking with a promo code,
 * a price or an approval through `applyConfirmation` instead). Every effect must be named:
 * the compiler refuses a new one missing here, and test/unit/confirmation-effects.test.ts
 * checks these names against the effects `applyConfirmation` writes.
 */
export const ONE_STATEMENT_EFFECTS: { readonly [K in keyof ConfirmationEffects]-?: 'written' | 'absent' } = {
  jobs: 'written',
  webhook: 'written',
  promoCode: 'absent',
  recordsFees: 'absent',
  recordsSale: 'absent',
};

/** What the one-statement path writes of `effects`, built from the same effect list as `applyConfirmation`. */
export interface OneStatementEffects {
  jobs: JobRow[];
  /** The webhook as an outbox row; the statement checks the subscription in SQL (the envelope `webhooks.emit` queues). */
  webhookJob: JobRow;
  webhookType: WebhookEventType;
}

/**
 * The effects of `effects` the one-statement path writes. Throws when an effect it cannot
 * write is present, so a booking never silently loses one.
 */
export function oneStatementEffects(deps: EffectDeps, effects: ConfirmationEffects): OneStatementEffects {
  for (const [key, how] of Object.entries(ONE_STATEMENT_EFFECTS)) {
    const value = effects[key as keyof ConfirmationEffects];
    if (how === 'absent' && value !== null && value !== false)
      throw new Error(`the one-statement free booking cannot write the effect ${key}`);
  }
  return {
    jobs: effects.jobs,
    webhookJob: webhooks.deliveryJobRow(deps, effects.webhook),
    webhookType: effects.webhook.type,
  };
}

/** Seat scopes a booking holds: the event, its tier, its track, and the paid counter when paid. */
export function seatScopes(booking: {
  ticket_type: string;
  sub_event_id: number | null;
  amount_paise: number | string;
}): string[] {
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
  const claimed = await claimBookingSeats(trx, deps, event.id, booking);
  if (!claimed) return false;
  // A seated event's booking holds its seats already (they were given to it when it was written).
  const seats = !events.isSeated(event) ? [] : await seatHolds.sellSeats(trx, booking.id, deps.clock.now());
  const offline = booking.offline_paid != null;
  let fees = { platform: 0, gateway: 0 };
  if (effects.recordsFees) {
    const soldBefore = claimed.get(events.PAID_SCOPE)! - booking.quantity;
    fees = bookingFees(Math.floor(booking.amount_paise / booking.quantity), booking.quantity, soldBefore);
    if (offline) fees.gateway = 0;
    await repo.setFees(trx, booking.id, fees);
  }
  if (effects.recordsSale && offline) {
    await offlineLedger.recordOfflineSale(trx, {
      accountId: event.account_id,
      mode: event.mode,
      registrationId: booking.id,
      grossPaise: booking.amount_paise,
      platformFeePaise: fees.platform,
      at: deps.clock.now(),
    });
  } else if (effects.recordsSale) {
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
  if (effects.recordsSale) {
    await gst.issueSaleDocument(
      trx,
      deps,
      saleOf(event, booking, deps.clock.now(), seats.map(seatHolds.seatWords)),
    );
  }
  return true;
}

/** What the tax documents need to know of a confirmed paid booking. */
function saleOf(event: EventFacts, booking: ConfirmedBooking, at: Date, seats: string[]): gst.Sale {
  const tier = event.special_prices.find((t) => t.name === booking.ticket_type);
  return {
    accountId: event.account_id,
    mode: event.mode,
    at,
    event: {
      id: event.id,
      title: event.title,
      startDate: event.start_date,
      taxCategory: event.tax_category,
      supplierGstin: event.supplier_gstin,
      sac: event.sac,
      venueState: event.venue_state,
    },
    booking: {
      id: booking.id,
      name: booking.name,
      email: booking.email,
      ticketType: booking.ticket_type,
      tierSac: tier?.sac ?? null,
      trackTitle: booking.sub_event_id === null ? null : (event.tracks[booking.sub_event_id]?.title ?? null),
      seats,
      quantity: booking.quantity,
      amountPaise: booking.amount_paise,
      billing: booking.billing ?? null,
      paymentId: booking.payment_id ?? null,
    },
  };
}

/**
 * The booking's seats: a booking made from a waitlist offer that still holds its seat
 * takes that seat (already counted as taken) and claims only what the hold does not
 * cover (the paid counter); any other booking claims all its scopes.
 */
async function claimBookingSeats(
  trx: Transaction<Database>,
  deps: EffectDeps,
  eventId: string,
  booking: ConfirmedBooking,
): Promise<Map<string, number> | undefined> {
  // Paid outside the gateway: its seats were taken when it was written; the paid counter now.
  if (booking.offline_paid != null)
    return events.claimSeats(trx, eventId, [events.PAID_SCOPE], booking.quantity);
  const scopes = seatScopes(booking);
  const held = booking.waitlist_entry_id
    ? await waitlist.takeHold(trx, booking.waitlist_entry_id, booking.id, deps.clock.now())
    : undefined;
  if (!held) return events.claimSeats(trx, eventId, scopes, booking.quantity);
  const rest = scopes.filter((s) => !held.includes(s));
  return rest.length === 0 ? new Map() : events.claimSeats(trx, eventId, rest, booking.quantity);
}

/**
 * A transfer: the new holder's ticket mail (saying who passed it on, and nothing of what the
 * giver paid) and the giver's mail saying the ticket has gone.
 */
export async function applyTransfer(
  trx: Transaction<Database>,
  deps: EffectDeps,
  event: EventFacts,
  registrationId: string,
  giver: { name: string; email: string },
  holder: { name: string; email: string },
): Promise<void> {
  const ticket = event.ticket_emails_enabled
    ? [jobRow(deps, ticketEmailJob, { attendeeId: registrationId, passedOnBy: giver.name })]
    : [];
  const notice = jobRow(deps, bookingMailJob, {
    registrationId,
    kind: 'transferred' as const,
    to: giver,
    newHolder: holder.name,
  });
  await enqueueRows(trx, deps, [...ticket, notice]);
}
