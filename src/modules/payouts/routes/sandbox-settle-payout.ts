import { Type } from 'typebox';
import { keyPrincipal } from '../../../http/auth.js';
import * as payouts from '../payouts.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PayoutsRouteDeps, Payout, present } from './payouts-shared.js';

const examples: OperationExamples = {
  params: { outcome: 'process' },
  responses: {
    '200': {
      id: EX.payoutId,
      amount: 500,
      currency: 'INR',
      upiId: 'asha@okaxis',
      mode: 'test',
      status: 'processed',
      utr: 'SANDBOXJEM04QKF',
      failureReason: null,
      expectedBy: '2026-12-04T07:51:24.908Z',
      createdAt: '2026-11-25T07:51:24.908Z',
      updatedAt: '2026-11-25T07:51:24.908Z',
    },
  },
};

export const sandboxSettlePayout: Operation<PayoutsRouteDeps> = (app, deps) =>
  app.post(
    '/api/v1/sandbox/payouts/:payoutId/:outcome',
    {
      config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxSettlePayout',
        tags: ['sandbox'],
        summary: 'Settle a test-mode payout as the gateway would',
        description:
          '`process`: paid, with a sandbox UTR. `fail` / `cancel`: not paid; the amount is credited back. `reverse`: the bank returned it (also after `process`); the amount is credited back. Any other move answers 409 `invalid_payout_transition`. A live payout is not visible here (404).',
        params: Type.Object({
          payoutId: Type.String({ maxLength: 100 }),
          outcome: Type.Union([
            Type.Literal('process'),
            Type.Literal('fail'),
            Type.Literal('reverse'),
            Type.Literal('cancel'),
          ]),
        }),
        response: {
          200: answer(Payout, 'The payout as settled.'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) =>
      present(
        await payouts.settleSandboxPayout(
          deps.payoutDeps,
          keyPrincipal(req),
          req.params.payoutId,
          req.params.outcome,
        ),
      ),
  );
