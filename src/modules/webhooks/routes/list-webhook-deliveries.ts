import { Type } from 'typebox';
import { Nullable } from '../../../http/schemas.js';
import { PageQuery, parseLimit } from '../../../http/paging.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import * as webhooks from '../webhooks.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { WebhooksRouteDeps, PageOf } from './webhooks-shared.js';

const examples: OperationExamples = {
  params: { limit: '20' },
  responses: { '200': { success: true, data: [], count: 0, hasMore: false, nextCursor: null } },
};

export const listWebhookDeliveries: Operation<WebhooksRouteDeps> = (app, deps) =>
  app.get(
    '/api/v1/webhooks/deliveries',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['webhooks'],
        summary: 'Delivery attempts, newest first (the last 100 by default)',
        description:
          'A refused address (not public) or a timeout is recorded with `statusCode: null` and the `error`. In pages: `limit` (default 100, at most 1,000), then `startingAfter=<nextCursor>` while `hasMore`; `count` is the total kept. Attempts are kept for 30 days.',
        querystring: Type.Object(
          {
            limit: PageQuery.limit,
            startingAfter: Type.Optional(
              Type.String({ maxLength: 600, description: 'The `nextCursor` of the previous page.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          400: Type.Ref('Error'),
          200: answer(
            PageOf(
              Type.Object({
                id: Type.String(),
                eventId: Type.String(),
                type: Type.String(),
                url: Type.String(),
                statusCode: Nullable(Type.Integer()),
                error: Nullable(Type.String()),
                durationMs: Type.Integer(),
                ok: Type.Boolean(),
                createdAt: Type.String({ format: 'date-time' }),
              }),
            ),
            'A page of delivery attempts, newest first.',
          ),
        },
      },
    },
    async (req) => {
      const p = keyPrincipal(req);
      const page = await webhooks.pageDeliveries(deps.db, p.userId, p.mode, {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      return {
        success: true as const,
        data: page.items,
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
