import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import * as events from '../../events/events.service.js';
import * as promos from '../promo.service.js';
import type { RegisterDeps } from '../register.service.js';
import { E, EventParams, PromoCode } from '../registrations.schemas.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: EX.promoId,
          code: 'EARLYBIRD',
          discountPercent: 20,
          discountAmount: null,
          validFrom: null,
          validUntil: '2026-12-31T18:30:00.000Z',
          maxUses: 100,
          uses: 0,
          usesReserved: 0,
          createdAt: '2026-11-25T07:51:24.908Z',
        },
      ],
      count: 1,
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listPromoCodes: Operation<RegisterDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/promo-codes',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listPromoCodes',
        tags: ['registrations'],
        summary: 'The event’s promo codes, one page at a time',
        description:
          'Oldest first; at most `limit` codes (default 100, at most 1,000) with `hasMore` and `nextCursor`; `startingAfter=<nextCursor>` reads on. `count` is the total.',
        params: EventParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Array(PromoCode),
              count: Type.Integer(),
              ...PageFields,
            }),
            'A page of promo codes.',
          ),
          404: E,
        },
      },
    },
    async (req) => {
      const row = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
      const page = await promos.listPromosPage(deps.db, row.id, {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      return {
        success: true as const,
        data: page.items.map(promos.presentPromo),
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
