// The attendee's own page (docs/decisions/18-waitlist-and-attendee-page.md), HTTP-free: the token in its path is the
// only credential (`tickets/attendee-token.ts`: nothing stored, retired by a transfer).
// Transfer and cancellation go through the registrations module's own state changes (the
// organiser's paths: seats freed to the waitlist, refund at the gateway, ledger, change
// record) with the attendee as actor, where the event's `selfService` policy allows and
// before its cutoff, which is counted from the start of the booking's own session (its
// track's time, or the event's).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { nowFor } from '../accounts/account-clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { formatInstant } from '../../lib/event-time.js';
import { seatsOf, seatWords } from '../seat-holds/booked-seats.service.js';
import * as events from '../events/events.service.js';
import * as gst from '../gst/documents.service.js';
import { endLoaded, transferLoaded, type Actor } from '../registrations/actions.service.js';
import type { RegisterDeps } from '../registrations/register.service.js';
import * as registrations from '../registrations/registrations.service.js';
import { attendeeTokenMatches, attendeeTokenRegistration } from '../../lib/attendee-token.js';

export interface AttendeeDeps {
  db: Kysely<Database>;
  secretsKey: Buffer;
  registerDeps: RegisterDeps;
  /** The event's time zone (EVENT_TIME_ZONE): whole-day sessions begin at its midnight. */
  timeZone: string;
}

export type Ticket = Awaited<ReturnType<typeof openTicket>>;
export type Change = 'transfer' | 'cancel';

const notShown = () =>
  notFound(
    'this link is not valid: the ticket was transferred to someone else, or the link was mistyped',
    'ticket_page_not_found',
  );

/** The booking a token opens, with its event and what the policy allows now. */
export async function openTicket(deps: AttendeeDeps, token: string) {
  const id = attendeeTokenRegistration(token);
  const reg = id === undefined ? undefined : await registrations.findRegistration(deps.db, id);
  if (!reg || !attendeeTokenMatches(deps.secretsKey, token, reg.id, reg.ticket_code ?? reg.id))
    throw notShown();
  const event = await events.findEvent(deps.db, reg.event_id);
  if (!event) throw notShown();
  const policy = events.selfServicePolicy(event.self_service);
  const session = events.sessionOf(event, reg.sub_event_id, deps.timeZone);
  // A test event's cutoff passes on its account's clock.
  const now = await nowFor(deps.registerDeps, event.account_id, event.mode);
  const open = events.selfServiceOpen(policy, session.startsAt, now);
  const amount =
    reg.status === 'confirmed' && reg.payment_id !== null && Number(reg.amount_paise) > 0
      ? Number(reg.amount_paise)
      : 0;
  // What the buyer still has in it (the organiser may have given part back); the policy's fee is on the price.
  const paid = Math.max(0, amount - reg.refunded_paise);
  const fee = amount - events.policyRefundPaise(policy, amount);
  // A seated booking's seats, every person's: the page is the booking's.
  const seats = !events.isSeated(event) ? [] : ((await seatsOf(deps.db, [reg.id])).get(reg.id) ?? []);
  return {
    reg,
    seats: seats.map(seatWords),
    event,
    ticketId: reg.ticket_code ?? reg.id,
    session,
    timeZone: deps.timeZone,
    policy,
    cutoff: events.selfServiceCutoff(policy, session.startsAt),
    canTransfer: reg.status === 'confirmed' && policy.transfer && open,
    canCancel: reg.status === 'confirmed' && policy.cancel && open,
    paidPaise: paid,
    refundPaise: Math.max(0, paid - fee),
  };
}

/**
 * The GST documents the token's holder may open: the booking's invoice and credit notes,
 * issued to its buyer. A transferred ticket's new holder sees none of them (they carry the
 * giver's price and name), and the giver's own link was retired by the transfer.
 */
export async function ticketDocuments(deps: AttendeeDeps, t: Ticket): Promise<gst.DocumentRef[]> {
  // A ticket code is only ever set by a transfer (a booking's first ticket id is its own id).
  if (t.reg.ticket_code !== null || t.reg.previous_ticket_codes.length > 0) return [];
  return gst.documentRefsOf(deps.db, t.reg.id);
}

/** One of those documents as a PDF, the token its only credential: 404 for any other number or a transferred ticket. */
export async function ticketDocumentPdf(
  deps: AttendeeDeps,
  token: string,
  number: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const t = await openTicket(deps, token);
  const mine = (await ticketDocuments(deps, t)).some((d) => d.number === number);
  const file = mine ? await gst.documentPdfOf(deps.db, t.reg.id, number) : undefined;
  if (!file) throw notFound('no such document for this ticket', 'document_not_found');
  return file;
}

/** Why a change is refused, said so a person understands it. */
function assertAllowed(t: Ticket, change: Change): void {
  if (t.reg.status !== 'confirmed')
    throw conflict('not_confirmed', `this ticket is ${t.reg.status}; nothing more can change`);
  const allowed = change === 'transfer' ? t.policy.transfer : t.policy.cancel;
  if (!allowed)
    throw conflict(
      'self_service_not_allowed',
      `the organiser does not allow ${change === 'transfer' ? 'transfers' : 'cancellations'} from the ticket page; contact them`,
    );
  if (!(change === 'transfer' ? t.canTransfer : t.canCancel)) {
    throw conflict(
      'self_service_closed',
      `${change === 'transfer' ? 'transfers' : 'cancellations'} closed ${t.policy.cutoffHours} hours before the ${t.session.title === null ? 'event' : 'session'} started (at ${formatInstant(t.cutoff!, t.timeZone)}); contact the organiser`,
    );
  }
}

const actorOf = (t: Ticket): Actor => ({ kind: 'attendee', registrationId: t.reg.id });

export async function transferTicket(deps: AttendeeDeps, token: string, to: { name: string; email: string }) {
  const t = await openTicket(deps, token);
  assertAllowed(t, 'transfer');
  return transferLoaded(deps.registerDeps, t.reg, to, actorOf(t));
}

/** Cancels, refunding what the policy says (to the paisa); the seat goes to the waitlist. */
export async function cancelTicket(deps: AttendeeDeps, token: string) {
  const t = await openTicket(deps, token);
  assertAllowed(t, 'cancel');
  const reg = await endLoaded(deps.registerDeps, t.reg, 'cancelled', actorOf(t), t.refundPaise);
  return { reg, refundPaise: t.refundPaise };
}

/** A form's token: binds a posted form to this page and this action (the Origin check comes first). */
export function formToken(secretsKey: Buffer, token: string, change: Change): string {
  return createHmac('sha256', secretsKey).update(`attendee-form\0${token}\0${change}`).digest('base64url');
}

export function formTokenMatches(
  secretsKey: Buffer,
  token: string,
  change: Change,
  given: string | undefined,
): boolean {
  if (given === undefined) return false;
  const want = Buffer.from(formToken(secretsKey, token, change));
  const got = Buffer.from(given);
  return got.length === want.length && timingSafeEqual(got, want);
}
