// Registering, step 1. The rules, HTTP-free: who books what (the input checked in
// register-input.ts), at what price, whether there is room; then one of the writers
// (register-writes.ts) writes it:
// - a free booking on one seat counter confirms in one statement that claims the seat
//   and writes the booking, its people and its jobs; other free bookings in one
//   transaction that claims the seats;
// - a paid booking files a gateway order, then a pending registration; it is confirmed
//   later by step 2 or the gateway's notification (confirm-payment.service.ts).
// A seated event's booking takes the seats of the buyer's hold (one per person) in the
// transaction that writes it, so it never takes the one-statement path.
import type { KeyPrincipal } from '../../http/auth.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { computeAvailability } from '../events/availability.js';
import * as events from '../events/events.service.js';
import { validateAnswers } from './answers.js';
import { type PriceInput, priceBooking } from './pricing.js';
import * as promos from './promo.service.js';
import type { RegisterDeps } from './register-deps.js';
import {
  offerFor,
  type OwnedEvent,
  parseBilling,
  type RegisterInput,
  type Who,
  bookedAsHeld,
  seatsHeld,
  whatIsBooked,
  whoBooks,
} from './register-input.js';
import {
  type Booking,
  bookFree,
  bookInOneStatement,
  bookPaid,
  type NewBooking,
  type RegisterResult,
} from './register-writes.js';
import { soldOut } from './registrations.errors.js';
import { bookOffline } from './offline-bookings.js';
import { offlineMethod } from './offline-method.js';
import { perBuyerLimit } from './buyer-limit.js';
import { assertAdmitted } from '../waiting-room/admission-check.js';

// Callers outside this module confirm paid bookings through these.
export { confirmFromGateway, confirmStep2, type Confirmation } from './confirm-payment.service.js';
export type { RegisterDeps };

export type { RegisterResult } from './register-writes.js';
export { PENDING_PER_ADDRESS, PENDING_PER_EMAIL } from './pending-room.js';

/** Where a request came from, as the service sees it (Fastify's request.ip, after TRUST_PROXY). */
export interface RequestContext {
  clientAddress?: string | undefined;
  /**
   * Present when the caller must show the waiting room's admission (a checkout key's call of
   * the API's register): its `admissionToken`. A waitlist offer's holder is not asked.
   */
  admission?: { token: string | undefined } | undefined;
}

export async function register(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  input: RegisterInput,
  context: RequestContext = {},
): Promise<RegisterResult> {
  const event = await bookableEvent(deps, p, eventId, input);
  const now = deps.clock.now();
  const offer = await offerFor(deps, event.id, input);
  if (offer) input = { ...input, subEventId: offer.subEventId, ticketType: offer.ticketType };
  // A waitlist offer's holder is not asked for the waiting room's admission: the offer is their turn.
  else if (context.admission)
    assertAdmitted(deps.secretsKey, event, context.admission.token, input.email, now);
  // A seated event's booking is of the seats its hold has: their category is its tier.
  const held = await seatsHeld(deps, event, input);
  if (held) input = bookedAsHeld(input, held);
  const who = await whoBooks(deps, event, input);
  const quantity = 1 + who.members.length;
  if (held) assertOneSeatEach(held.seatIds.length, quantity);
  const answers = validateAnswers(event.custom_fields, input.customFields ?? {});
  const billing = parseBilling(input.billing);
  const chosen = await whatIsBooked(deps, p, event, input, who.email, now, offer !== undefined);
  const { subEventId, ticketType } = chosen;
  const { promo, amountPaise } = await priceWithPromo(deps, event, input.promoCode, chosen, quantity, now);

  const scopes = events.scopesFor(ticketType, subEventId);
  // A per-buyer limit is counted under the buyer's locks, in a writer's transaction.
  const oneStatement =
    amountPaise === 0 && scopes.length === 1 && !promo && !offer && !held && plainFree(event);
  await assertRoom(deps, event, {
    offered: offer !== undefined,
    oneStatement,
    quantity,
    ticketType,
    subEventId,
    now,
  });

  const { booking, people, ticketIds } = newBooking(deps, event, who, {
    whatsappOptIn: input.whatsappOptIn === true,
    ticketType,
    subEventId,
    quantity,
    amountPaise,
    answers,
    promoCode: promo?.code ?? null,
    offerId: offer?.id ?? null,
    now,
  });
  const b: Booking = { deps, p, event, booking, people, ticketIds, quantity, promo, held, now };
  if (oneStatement) return bookInOneStatement(b);
  if (amountPaise === 0) return bookFree(b);
  const offline = offlineMethod(event, input, offer !== undefined);
  const clientAddress = p.keyClass === 'checkout' ? (context.clientAddress ?? null) : null;
  if (offline) return bookOffline(b, { method: offline, billing, email: who.email, clientAddress });
  return bookPaid(b, { email: who.email, billing, clientAddress });
}

/** A seated booking takes one held seat per person. */
function assertOneSeatEach(seats: number, quantity: number): void {
  if (seats === quantity) return;
  throw badRequest(
    'seat_hold_mismatch',
    `the hold has ${seats} seat(s) and the booking ${quantity} person(s): one seat per person`,
    { field: 'holdToken' },
  );
}

/** The event's free bookings may take the one-statement path: no approval and no per-buyer limit. */
const plainFree = (event: OwnedEvent) => !event.requires_approval && perBuyerLimit(event) === null;

/** The event, if it takes this booking now: not remembered sold out (an offer's seat is held), published when live. */
async function bookableEvent(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  input: RegisterInput,
): Promise<OwnedEvent> {
  if (
    input.waitlistOffer === undefined &&
    events.isMarkedSoldOut(eventId, p.userId, p.mode, deps.clock.now())
  )
    throw soldOut();
  const event = await events.loadOwnedEventWithTaken(deps.eventReads, p, eventId);
  // A checkout key does not see a live draft at all.
  if (p.keyClass === 'checkout' && event.mode === 'live' && event.status !== 'published')
    throw notFound('no such event', 'event_not_found');
  if (event.mode === 'live' && event.status !== 'published') {
    throw conflict('event_not_published', 'this event is a draft and cannot take registrations');
  }
  return event;
}

/** The promo code asked for (refused unless usable now) and the booking's price with it. */
async function priceWithPromo(
  deps: RegisterDeps,
  event: OwnedEvent,
  promoCode: string | undefined,
  { track, tier }: Pick<PriceInput, 'track' | 'tier'>,
  quantity: number,
  now: Date,
) {
  const promo =
    promoCode === undefined ? undefined : await promos.findUsable(deps.db, event.id, promoCode, now);
  const { amountPaise } = priceBooking({
    basePaise: Number(event.price_paise),
    track,
    tier,
    quantity,
    promo,
  });
  return { promo, amountPaise };
}

/** The booking as it is written, and its people: the primary's ticket id is the booking's id. */
function newBooking(
  deps: RegisterDeps,
  event: OwnedEvent,
  { name, email, phone, members }: Who,
  what: {
    whatsappOptIn: boolean;
    ticketType: string;
    subEventId: number | null;
    quantity: number;
    amountPaise: number;
    answers: Record<string, unknown>;
    promoCode: string | null;
    offerId: string | null;
    now: Date;
  },
) {
  const registrationId = deps.ids.make('reg', 16);
  const booking: NewBooking = {
    id: registrationId,
    event_id: event.id,
    account_id: event.account_id,
    mode: event.mode,
    name,
    email,
    phone,
    whatsapp_opt_in: what.whatsappOptIn,
    ticket_type: what.ticketType,
    sub_event_id: what.subEventId,
    quantity: what.quantity,
    amount_paise: what.amountPaise,
    currency: event.currency,
    custom_fields: JSON.stringify(what.answers),
    promo_code: what.promoCode,
    ticket_code: null,
    created_at: what.now,
    refund_id: null,
    cancelled_at: null,
    waitlist_entry_id: what.offerId,
  };
  const people = [
    { id: registrationId, idx: 0, name, email },
    ...members.map((m, i) => ({ id: deps.ids.make('tkt', 16), idx: i + 1, ...m })),
  ];
  return { booking, people, ticketIds: people.map((a) => a.id) };
}

/** Refuses a booking the event has no room for, as last read (the claim is what enforces). */
async function assertRoom(
  deps: RegisterDeps,
  event: OwnedEvent,
  {
    offered,
    oneStatement,
    quantity,
    ticketType,
    subEventId,
    now,
  }: {
    offered: boolean;
    oneStatement: boolean;
    quantity: number;
    ticketType: string;
    subEventId: number | null;
    now: Date;
  },
): Promise<void> {
  // Sold out as last read: refuse without another round trip (the claim still enforces).
  // An offer's seat is held for it, so it is never refused here.
  if (!offered && event.capacity > 0 && event.seats_taken + quantity > event.capacity) {
    if (event.seats_taken >= event.capacity) events.markSoldOut(event, now, deps.soldOutMemoryMs);
    throw soldOut();
  }
  if (!oneStatement && !offered) {
    // Fail early when already sold out (and before any gateway order); the claim at
    // confirmation is what enforces.
    const availability = computeAvailability(
      { capacity: event.capacity, tiers: event.special_prices, tracks: event.tracks },
      await events.usageFor(deps.db, event.id),
      now,
      subEventId ?? undefined,
    );
    const tierLeft =
      ticketType === 'General'
        ? availability.remaining
        : availability.tiers.find((t) => t.name === ticketType)!.remaining;
    if (tierLeft !== null && tierLeft < quantity) throw soldOut();
  }
}
