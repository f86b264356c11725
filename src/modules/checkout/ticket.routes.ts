// The hosted page's order summary and its confirmation: what a choice costs before it is
// booked, and the buyer's own ticket (QR, what was booked and paid, calendar entry) after.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BookingStatus } from '../registrations/registrations.schemas.js';
import { quoteBooking } from '../registrations/quote.service.js';
import * as service from './checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from './page-context.js';
import { ticketCalendarFile, ticketView } from './ticket-view.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

const Paise = (description: string) => Type.Integer({ description: `${description} Paise.` });
const TicketToken = Type.String({
  maxLength: 120,
  description:
    'The `ticket` token the page’s register answer gave (the same token as the attendee page link, `/t/{token}`, in the ticket mail).',
});
const TOKEN_AUTH =
  'No credentials: the token is the capability. It names the booking and is checked (constant time) against the booking’s current ticket id, so a transfer retires it; a token of another event, or a made-up one, answers 404. Rate limited per IP.';

export function ticketRoutes(app: App, ctx: CheckoutContext): void {
  const { deps } = ctx;
  app.post(
    '/e/:slug/quote',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'The order summary: what a choice on the hosted page costs',
        description: [
          'Prices a booking without making it, with the rules of register: the tier’s price wins over the track’s, and the track’s over the event’s; times the people (1 plus the team members); less the promo code, taken off the booking total. Refusals name the field (`field`): 400 `promo_code_invalid` (`promoCode`; unknown, out of date and used up answer alike), 400 `unknown_ticket_type` / 409 `tier_not_on_sale` (`ticketType`), 404 `track_not_found` (`subEventId`), 400 `team_too_large` (`teamMembers`). Availability and membership are checked when booking, not here.',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object(
          {
            ...Access,
            subEventId: Type.Optional(Type.String({ maxLength: 10 })),
            ticketType: Type.Optional(Type.String({ maxLength: 80 })),
            quantity: Type.Integer({
              minimum: 1,
              maximum: 100,
              description: 'People on the booking: 1 plus the team members.',
            }),
            promoCode: Type.Optional(Type.String({ maxLength: 40 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            currency: Type.String(),
            quantity: Type.Integer(),
            unitPrice: Paise('The price per person.'),
            subtotal: Paise('unitPrice × quantity.'),
            discount: Paise('What the promo code takes off.'),
            total: Paise(
              'What the booking costs: 0 is a free booking (the page’s button says “Register”), more is paid through the gateway (“Pay ₹X”).',
            ),
          }),
          403: E,
          404: E,
          409: E,
        },
      },
    },
    async (req) => {
      const { key, origin, offer, preview, ...input } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      const q = await quoteBooking(deps.db, access.event, input, deps.clock.now());
      return {
        currency: q.currency,
        quantity: q.quantity,
        unitPrice: q.unitPaise,
        subtotal: q.subtotalPaise,
        discount: q.discountPaise,
        total: q.amountPaise,
      };
    },
  );

  const TicketParams = Type.Object({ slug: Slug.properties.slug, token: TicketToken });
  const Wallet = Type.Object({ kind: Type.String(), label: Type.String(), url: Type.String() });
  app.get(
    '/e/:slug/tickets/:token',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'The buyer’s own ticket, for the hosted page’s confirmation',
        description: [
          'Where the booking stands; once confirmed, the ticket: its id and QR code (a PNG data URL of the bare id, as mailed), what was booked (event, date in words in the event’s time zone — `EVENT_TIME_ZONE`, India Standard Time by default — venue, session, tier, people) and paid (paise; 0 for free), the calendar file’s address and a Google Calendar link (null when the event has no date), and `wallet` buttons where Apple or Google Wallet passes are configured (empty otherwise). Never a name, an email or a phone.',
          TOKEN_AUTH,
        ].join('\n\n'),
        params: TicketParams,
        response: {
          200: Type.Object({
            status: BookingStatus,
            ticket: Type.Optional(
              Type.Object({
                ticketId: Type.String({
                  description:
                    'What the QR encodes: the registration id, or its ticketCode after a transfer.',
                }),
                qr: Type.String({ description: 'data:image/png;base64,…' }),
                event: Type.Object({
                  title: Type.String(),
                  when: Type.Union([Type.String(), Type.Null()], {
                    description: 'e.g. “Sat 12 Dec 2026, 10:00 am – 5:30 pm IST”.',
                  }),
                  location: Type.Union([Type.String(), Type.Null()]),
                }),
                session: Type.Union([Type.String(), Type.Null()], {
                  description: 'The track’s title, for a track booking.',
                }),
                ticketType: Type.String(),
                quantity: Type.Integer(),
                amount: Paise('What was paid; 0 for a free booking.'),
                currency: Type.String(),
                calendarUrl: Type.Union([Type.String(), Type.Null()], {
                  description: 'This service’s `…/calendar.ics` for the booking.',
                }),
                googleCalendarUrl: Type.Union([Type.String(), Type.Null()]),
                wallet: Type.Array(Wallet),
              }),
            ),
          }),
          404: E,
        },
      },
    },
    async (req) => ticketView(deps, req.params.slug, req.params.token),
  );

  app.get(
    '/e/:slug/tickets/:token/calendar.ics',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'The buyer’s ticket as a calendar file (.ics)',
        description: [
          'RFC 5545, made by the `ics` package: one VEVENT whose `UID` is the ticket id (the ticket mail’s attachment is the same entry, so adding both makes one), the event’s dates (a bare date is an all-day entry; a start without an end, one hour), the venue, and a display alarm an hour before. `Content-Disposition: attachment`. 404 while the booking is not confirmed or the event has no date.',
          TOKEN_AUTH,
        ].join('\n\n'),
        params: TicketParams,
        response: {
          200: {
            description: 'The calendar file.',
            content: { 'text/calendar': { schema: { type: 'string' } } },
          },
          404: E,
        } as never,
      },
    },
    async (req, reply) => {
      const file = await ticketCalendarFile(deps, req.params.slug, req.params.token);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );
}
