import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import { ModeQuery } from '../../ledger/paging.js';
import * as payouts from '../payouts.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PayoutsRouteDeps, Payout, present, session } from './payouts-shared.js';

const examples: OperationExamples = {
  params: { mode: 'test', limit: '20' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: EX.payoutId,
          amount: 500,
          currency: 'INR',
          upiId: 'asha@okaxis',
          mode: 'test',
          status: 'processing',
          utr: null,
          failureReason: null,
          expectedBy: '2026-12-04T07:51:24.908Z',
          createdAt: '2026-11-25T07:51:24.908Z',
          updatedAt: '2026-11-25T07:51:24.908Z',
        },
      ],
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listPayouts: Operation<PayoutsRouteDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/payouts',
    {
      config: { ...session, examples },
      schema: {
        operationId: 'listPayouts',
        tags: ['dashboard'],
        summary: "The session account's payouts, newest first, a page at a time",
        querystring: Type.Object({ mode: ModeQuery, ...PageQuery }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(Payout), ...PageFields }),
            'A page of payouts, newest first.',
          ),
        },
        description:
          'The signed-in account’s payouts in the mode chosen, newest first, a page at a time (`cursor`).',
      },
    },
    async (req) => {
      const page = await payouts.listPayouts(
        deps.payoutDeps,
        sessionPrincipal(req).userId,
        req.query.mode ?? 'live',
        parseLimit(req.query.limit),
        req.query.startingAfter,
      );
      return {
        success: true as const,
        data: page.items.map(present),
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
