import { Type } from 'typebox';
import { conflict } from '../../../lib/errors.js';
import { sweep } from '../reconcile.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { ReconciliationRouteDeps, SweepSummary } from './reconciliation-shared.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        checked: 0,
        confirmed: 0,
        captured: 0,
        refunded: 0,
        expired: 0,
        endedRefunded: 0,
        claimsFinished: 0,
        orphansFound: 0,
        settled: 0,
        errors: 0,
      },
    },
  },
};

export const runReconciliationSweep: Operation<ReconciliationRouteDeps> = (app, deps) =>
  app.post(
    '/admin/api/reconciliation/sweep',
    {
      config: { auth: { kind: 'staff' }, examples },
      schema: {
        operationId: 'runReconciliationSweep',
        tags: ['admin'],
        summary: 'Run the reconciliation sweep now',
        description:
          'What the workers do on start and every RECONCILE_EVERY_SECONDS: each order unpaid longer than RECONCILE_AFTER_MINUTES is looked up at the gateway and confirmed or refunded. 409 `sweep_in_progress` while another instance sweeps.',
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: SweepSummary }),
            'What the sweep found and did.',
          ),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const { ran, ...summary } = await sweep(deps);
      if (!ran)
        throw conflict('sweep_in_progress', 'another instance is sweeping now; try again in a few minutes');
      req.log.info({ staff: req.principal?.userId, reconcile: summary }, 'reconciliation sweep on demand');
      return { success: true as const, data: summary };
    },
  );
