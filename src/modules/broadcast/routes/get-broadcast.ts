import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as events from '../../events/events.service.js';
import { broadcastProgress } from '../broadcast.service.js';
import { type BroadcastDeps, E } from './broadcast-deps.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        broadcastId: EX.broadcastId,
        eventId: EX.eventId,
        subject: 'Doors open at 9:30',
        audience: 'confirmed',
        recipientCount: 2,
        queued: 0,
        delivered: 2,
        failed: 0,
        done: true,
        createdAt: '2026-11-25T07:51:24.908Z',
      },
    },
  },
};

const Progress = Type.Object(
  {
    broadcastId: Type.String(),
    eventId: Type.String(),
    subject: Type.String(),
    audience: Type.String({ description: 'The audience (and track) it went to.' }),
    recipientCount: Type.Integer(),
    queued: Type.Integer({
      description:
        'Mails waiting for delivery, or being sent now (retried through a mail server outage for 72 hours).',
    }),
    delivered: Type.Integer({
      description: 'Mails the mail server accepted (test mode: kept for GET /api/v1/sandbox/emails).',
    }),
    failed: Type.Integer({
      description:
        'Recipients refused up front (not a plain address) or by the mail server, and mails whose attempt stopped mid-send (never sent twice).',
    }),
    done: Type.Boolean({ description: 'No mail is waiting any more.' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'BroadcastProgress' },
);

export const getBroadcast: Operation<BroadcastDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/broadcasts/:broadcastId',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getBroadcast',
        tags: ['broadcast'],
        summary: 'Delivery progress of a broadcast',
        description:
          'How many of its mails are queued, delivered and failed. 404 `broadcast_not_found` for a broadcast of another event.',
        params: Type.Object({
          id: Type.String({ maxLength: 100 }),
          broadcastId: Type.String({ maxLength: 100 }),
        }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Progress }),
            'The broadcast’s delivery progress.',
          ),
          404: E,
        },
      },
    },
    async (req) => {
      const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
      return {
        success: true as const,
        data: await broadcastProgress(deps.db, event.id, req.params.broadcastId),
      };
    },
  );
