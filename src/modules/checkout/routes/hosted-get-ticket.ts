// The hosted page's confirmation: the buyer's own ticket (QR, what was booked and paid,
// calendar entry).
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { BookingStatus } from '../../registrations/registrations.schemas.js';
import { E, type CheckoutContext } from '../page-context.js';
import { ticketView } from '../ticket-view.js';
import { Paise, TicketParams, TOKEN_AUTH } from './ticket-token.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      status: 'confirmed',
      ticket: {
        ticketId: EX.registrationId,
        qr: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAT8AAAE/AQAAAAAY3fkG',
        event: {
          title: 'Pune Tech Summit 2027',
          when: 'Sat 16 Jan 2027, 10:00 am – 5:30 pm IST',
          location: 'Hall B, Pune',
        },
        session: null,
        ticketType: 'General',
        seats: [],
        quantity: 1,
        amount: 49900,
        currency: 'INR',
        calendarUrl:
          '/e/pune-tech-summit-2027/tickets/reg_Qm7Zx2Kv9Lt4Rb8Nc1Wd5a.Xy7Lq2Mz9Kv4Tb1Nc8Rd5e/calendar.ics',
        googleCalendarUrl:
          'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Pune+Tech+Summit+2027&dates=20270116T043000Z%2F20270116T120000Z&details=Ticket+reg_JNxgg7P0eTWYfL6DBPvVTA+%28General%29.&ctz=Asia%2FKolkata&location=Hall+B%2C+Pune',
        wallet: [
          {
            kind: 'apple',
            label: 'Add to Apple Wallet',
            url: 'https://tickets.example.in/t/reg_Qm7Zx2Kv9Lt4Rb8Nc1Wd5a.Xy7Lq2Mz9Kv4Tb1Nc8Rd5e/pass.pkpass',
          },
        ],
      },
    },
  },
};

const Wallet = Type.Object({ kind: Type.String(), label: Type.String(), url: Type.String() });

export const hostedGetTicket: Operation<CheckoutContext> = (app, { deps }) =>
  app.get(
    '/e/:slug/tickets/:token',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedGetTicket',
        tags: ['checkout'],
        summary: 'The buyer’s own ticket, for the hosted page’s confirmation',
        description: [
          'Where the booking stands; once confirmed, the ticket: its id and QR code (a PNG data URL of the bare id, as mailed), what was booked (event, date in words in the event’s time zone — `EVENT_TIME_ZONE`, India Standard Time by default — venue, session, tier, people) and paid (paise; 0 for free), the calendar file’s address and a Google Calendar link (null when the event has no date), and `wallet` buttons where Apple or Google Wallet passes are configured (empty otherwise). Never a name, an email or a phone.',
          TOKEN_AUTH,
        ].join('\n\n'),
        params: TicketParams,
        response: {
          200: answer(
            Type.Object({
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
                  seats: Type.Array(Type.String(), {
                    description:
                      'A seated booking’s seats as a person reads them (“Stalls · Row C, seat 12”), in seat order; empty for an event without a seating plan.',
                  }),
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
            'The ticket, its QR and calendar and wallet links.',
          ),
          404: E,
        },
      },
    },
    async (req) => ticketView(deps, req.params.slug, req.params.token),
  );
