import { Type } from 'typebox';
import { PageQuery, parseLimit } from '../../../http/paging.js';
import { listOrderChecks } from '../reconcile.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { ReconciliationRouteDeps, OrderCheck } from './reconciliation-shared.js';

const examples: OperationExamples = {
  params: { limit: '20' },
  responses: {
    '200': {
      data: [
        {
          receipt: 'rcpt_sF-nxy2u27ZHu7i3min2TS1i',
          kind: 'membership',
          mode: 'test',
          accountId: EX.userId,
          amount: 120000,
          currency: 'INR',
          orderId: EX.orderId,
          paymentId: EX.paymentId,
          status: 'open',
          outcome: null,
          checks: 0,
          lastError: null,
          createdAt: '2026-11-25T07:51:24.908Z',
          checkAfter: '2026-11-25T07:51:24.908Z',
          settledAt: null,
        },
      ],
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listReconciliationOrders: Operation<ReconciliationRouteDeps> = (app, deps) =>
  app.get(
    '/admin/api/reconciliation/orders',
    {
      config: { auth: { kind: 'staff' }, examples },
      schema: {
        operationId: 'listReconciliationOrders',
        tags: ['admin'],
        summary: 'Gateway orders the reconciliation job watches',
        description:
          'Every gateway order the service creates is recorded before the create call and watched until its money has ended in one place: a confirmed booking or membership period, or a full refund. Oldest first; `status=open` lists those still watched.',
        querystring: Type.Object(
          {
            status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('settled')])),
            receipt: Type.Optional(Type.String({ maxLength: 64 })),
            limit: PageQuery.limit,
            startingAfter: Type.Optional(
              Type.String({ maxLength: 64, description: 'nextCursor of the previous page' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              data: Type.Array(OrderCheck),
              hasMore: Type.Boolean(),
              nextCursor: Type.Union([Type.String(), Type.Null()]),
            }),
            'A page of watched gateway orders.',
          ),
        },
      },
    },
    async (req) =>
      listOrderChecks(deps.db, {
        status: req.query.status,
        receipt: req.query.receipt,
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      }),
  );
