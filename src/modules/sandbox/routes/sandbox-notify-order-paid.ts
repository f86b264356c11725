import { Type } from 'typebox';
import { keyPrincipal } from '../../../http/auth.js';
import { notifyOrderPaid } from '../checkout.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { SandboxRouteDeps, E } from './sandbox-shared.js';

const examples: OperationExamples = {
  responses: { '200': { success: true, paymentId: EX.paymentId, result: 'confirmed' } },
};

export const sandboxNotifyOrderPaid: Operation<SandboxRouteDeps> = (app, deps) =>
  app.post(
    '/api/v1/sandbox/orders/:orderId/paid',
    {
      config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxNotifyOrderPaid',
        tags: ['sandbox'],
        summary: 'Act as the gateway’s paid notification for an order (the buyer closed the browser)',
        description:
          'Pays the order if it has no captured payment yet, then confirms its pending registration exactly as the gateway’s `order.paid` notification does. Repeats change nothing.',
        params: Type.Object({ orderId: Type.String({ maxLength: 100 }) }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              paymentId: Type.String(),
              result: Type.Union(
                [
                  Type.Literal('confirmed'),
                  Type.Literal('ignored'),
                  Type.Literal('sold_out'),
                  Type.Literal('refunding'),
                ],
                {
                  description:
                    '`ignored` when the registration was already settled; `refunding` when nothing keeps the payment (its membership ended before it was paid), so it is being refunded in full.',
                },
              ),
            }),
            'What the paid notification did to the booking.',
          ),
          404: E,
        },
      },
    },
    async (req) => {
      const { payment, result } = await notifyOrderPaid(deps, keyPrincipal(req).userId, req.params.orderId);
      return { success: true as const, paymentId: payment.id, result };
    },
  );
