import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { paiseToRupees } from '../../../lib/money.js';
import * as ledger from '../ledger.service.js';
import { ModeQuery } from '../paging.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { LedgerRouteDeps, Mode, LEDGER_DESCRIPTION, session } from './ledger-shared.js';

const examples: OperationExamples = {
  params: { mode: 'test' },
  responses: { '200': { available: 0, pending: 3395, currency: 'INR', mode: 'test' } },
};

export const getBalance: Operation<LedgerRouteDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/balance',
    {
      config: { ...session, examples },
      schema: {
        operationId: 'getBalance',
        tags: ['dashboard'],
        summary: "The session account's balance: available and pending, in rupees",
        description: `${LEDGER_DESCRIPTION} \`available\` may be below zero after a refund of money already paid out; no payout is possible until it is positive again.`,
        querystring: Type.Object({ mode: ModeQuery }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({
              available: Type.Number({ description: 'Rupees that may be paid out now.' }),
              pending: Type.Number({ description: 'Rupees of net proceeds not cleared yet.' }),
              currency: Type.Literal('INR'),
              mode: Mode,
            }),
            'The balance, in rupees.',
          ),
        },
      },
    },
    async (req) => {
      const mode = req.query.mode ?? 'live';
      const b = await ledger.balance(deps.payoutDeps, deps.db, sessionPrincipal(req).userId, mode);
      return {
        available: paiseToRupees(b.availablePaise),
        pending: paiseToRupees(b.pendingPaise),
        currency: 'INR' as const,
        mode,
      };
    },
  );
