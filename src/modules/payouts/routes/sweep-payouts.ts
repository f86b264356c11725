import { Type } from 'typebox';
import * as payoutGateway from '../payout-gateway.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PayoutsRouteDeps } from './payouts-shared.js';

const examples: OperationExamples = { responses: { '200': { checked: 0, changed: 0 } } };

export const sweepPayouts: Operation<PayoutsRouteDeps> = (app, deps) =>
  app.post(
    '/admin/api/payouts/sweep',
    {
      config: { auth: { kind: 'staff' }, examples },
      schema: {
        operationId: 'sweepPayouts',
        tags: ['admin'],
        summary: 'Read live payouts stuck in processing back from RazorpayX now',
        description: `The same sweep runs every five minutes on worker instances: payouts processing for more than ${payoutGateway.STUCK_AFTER_MS / 60_000} minutes are fetched from RazorpayX and their state applied.`,
        response: {
          200: answer(
            Type.Object({ checked: Type.Integer(), changed: Type.Integer() }),
            'How many payouts were read back and how many changed.',
          ),
        },
      },
    },
    async () => payoutGateway.sweepStuckPayouts(deps.payoutDeps),
  );
