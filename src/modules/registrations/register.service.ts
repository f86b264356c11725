// Registering, step 1. The rules, HTTP-free: who books what, at what price, whether there is
// room; then one of the writers (register-writes.ts) writes it:
// - a free booking on one seat counter confirms in one statement that claims the seat
//   and writes the booking, its people and its jobs; other free bookings in one
//   transaction that claims the seats;
// - a paid booking files a gateway order, then a pending registration; it is confirmed
//   later by step 2 or the gateway's notification (confirm-payment.service.ts).
import type { BillingDoc, TierDoc, TrackDoc } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { appError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import * as events from '../events/events.service.js';
import * as gst from '../gst/gst.service.js';
import { computeAvailability, tierOnSale } from '../events/availability.js';
import { assertDeliverable } from '../mail/deliverable.js';
import { normalisePhone } from '../../lib/phone.js';
import { isInGoodStanding } from '../memberships/memberships.service.js';
import { proofHolds } from '../memberships/member-codes.js';
import { validateAnswers } from './answers.js';
import { priceBooking } from './pricing.js';
import * as promos from './promo.service.js';
import { soldOut } from './registrations.errors.js';
import type { RegisterDeps } from './register-deps.js';
import * as waitlist from '../waitlist/waitlist.service.js';
import {
  type Booking,
  bookFree,
  bookInOneStatement,
  bookPaid,
  type NewBooking,
  type RegisterResult,
} from './register-writes.js';

// Callers outside this module confirm paid bookings through these.
export { confirmFromGateway, confirmStep2, type Confirmation } from './confirm-payment.service.js';
export type { RegisterDeps };

export interface RegisterInput {
  name: string;
  email: string;
  phone?: string | undefined;
  /** The buyer agrees to get the ticket over WhatsApp at `phone` (needs one). */
  whatsappOptIn?: boolean | undefined;
  customFields?: Record<string, unknown> | undefined;
  teamMembers?: { name: string; email: string }[] | undefined;
  promoCode?: string | undefined;
  /** Proof of membership for a membersOnly tier booked with a checkout key. */
  membershipId?: string | undefined;
  /** Proof of membership from a mailed code (`POST /e/{slug}/member-code/verify`), in place of membershipId. */
  memberProof?: string | undefined;
  ticketType?: string | undefined;
  subEventId?: string | undefined;
  /** The buyer's details for the tax invoice (docs/decisions/17-the-organisers-office.md); a GSTIN makes the sale B2B. */
  billing?: BillingInput | undefined;
  /** The token of a waitlist offer: books the seat it holds (one seat, its choice), sold out or not. */
  waitlistOffer?: string | undefined;
}

export interface BillingInput {
  gstin?: string | null | undefined;
  name?: string | undefined;
  address?: string | undefined;
  state?: string | null | undefined;
}

/** The buyer's billing details as stored: the GSTIN checked, the state its (or the one given). */
export function parseBilling(input: BillingInput | undefined): BillingDoc | null {
  if (input === undefined) return null;
  const gstin =
    input.gstin === undefined || input.gstin === null ? null : gst.parseGstin(input.gstin, 'billing.gstin');
  const state =
    input.state === undefined || input.state === null
      ? null
      : gst.parseStateCode(input.state, 'billing.state');
  if (gstin !== null && state !== null && state !== gstin.slice(0, 2)) {
    throw badRequest(
      'invalid_state',
      `billing.state ${state} is not the state of billing.gstin (${gstin.slice(0, 2)})`,
    );
  }
  const name = input.name?.trim() || null;
  const address = input.address?.trim() || null;
  if (gstin === null && state === null && name === null && address === null) return null;
  return { gstin, name, address, stateCode: state ?? (gstin === null ? null : gstin.slice(0, 2)) };
}

export type { RegisterResult } from './register-writes.js';
export { PENDING_PER_ADDRESS, PENDING_PER_EMAIL } from './register-writes.js';

type OwnedEvent = events.EventRow & { seats_taken: number };

/** Where a request came from, as the service sees it (Fastify's request.ip, after TRUST_PROXY). */
export interface RequestContext {
  clientAddress?: string | undefined;
}

/** Who: the primary and the team, with trimmed names and deliverable emails. */
async function whoBooks(deps: RegisterDeps, event: OwnedEvent, input: RegisterInput) {
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty', { field: 'name' });
  const email = await assertDeliverable(deps.checkEmail, input.email, 'email');
  const team = input.teamMembers ?? [];
  if (team.length > 0 && event.max_team_size < 2)
    throw badRequest('not_a_team_event', 'this event takes no team members', { field: 'teamMembers' });
  if (1 + team.length > event.max_team_size && event.max_team_size >= 2) {
    throw badRequest(
      'team_too_large',
      `a team may have at most ${event.max_team_size} people including the primary`,
      { field: 'teamMembers' },
    );
  }
  const members: { name: string; email: string }[] = [];
  for (const [i, m] of team.entries()) {
    const n = m.name.trim();
    if (n === '')
      throw badRequest('invalid_name', `teamMembers[${i}].name must not be empty`, {
        field: `teamMembers[${i}].name`,
      });
    members.push({
      name: n,
      email: await assertDeliverable(deps.checkEmail, m.email, `teamMembers[${i}].email`),
    });
  }
  return { name, email, members, phone: contactPhone(input) };
}

/** The phone in E.164 (null when none was given); WhatsApp consent needs one. */
function contactPhone(input: RegisterInput): string | null {
  const given = input.phone?.trim() ?? '';
  const phone = given === '' ? null : (normalisePhone(given) ?? null);
  if (given !== '' && phone === null)
    throw badRequest(
      'invalid_phone',
      `phone "${given.slice(0, 40)}" is neither an E.164 number (+919812345678) nor a 10-digit Indian mobile number`,
    );
  if (input.whatsappOptIn === true && phone === null)
    throw badRequest('phone_required', 'whatsappOptIn needs a phone number to send the ticket to');
  return phone;
}

/**
 * A members-only tier: with a full key the organiser's server vouches for the email; a checkout
 * key (a browser) must also prove it, with `memberProof` (a mailed code's) or `membershipId`, and
 * the email must hold a membership in good standing on this account and mode now.
 */
async function assertMember(
  deps: RegisterDeps,
  p: KeyPrincipal,
  event: OwnedEvent,
  input: RegisterInput,
  email: string,
  tierName: string,
) {
  if (p.keyClass === 'checkout') {
    const proof = input.memberProof;
    const proved =
      proof !== undefined
        ? proofHolds(deps.secretsKey, proof, {
            accountId: event.account_id,
            mode: event.mode,
            email,
            now: deps.clock.now(),
          }) && (await deps.hasGoodStanding(event.account_id, event.mode, email))
        : input.membershipId !== undefined &&
          (await isInGoodStanding(deps, event.account_id, event.mode, input.membershipId, email));
    const how =
      proof !== undefined
        ? 'this proof has lapsed or is for another email; ask for a new code'
        : 'prove it with a code mailed to this email, or send membershipId, the id of your membership in good standing with this email';
    if (!proved)
      throw forbidden('membership_required', `ticketType "${tierName}" is for members: ${how}`, {
        field: 'membershipId',
      });
    return;
  }
  if (!(await deps.hasGoodStanding(event.account_id, event.mode, email))) {
    throw forbidden('members_only', `ticketType "${tierName}" is for members in good standing only`, {
      field: 'ticketType',
    });
  }
}

/**
 * The track and the tier asked for, refused when unknown or off sale (members-only is checked
 * by the caller). Without a track, the whole event must be on sale (no tracks, or the
 * organiser sells it too); a waitlist offer books what it was made for, whatever changed since.
 */
export function chosenOptions(
  event: Pick<events.EventRow, 'tracks' | 'special_prices' | 'whole_event_option'>,
  input: Pick<RegisterInput, 'subEventId' | 'ticketType'>,
  now: Date,
  options: { offered?: boolean } = {},
) {
  let subEventId: number | null = null;
  let track: TrackDoc | undefined;
  if (input.subEventId !== undefined) {
    subEventId = events.parseTrackIndex(input.subEventId, 'subEventId');
    track = event.tracks[subEventId];
    if (!track) throw appError('track_not_found', `no track at index ${subEventId}`, { field: 'subEventId' });
  } else if (!options.offered && !events.wholeEventBookable(event)) {
    throw badRequest(
      'track_required',
      'choose a session: this event sells its sessions (tracks) one by one; send subEventId, a track index',
      { field: 'subEventId' },
    );
  }
  let tier: TierDoc | undefined;
  if (input.ticketType !== undefined && input.ticketType !== 'General') {
    tier = event.special_prices.find((t) => t.name === input.ticketType);
    if (!tier)
      throw badRequest(
        'unknown_ticket_type',
        `ticketType "${input.ticketType}" is not one of this event's tiers`,
        { field: 'ticketType' },
      );
    if (!tierOnSale(tier, now))
      throw conflict('tier_not_on_sale', `ticketType "${tier.name}" is not on sale now`, {
        field: 'ticketType',
      });
  }
  return { subEventId, track, tier, ticketType: tier?.name ?? 'General' };
}

async function whatIsBooked(
  deps: RegisterDeps,
  p: KeyPrincipal,
  event: OwnedEvent,
  input: RegisterInput,
  email: string,
  now: Date,
  offered: boolean,
) {
  const chosen = chosenOptions(event, input, now, { offered });
  if (chosen.tier?.membersOnly) await assertMember(deps, p, event, input, email, chosen.tier.name);
  return chosen;
}

/** A booking from a waitlist offer: the offer's own choice, one seat. */
async function offerFor(deps: RegisterDeps, eventId: string, input: RegisterInput) {
  if (input.waitlistOffer === undefined) return undefined;
  const offer = await waitlist.openOffer(deps, eventId, input.waitlistOffer);
  const subEventId = offer.sub_event_id === null ? undefined : String(offer.sub_event_id);
  if (
    (input.subEventId !== undefined && input.subEventId !== subEventId) ||
    (input.ticketType !== undefined && input.ticketType !== offer.ticket_type) ||
    (input.teamMembers ?? []).length > 0
  ) {
    throw badRequest(
      'offer_mismatch',
      `this offer holds one seat for ${offer.ticket_type}${subEventId === undefined ? '' : ` on track ${subEventId}`}; book exactly that, without team members`,
    );
  }
  return { id: offer.id, subEventId, ticketType: offer.ticket_type };
}

export async function register(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  input: RegisterInput,
  context: RequestContext = {},
): Promise<RegisterResult> {
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
  const now = deps.clock.now();
  const offer = await offerFor(deps, event.id, input);
  if (offer) input = { ...input, subEventId: offer.subEventId, ticketType: offer.ticketType };
  const { name, email, members, phone } = await whoBooks(deps, event, input);
  const quantity = 1 + members.length;
  const answers = validateAnswers(event.custom_fields, input.customFields ?? {});
  const billing = parseBilling(input.billing);
  const { subEventId, track, tier, ticketType } = await whatIsBooked(
    deps,
    p,
    event,
    input,
    email,
    now,
    offer !== undefined,
  );
  const promo =
    input.promoCode === undefined
      ? undefined
      : await promos.findUsable(deps.db, event.id, input.promoCode, now);
  const { amountPaise } = priceBooking({
    basePaise: Number(event.price_paise),
    track,
    tier,
    quantity,
    promo,
  });

  const scopes = events.scopesFor(ticketType, subEventId);
  const oneStatement =
    amountPaise === 0 && !event.requires_approval && scopes.length === 1 && !promo && !offer;
  await assertRoom(deps, event, {
    offered: offer !== undefined,
    oneStatement,
    quantity,
    ticketType,
    subEventId,
    now,
  });

  const registrationId = deps.ids.make('reg', 16);
  const booking: NewBooking = {
    id: registrationId,
    event_id: event.id,
    account_id: event.account_id,
    mode: event.mode,
    name,
    email,
    phone,
    whatsapp_opt_in: input.whatsappOptIn === true,
    ticket_type: ticketType,
    sub_event_id: subEventId,
    quantity,
    amount_paise: amountPaise,
    currency: event.currency,
    custom_fields: JSON.stringify(answers),
    promo_code: promo?.code ?? null,
    ticket_code: null,
    created_at: now,
    refund_id: null,
    cancelled_at: null,
    waitlist_entry_id: offer?.id ?? null,
  };
  const people = [
    { id: registrationId, idx: 0, name, email },
    ...members.map((m, i) => ({ id: deps.ids.make('tkt', 16), idx: i + 1, ...m })),
  ];
  const ticketIds = people.map((a) => a.id);

  const b: Booking = { deps, p, event, booking, people, ticketIds, quantity, promo, now };
  if (oneStatement) return bookInOneStatement(b);
  if (amountPaise === 0) return bookFree(b);
  return bookPaid(b, {
    email,
    billing,
    clientAddress: p.keyClass === 'checkout' ? (context.clientAddress ?? null) : null,
  });
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
