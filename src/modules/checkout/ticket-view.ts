// The buyer's own ticket on the hosted page's confirmation: what was booked and paid,
// the QR of the ticket id, and the calendar entry (.ics, Google Calendar). The page holds
// the booking's attendee token (the same token as the attendee page link in the ticket
// mail, `/t/{token}`): it names the registration and is checked against its current
// ticket id, so a transfer retires it. Nothing here is reachable by the ticket id itself.
import type { CheckoutDeps } from './checkout.service.js';
import { notFound } from '../../lib/errors.js';
import { formatSpan } from '../../lib/event-time.js';
import * as events from '../events/events.service.js';
import * as registrations from '../registrations/registrations.service.js';
import { seatsOf, seatWords } from '../seat-holds/booked-seats.service.js';
import { attendeeTokenMatches, attendeeTokenRegistration } from '../../lib/attendee-token.js';
import { googleCalendarUrl, ticketCalendar } from '../tickets/calendar.js';
import { ticketQrPng } from '../tickets/ticket-mail.js';
import { walletLinks, type WalletLinks } from '../../lib/wallet-links.js';

/** A wallet button the confirmation shows (Apple Wallet, Google Wallet) when the service is configured for it. */
export interface WalletLink {
  kind: string;
  label: string;
  url: string;
}

export interface TicketView {
  status: 'pending' | 'confirmed' | 'refunding' | 'cancelled' | 'refunded';
  ticket?: {
    ticketId: string;
    /** The QR code of the ticket id, as a PNG data URL. */
    qr: string;
    event: { title: string; when: string | null; location: string | null };
    session: string | null;
    ticketType: string;
    /** A seated booking's seats, as a person reads them ("Stalls · Row C, seat 12"); empty otherwise. */
    seats: string[];
    quantity: number;
    /** Paise; 0 for a free booking. */
    amount: number;
    currency: string;
    calendarUrl: string | null;
    googleCalendarUrl: string | null;
    wallet: WalletLink[];
  };
}

function walletButtons(links: WalletLinks): WalletLink[] {
  return [
    ...(links.applePass ? [{ kind: 'apple', label: 'Add to Apple Wallet', url: links.applePass }] : []),
    ...(links.googleWallet
      ? [{ kind: 'google', label: 'Save to Google Wallet', url: links.googleWallet }]
      : []),
  ];
}

const noTicket = () => notFound('no ticket of this event has this token', 'not_found');

async function ticketOf(deps: CheckoutDeps, slug: string, token: string) {
  const registrationId = attendeeTokenRegistration(token);
  if (!registrationId) throw noTicket();
  const reg = await registrations.findBooking(deps.db, registrationId);
  if (!reg || !attendeeTokenMatches(deps.config.secretsKey, token, reg.id, reg.ticket_code ?? reg.id))
    throw noTicket();
  const event = await events.findEvent(deps.db, reg.event_id);
  if (!event || event.slug !== slug) throw noTicket();
  const track = reg.sub_event_id === null ? undefined : event.tracks[reg.sub_event_id];
  const timeZone = deps.config.eventTimeZone;
  const span = events.sessionOf(event, reg.sub_event_id, timeZone).span;
  const ticketId = reg.ticket_code ?? reg.id;
  const seats = !events.isSeated(event)
    ? []
    : ((await seatsOf(deps.db, [reg.id])).get(reg.id) ?? []).map(seatWords);
  const entry = {
    title: event.title,
    span,
    location: event.location,
    description: `Ticket ${ticketId} (${reg.ticket_type}${track ? ` · ${track.title}` : ''}).${seats.length > 0 ? ` Seat: ${seats.join('; ')}.` : ''}`,
  };
  return { reg, event, track, span, ticketId, entry, timeZone, seats };
}

export async function ticketView(deps: CheckoutDeps, slug: string, token: string): Promise<TicketView> {
  const t = await ticketOf(deps, slug, token);
  if (t.reg.status !== 'confirmed') return { status: t.reg.status };
  const hasCalendar = t.span.kind !== 'none';
  return {
    status: 'confirmed',
    ticket: {
      ticketId: t.ticketId,
      qr: `data:image/png;base64,${ticketQrPng(t.ticketId).toString('base64')}`,
      event: {
        title: t.event.title,
        when: formatSpan(t.span, t.timeZone) ?? null,
        location: t.event.location,
      },
      session: t.track?.title ?? null,
      ticketType: t.reg.ticket_type,
      seats: t.seats,
      quantity: t.reg.quantity,
      amount: Number(t.reg.amount_paise),
      currency: t.reg.currency,
      calendarUrl: hasCalendar
        ? `/e/${encodeURIComponent(slug)}/tickets/${encodeURIComponent(token)}/calendar.ics`
        : null,
      googleCalendarUrl: googleCalendarUrl(t.entry, t.timeZone) ?? null,
      // Where Apple or Google Wallet passes are configured; empty otherwise.
      wallet: walletButtons(walletLinks(deps.config, t.reg)),
    },
  };
}

/** The booking's calendar file: the same entry (UID = the ticket id) as the ticket mail's. */
export async function ticketCalendarFile(
  deps: CheckoutDeps,
  slug: string,
  token: string,
): Promise<{ filename: string; body: string }> {
  const t = await ticketOf(deps, slug, token);
  if (t.reg.status !== 'confirmed') throw notFound('this booking is not confirmed', 'not_found');
  const body = ticketCalendar({ ...t.entry, uid: t.ticketId, now: deps.clock.now() });
  if (!body) throw notFound('this event has no date yet', 'not_found');
  return { filename: `${t.event.slug}.ics`, body };
}
