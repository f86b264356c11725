// The attendee page's cancellation form (registered where the module's plugin parses forms).
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { badRequest } from '../../../lib/errors.js';
import { cancelTicket } from '../attendee.service.js';
import { renderDonePage } from '../attendee.html.js';
import { assertFromPage, type AttendeeRouteDeps, formRoute, send } from './attendee-page.js';

const examples: OperationExamples = {
  requests: { default: { value: { csrf: EX.csrf, confirm: 'yes' } } },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Booking cancelled</title></head><body>…</body></html>',
  },
};

export const attendeeCancel: Operation<AttendeeRouteDeps> = (form, deps) =>
  form.post(
    '/t/:token/cancel',
    formRoute(deps, {
      operationId: 'attendeeCancel',
      summary: 'Cancel the booking under the event’s policy',
      description:
        'The organiser’s cancellation, with the attendee as actor: the refund the policy names (`full`, `none`, or all but `feePercent`, rounded half up to the paisa) at the gateway and in the ledger, the seat freed and offered to the waitlist. `confirm=yes` is required.',
      fields: { confirm: Type.String({ maxLength: 10 }) },
      examples,
    }),
    async (req, reply) => {
      const { token } = req.params as { token: string };
      const b = req.body as { csrf: string; confirm?: string };
      assertFromPage(deps, req, token, 'cancel', b.csrf);
      if (b.confirm !== 'yes') throw badRequest('invalid_request', 'tick “Yes, cancel my booking” to cancel');
      const { refundPaise } = await cancelTicket(deps, token);
      const refund =
        refundPaise > 0
          ? `${new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(refundPaise / 100)} is on its way back to you.`
          : 'Nothing is refunded.';
      return send(
        reply,
        renderDonePage(deps.css, 'Booking cancelled', ['Your booking is cancelled.', refund]),
      );
    },
  );
