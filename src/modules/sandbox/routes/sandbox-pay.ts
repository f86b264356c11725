import { Type } from 'typebox';
import { keyPrincipal } from '../../../http/auth.js';
import { payOrder } from '../checkout.service.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { SandboxRouteDeps, E } from './sandbox-shared.js';

const examples: OperationExamples = {
  requests: { default: { value: { orderId: EX.orderId, outcome: 'success' } } },
  responses: { '201': { success: true, paymentId: EX.paymentId, status: 'captured' } },
};

export const sandboxPay: Operation<SandboxRouteDeps> = (app, deps) =>
  app.post(
    '/api/v1/sandbox/payments',
    {
      config: { auth: { kind: 'key', classes: ['full', 'checkout'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxPay',
        tags: ['sandbox'],
        summary: 'Pay (or fail to pay) a sandbox order, as the gateway’s hosted checkout would',
        description:
          'Test keys only (a live key gets 403). `success` makes a captured payment; `failure` a failed one. Then call register step 2 with the paymentId.',
        body: Type.Object(
          {
            orderId: Type.String({ maxLength: 100 }),
            outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(
            Type.Object({ success: Type.Literal(true), paymentId: Type.String(), status: Type.String() }),
            'The sandbox payment, captured or failed.',
          ),
          404: E,
        },
      },
    },
    async (req, reply) => {
      const payment = await payOrder(deps, keyPrincipal(req).userId, req.body.orderId, req.body.outcome);
      return reply.code(201).send({ success: true as const, paymentId: payment.id, status: payment.status });
    },
  );
