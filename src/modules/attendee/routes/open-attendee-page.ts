// The attendee's own page, /t/{token}: the ticket, and the changes the organiser's policy allows.
import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { openTicket, ticketDocuments } from '../attendee.service.js';
import { renderTicketPage } from '../attendee.html.js';
import { AUTH, type AttendeeRouteDeps, errorPage, errorPages, Html, send, Token } from './attendee-page.js';

const examples: OperationExamples = {
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Your ticket: Pune Tech Summit 2027</title></head><body>…</body></html>',
  },
};

export const openAttendeePage: Operation<AttendeeRouteDeps> = (app, deps) =>
  app.get(
    '/t/:token',
    {
      config: { auth: { kind: 'public' }, examples },
      errorHandler: errorPage(deps),
      schema: {
        operationId: 'openAttendeePage',
        tags: ['attendee'],
        summary:
          'The attendee’s own page: the ticket, its QR, calendar link, and the changes the policy allows',
        description: [
          'Server-rendered HTML without script. Shows the booking, the QR of the current ticket id, an “Add to Google Calendar” link, the wallet links where they exist, links to the booking’s tax invoice and credit notes (PDFs, authorised by the same token; none for a transferred ticket), and, while the event’s `selfService` policy allows and before its cutoff, a transfer form and a cancellation form naming the refund to the paisa.',
          AUTH,
        ].join('\n\n'),
        params: Token,
        response: { 200: Html('The ticket page.'), ...errorPages([400, 404, 429, 500]) } as never,
      },
    },
    async (req, reply) => {
      const ticket = await openTicket(deps, req.params.token);
      const ref = { registrationId: ticket.reg.id, token: req.params.token };
      const documents = await ticketDocuments(deps, ticket);
      return send(
        reply,
        renderTicketPage({
          css: deps.css,
          ticket,
          token: req.params.token,
          secretsKey: deps.secretsKey,
          walletLinks: deps.walletLinks?.(ref) ?? '',
          documents,
        }),
      );
    },
  );
