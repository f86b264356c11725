// Sandbox routes (product-decisions §3): test keys play the buyer and the gateway.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { keyPrincipal } from '../../shared/auth.js';
import { notFound } from '../../shared/errors.js';
import { SandboxGateway } from '../payments/sandbox.js';
import { confirmFromGateway } from '../registrations/register.service.js';

const E = Type.Ref('Error');

export const sandboxRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const gateway = (accountId: string) => new SandboxGateway(deps, accountId);

    app.post(
      '/api/v1/sandbox/payments',
      {
        config: { auth: { kind: 'key', classes: ['full', 'checkout'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Pay (or fail to pay) a sandbox order, as the gateway’s hosted checkout would',
          description: 'Test keys only (a live key gets 403). `success` makes a captured payment; `failure` a failed one. Then call register step 2 with the paymentId.',
          body: Type.Object(
            { orderId: Type.String({ maxLength: 100 }), outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]) },
            { additionalProperties: false },
          ),
          response: {
            201: Type.Object({ success: Type.Literal(true), paymentId: Type.String(), status: Type.String() }),
            404: E,
          },
        },
      },
      async (req, reply) => {
        const payment = await gateway(keyPrincipal(req).userId).pay(req.body.orderId, req.body.outcome);
        if (!payment) throw notFound('no such sandbox order on this account', 'order_not_found');
        return reply.code(201).send({ success: true as const, paymentId: payment.id, status: payment.status });
      },
    );

    app.post(
      '/api/v1/sandbox/orders/:orderId/paid',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Act as the gateway’s paid notification for an order (the buyer closed the browser)',
          description: 'Pays the order if it has no captured payment yet, then confirms its pending registration exactly as the gateway’s `order.paid` notification does. Repeats change nothing.',
          params: Type.Object({ orderId: Type.String({ maxLength: 100 }) }),
          response: {
            200: Type.Object({
              success: Type.Literal(true),
              paymentId: Type.String(),
              result: Type.Union([Type.Literal('confirmed'), Type.Literal('ignored'), Type.Literal('sold_out')], {
                description: '`ignored` when the registration was already settled.',
              }),
            }),
            404: E,
          },
        },
      },
      async (req) => {
        const g = gateway(keyPrincipal(req).userId);
        const payment = (await g.capturedPaymentFor(req.params.orderId)) ?? (await g.pay(req.params.orderId, 'success'));
        if (!payment) throw notFound('no such sandbox order on this account', 'order_not_found');
        const result = await confirmFromGateway(deps.registerDeps, 'test', req.params.orderId, payment);
        return { success: true as const, paymentId: payment.id, result };
      },
    );

    app.get(
      '/api/v1/sandbox/emails',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'The mails test mode would have sent, newest first',
          description: 'At most the newest 200.',
          response: {
            200: Type.Object({
              success: Type.Literal(true),
              data: Type.Array(
                Type.Object({
                  id: Type.String(),
                  to: Type.Array(Type.String()),
                  subject: Type.String(),
                  text: Type.String(),
                  attachments: Type.Array(Type.String(), { description: 'File names.' }),
                  createdAt: Type.String({ format: 'date-time' }),
                }),
              ),
              count: Type.Integer(),
            }),
          },
        },
      },
      async (req) => {
        const rows = await deps.db
          .selectFrom('sandbox_emails')
          .selectAll()
          .where('account_id', '=', keyPrincipal(req).userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(200)
          .execute();
        const data = rows.map((r) => ({ id: r.id, to: r.recipients, subject: r.subject, text: r.text, attachments: r.attachments, createdAt: r.created_at.toISOString() }));
        return { success: true as const, data, count: data.length };
      },
    );
  };
