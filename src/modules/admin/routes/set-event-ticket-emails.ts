import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as events from '../../events/events.service.js';
import { type AdminDeps, STAFF } from './admin.js';

const examples: OperationExamples = {
  requests: { default: { value: { enabled: true } } },
  responses: { '200': { success: true, data: { eventId: EX.eventId, ticketEmailsEnabled: true } } },
};

export const setEventTicketEmails: Operation<AdminDeps> = (app, deps) =>
  app.post(
    '/admin/api/events/:eventId/ticket-emails',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'setEventTicketEmails',
        tags: ['admin'],
        summary: 'Switch the service’s own ticket email for one event',
        description:
          'With `enabled: false` no ticket mail is queued or sent for the event (mails already queued are dropped when their turn comes). It does not change the platform fee.',
        params: Type.Object({ eventId: Type.String({ maxLength: 100 }) }),
        body: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({ eventId: Type.String(), ticketEmailsEnabled: Type.Boolean() }),
            }),
            'The event’s ticket email setting as it now stands.',
          ),
          404: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const data = await events.setTicketEmails(deps.eventDeps, req.params.eventId, req.body.enabled);
      req.log.info(
        { staff: req.principal?.userId, eventId: data.eventId, enabled: data.ticketEmailsEnabled },
        'ticket emails switched',
      );
      return { success: true as const, data };
    },
  );
