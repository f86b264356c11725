// The buyer's ticket as a calendar entry.
import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { E, type CheckoutContext } from '../page-context.js';
import { ticketCalendarFile } from '../ticket-view.js';
import { TicketParams, TOKEN_AUTH } from './ticket-token.js';

const examples: OperationExamples = {
  responses: {
    '200':
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ticketing-service//tickets//EN\r\nBEGIN:VEVENT\r\nSUMMARY:Pune Tech Summit 2027\r\nDTSTART:20270116T043000Z\r\nDTEND:20270116T120000Z\r\nLOCATION:Hall B, Pune\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  },
};

export const hostedGetTicketCalendar: Operation<CheckoutContext> = (app, { deps }) =>
  app.get(
    '/e/:slug/tickets/:token/calendar.ics',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedGetTicketCalendar',
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
