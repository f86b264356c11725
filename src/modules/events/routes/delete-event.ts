import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import * as events from '../events.service.js';
import { IdParams } from './event.js';

const examples: OperationExamples = {
  responses: { '200': { success: true, deleted: true, id: EX.eventId } },
};

export const deleteEvent: Operation<EventDeps> = (app, deps) =>
  app.delete(
    '/api/v1/events/:id',
    {
      config: { auth: { kind: 'session' }, examples },
      schema: {
        operationId: 'deleteEvent',
        tags: ['events'],
        summary: 'Delete an event and all its registrations (session token only)',
        description:
          'Needs `Authorization: Bearer <idToken>`; an x-api-key alone answers 401 `Missing Authorization Bearer token`. Deleting removes the event’s bookings, so a live event answers 409 `has_payments_in_flight` while any booking has a payment in flight (pending with a gateway order), captured and kept (confirmed paid), or captured and not yet refunded: refund or cancel them first. `force=true` is honoured for platform staff only (who may also delete any account’s event): every such booking is refunded in full at the gateway first (recorded in the ledger like any refund; a pending one is cancelled and its order watched for late payments), then the event is deleted; 502 when the gateway fails (nothing is deleted). Test events move no money and skip the check. The ledger keeps the entries of a deleted event’s bookings.',
        params: IdParams,
        querystring: Type.Object({
          force: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
        }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              deleted: Type.Literal(true),
              id: Type.String({ description: 'The deleted event’s id.' }),
            }),
            'The event and its registrations are deleted.',
          ),
          403: Type.Ref('Error'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
          502: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      await events.deleteEvent(deps, sessionPrincipal(req), req.params.id, req.query.force === 'true');
      return { success: true as const, deleted: true as const, id: req.params.id };
    },
  );
