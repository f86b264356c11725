// What the wallet operations share: their deps, the ticket a page token names, and the token
// rules and parameters they document.
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { conflict, notFound } from '../../../lib/errors.js';
import { findUsersById } from '../../accounts/accounts.service.js';
import * as events from '../../events/events.service.js';
import * as registrations from '../../registrations/registrations.service.js';
import { attendeeTokenMatches, attendeeTokenRegistration } from '../../../lib/attendee-token.js';
import { seatOfPerson, seatsOf, seatWords } from '../../seat-holds/booked-seats.service.js';
import type { TicketFacts } from '../ticket-facts.js';
import { primaryTicketId } from '../../../lib/wallet-links.js';

export interface WalletDeps {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
}

const NO_TICKET = 'no ticket for this link (it may have been transferred)';

/** The ticket a page token names, when the token holds for its current ticket id. */
export async function ticketForToken(deps: WalletDeps, token: string): Promise<TicketFacts> {
  const registrationId = attendeeTokenRegistration(token);
  const reg =
    registrationId === undefined ? undefined : await registrations.findRegistration(deps.db, registrationId);
  if (!reg || !attendeeTokenMatches(deps.config.secretsKey, token, reg.id, primaryTicketId(reg)))
    throw notFound(NO_TICKET);
  if (reg.status !== 'confirmed')
    throw conflict('not_confirmed', `this ticket is ${reg.status}, not confirmed`);
  const event = await events.findEvent(deps.db, reg.event_id);
  if (!event) throw notFound(NO_TICKET);
  const [organiser] = await findUsersById(deps.db, [event.account_id]);
  const session = events.sessionOf(event, reg.sub_event_id, deps.config.eventTimeZone);
  // The primary's pass: the seat of the booking's first person (the booking's own id).
  const seats = !events.isSeated(event) ? new Map() : await seatsOf(deps.db, [reg.id]);
  const seat = seatOfPerson(seats, reg.id, reg.id);
  return {
    ticketId: primaryTicketId(reg),
    holderName: reg.name,
    ticketType: reg.ticket_type,
    trackTitle: session.title,
    trackIndex: session.trackIndex,
    seat: seat && { section: seat.section, row: seat.row, number: seat.number, words: seatWords(seat) },
    event: { id: event.id, title: event.title, location: event.location },
    session: session.span,
    timeZone: deps.config.eventTimeZone,
    organiserName: organiser?.name || 'Tickets',
  };
}

export const Params = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The attendee page’s token, from the ticket mail (`/t/{token}`).',
  }),
});
export const E = Type.Ref('Error');
export const TOKEN_RULES =
  'Public: the token in the path is the credential (the attendee page’s: the registration id and a 132-bit MAC over it and the current ticket id). An unknown, altered or retired token (a transfer issues a new ticket id, which retires every earlier link) answers 404; so does a wallet whose settings are absent. A booking that is not confirmed (pending, cancelled, refunded) answers 409 `not_confirmed`. Answers are `Cache-Control: no-store` and `Referrer-Policy: no-referrer`.';
