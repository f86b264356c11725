import { actorOfSession } from '../../audit/audit.service.js';
import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { ModeQuery } from '../../ledger/paging.js';
import * as payouts from '../payouts.service.js';
import { UPI_ID_MAX } from '../../../lib/upi.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PayoutsRouteDeps, Payout, present, session } from './payouts-shared.js';

const examples: OperationExamples = {
  params: { mode: 'test' },
  requests: { default: { value: { amount: 500, upiId: 'asha@okaxis' } } },
  responses: {
    '201': {
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

export const createPayout: Operation<PayoutsRouteDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/payouts',
    {
      config: { ...session, examples },
      schema: {
        operationId: 'createPayout',
        tags: ['dashboard'],
        summary: 'Withdraw available balance to a UPI id',
        description:
          'Live mode (default): needs a verified email (403 `email_unverified`) and RazorpayX configured (503 `payouts_not_configured`); pays through RazorpayX to a `vpa` fund account with `mode: UPI`. `?mode=test` pays out of the sandbox ledger through the sandbox payout gateway (no money moves; settle it with `POST /api/v1/sandbox/payouts/{payoutId}/{process|fail|reverse|cancel}`). `amount` is rupees with at most two decimals, at least 100 (400 `amount_below_minimum`) and at most the available balance (409 `insufficient_balance`, also while the balance is below zero after refunds). The amount is held in the ledger in the same transaction that creates the payout; requests of one account are serialised, so concurrent requests never withdraw more than available.',
        querystring: Type.Object({ mode: ModeQuery }, { additionalProperties: false }),
        body: Type.Object(
          {
            amount: Type.Number({ minimum: 0, description: 'Rupees, at least 100, at most two decimals.' }),
            upiId: Type.String({
              maxLength: UPI_ID_MAX,
              description: 'UPI id `name@handle`: letters, digits, "." and "-", one "@".',
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(Payout, 'The payout, queued for the payout gateway.'),
          403: Type.Ref('Error'),
          409: Type.Ref('Error'),
          503: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const p = await payouts.requestPayout(
        deps.payoutDeps,
        sessionPrincipal(req).userId,
        req.query.mode ?? 'live',
        req.body,
        actorOfSession(sessionPrincipal(req)),
      );
      req.log.info({ payoutId: p.id, mode: p.mode, amountPaise: Number(p.amount_paise) }, 'payout requested');
      return reply.code(201).send(present(p));
    },
  );
