import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { ModeQuery } from '../../ledger/paging.js';
import * as payouts from '../payouts.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PayoutsRouteDeps, Payout, present, session } from './payouts-shared.js';

const examples: OperationExamples = {
  params: { mode: 'test' },
  responses: {
    '200': {
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
  },
};

export const getPayout: Operation<PayoutsRouteDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/payouts/:payoutId',
    {
      config: { ...session, examples },
      schema: {
        operationId: 'getPayout',
        tags: ['dashboard'],
        summary: 'One payout of the session account',
        params: Type.Object({ payoutId: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ mode: ModeQuery }, { additionalProperties: false }),
        response: { 200: answer(Payout, 'The payout.'), 404: Type.Ref('Error') },
        description:
          'One payout of the signed-in account: amount, UPI id, status, UTR and the expected date.',
      },
    },
    async (req) =>
      present(
        await payouts.getPayout(
          deps.payoutDeps,
          sessionPrincipal(req).userId,
          req.query.mode ?? 'live',
          req.params.payoutId,
        ),
      ),
  );
