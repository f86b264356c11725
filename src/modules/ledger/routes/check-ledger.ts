import { Type } from 'typebox';
import { paiseToRupees } from '../../../lib/money.js';
import * as ledgerCheck from '../ledger-check.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { LedgerRouteDeps, Mode } from './ledger-shared.js';

const examples: OperationExamples = {
  params: { accountId: EX.userId },
  responses: { '200': { ok: true, accountsChecked: 1, mismatches: [] } },
};

export const checkLedger: Operation<LedgerRouteDeps> = (app, deps) =>
  app.get(
    '/admin/api/ledger/check',
    {
      config: { auth: { kind: 'staff' }, examples },
      schema: {
        operationId: 'checkLedger',
        tags: ['admin'],
        summary:
          'Recompute every account’s money from registrations, refunds and payouts and compare it with the ledger',
        description:
          'Per account, mode and source: the net of confirmed paid bookings, through the gateway or marked paid outside it (gross less fees, and less the refund plus the fee reversal when refunded; an offline sale refunded offline nets to nothing) and of payouts (minus each hold, plus its credit when failed, cancelled or reversed) must equal the ledger’s sum; every membership’s last payment must have its entry. The entries of a deleted event’s registrations (deletion refunds paid bookings first) count as recorded, having no row left to recompute them from. `ok` is true when nothing differs.',
        querystring: Type.Object(
          {
            accountId: Type.Optional(Type.String({ maxLength: 100, description: 'Check one account only.' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              ok: Type.Boolean(),
              accountsChecked: Type.Integer(),
              mismatches: Type.Array(
                Type.Object({
                  accountId: Type.String(),
                  mode: Mode,
                  source: Type.Union([
                    Type.Literal('registration'),
                    Type.Literal('membership'),
                    Type.Literal('payout'),
                  ]),
                  expected: Type.Number({ description: 'Rupees recomputed from the source rows.' }),
                  ledger: Type.Number({ description: 'Rupees in the ledger.' }),
                  detail: Type.Optional(Type.String()),
                }),
              ),
            }),
            'Whether every account’s ledger matches, and each mismatch.',
          ),
        },
      },
    },
    async (req) => {
      const r = await ledgerCheck.checkLedger(deps.db, req.query.accountId);
      return {
        ok: r.ok,
        accountsChecked: r.accountsChecked,
        mismatches: r.mismatches.map((m) => ({
          accountId: m.accountId,
          mode: m.mode,
          source: m.source,
          expected: paiseToRupees(m.expectedPaise),
          ledger: paiseToRupees(m.ledgerPaise),
          ...(m.detail ? { detail: m.detail } : {}),
        })),
      };
    },
  );
