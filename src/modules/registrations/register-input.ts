// Registering, step 1: the buyer's input checked, HTTP-free. Who books (names, deliverable
// emails, the phone), what (the track and the tier, a members-only tier's proof), the billing
// details for the tax invoice, what a waitlist offer books and which held seats a seated event's
// booking takes.
import type { BillingDoc, TierDoc, TrackDoc } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { appError, badRequest, conflict, forbidden } from '../../lib/errors.js';
import { normalisePhone } from '../../lib/phone.js';
import * as events from '../events/events.service.js';
import { tierOnSale } from '../events/availability.js';
import * as gst from '../gst/gst.service.js';
import { assertDeliverable } from '../mail/deliverable.js';
import { isInGoodStanding } from '../memberships/memberships.service.js';
import { proofHolds } from '../memberships/member-codes.js';
import * as seatHolds from '../seat-holds/booked-seats.service.js';
import * as waitlist from '../waitlist/waitlist.service.js';
import type { RegisterDeps } from './register-deps.js';

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
  /** A seated event's seats, held by `POST /api/v1/events/{id}/seats/hold`: one per person, one category. */
  holdToken?: string | undefined;
  /** How the buyer pays: `gateway` (the default) or one of the event's offline methods (docs/decisions/24-payment-outside-the-gateway.md). */
  paymentMethod?: string | undefined;
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

export type OwnedEvent = events.EventRow & { seats_taken: number };

/** Who books: the primary (with the phone) and the team. */
export interface Who {
  name: string;
  email: string;
  members: { name: string; email: string }[];
  phone: string | null;
}

/** Who: the primary and the team, with trimmed names and deliverable emails. */
export async function whoBooks(deps: RegisterDeps, event: OwnedEvent, input: RegisterInput): Promise<Who> {
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

export async function whatIsBooked(
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
export async function offerFor(deps: RegisterDeps, eventId: string, input: RegisterInput) {
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

/**
 * The seats a booking of a seated event takes: the buyer's live hold, of the tier asked for (if
 * any) and, for an event seated track by track, of the track asked for (if any: the hold's track
 * is the booking's). None for an event without a seating plan, which takes no hold (409 `event_not_seated`).
 */
export async function seatsHeld(
  deps: RegisterDeps,
  event: OwnedEvent,
  input: RegisterInput,
): Promise<seatHolds.HeldSeats | undefined> {
  if (!events.isSeated(event)) {
    if (input.holdToken !== undefined)
      throw conflict('event_not_seated', 'this event has no seating plan: book it without holdToken');
    return undefined;
  }
  if (input.holdToken === undefined) {
    throw badRequest(
      'seat_hold_required',
      'this event has reserved seats: hold them first (POST /api/v1/events/{id}/seats/hold) and book with the holdToken',
      { field: 'holdToken' },
    );
  }
  const held = await seatHolds.holdForBooking(deps, event, input.holdToken);
  if (input.ticketType !== undefined && input.ticketType !== held.category) {
    throw badRequest(
      'seat_hold_mismatch',
      `the seats held are ${held.category}, not ${input.ticketType}: leave ticketType out, or hold seats of ${input.ticketType}`,
      { field: 'ticketType' },
    );
  }
  if (
    held.track >= 0 &&
    input.subEventId !== undefined &&
    events.parseTrackIndex(input.subEventId, 'subEventId') !== held.track
  ) {
    throw badRequest(
      'seat_hold_mismatch',
      `the seats held are of track ${held.track}, not ${input.subEventId}: leave subEventId out, or hold seats of that track`,
      { field: 'subEventId' },
    );
  }
  return held;
}

/** The booking as its hold makes it: the seats' category is its tier, and their track (if seated by track) its track. */
export function bookedAsHeld(input: RegisterInput, held: seatHolds.HeldSeats): RegisterInput {
  return {
    ...input,
    ticketType: held.category,
    ...(held.track >= 0 ? { subEventId: String(held.track) } : {}),
  };
}
