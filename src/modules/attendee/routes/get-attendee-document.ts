// A tax document of the booking, as a PDF, authorised by the attendee page's token.
import { Type } from 'typebox';
import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { ticketDocumentPdf } from '../attendee.service.js';
import { AUTH, type AttendeeRouteDeps, Token } from './attendee-page.js';

const examples: OperationExamples = { responses: { '200': '(binary: an A4 PDF)' } };

export const getAttendeeDocument: Operation<AttendeeRouteDeps> = (app, deps) =>
  app.get(
    '/t/:token/documents/:number',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'getAttendeeDocument',
        tags: ['attendee'],
        summary: 'A tax invoice, bill of supply or credit note of the booking, as a PDF',
        description: [
          'The documents the ticket page links (`number` as the page gives it): the booking’s tax invoice or bill of supply and each credit note, as the A4 PDF the organiser’s API serves. 404 for a number that is not this booking’s, and for every document of a transferred ticket (they were issued to the giver).',
          AUTH,
        ].join('\n\n'),
        params: Type.Object({
          token: Token.properties.token,
          number: Type.String({
            maxLength: 40,
            description: 'The document’s number, e.g. `TIXI2627-000001`.',
          }),
        }),
        response: {
          200: {
            description: 'The document.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          404: Type.Ref('Error'),
        } as never,
      },
    },
    async (req, reply) => {
      const { token, number } = req.params as { token: string; number: string };
      const file = await ticketDocumentPdf(deps, token, number);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.pdf);
    },
  );
