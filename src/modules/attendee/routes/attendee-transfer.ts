// The attendee page's transfer form (registered where the module's plugin parses forms).
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { transferTicket } from '../attendee.service.js';
import { renderDonePage } from '../attendee.html.js';
import { assertFromPage, type AttendeeRouteDeps, formRoute, send } from './attendee-page.js';

const examples: OperationExamples = {
  requests: { default: { value: { csrf: EX.csrf, name: 'Dev Mehta', email: 'dev@example.in' } } },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Ticket transferred</title></head><body>…</body></html>',
  },
};

export const attendeeTransfer: Operation<AttendeeRouteDeps> = (form, deps) =>
  form.post(
    '/t/:token/transfer',
    formRoute(deps, {
      operationId: 'attendeeTransfer',
      summary: 'Transfer the ticket to another person',
      description:
        'The organiser’s transfer, with the attendee as actor: a new ticket id (the old QR is then refused at the door with `transferred`), the ticket mail to the new holder, and this link retired (the new holder gets their own).',
      fields: {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        email: Type.String({ minLength: 3, maxLength: 254 }),
      },
      examples,
    }),
    async (req, reply) => {
      const { token } = req.params as { token: string };
      const b = req.body as { csrf: string; name: string; email: string };
      assertFromPage(deps, req, token, 'transfer', b.csrf);
      const reg = await transferTicket(deps, token, { name: b.name, email: b.email });
      return send(
        reply,
        renderDonePage(deps.css, 'Ticket transferred', [
          `The ticket now belongs to ${reg.name}, who gets it by mail.`,
          'This page and your old QR code no longer work.',
        ]),
      );
    },
  );
