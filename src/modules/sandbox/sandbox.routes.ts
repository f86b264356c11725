// Sandbox routes (product-decisions §3): test keys play the buyer and the gateway.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { keyPrincipal } from '../../shared/auth.js';
import { notFound } from '../../shared/errors.js';
import { SandboxGateway, SandboxSubscriptions } from '../payments/sandbox.js';
import { confirmFromGateway } from '../registrations/register.service.js';
import * as memberships from '../memberships/memberships.service.js';

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
        // The order is a ticket's or a fixed-term membership's.
        let result = await confirmFromGateway(deps.registerDeps, 'test', req.params.orderId, payment);
        if (result === 'ignored') result = await memberships.confirmFromGateway(deps.membershipDeps, 'test', req.params.orderId, payment);
        return { success: true as const, paymentId: payment.id, result };
      },
    );

    const sandboxEvents = { authenticate: 'authenticated', charge: 'charged', halt: 'halted', cancel: 'cancelled' } as const;
    app.post(
      '/api/v1/sandbox/subscriptions/:subscriptionId/:action',
      {
        config: { auth: { kind: 'key', classes: ['full', 'checkout'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Act as the gateway’s subscription events',
          description:
            '`authenticate`: the member approved the mandate (`subscription.authenticated`; the organiser’s webhook fires when subscribed to it). `charge`: a period was paid (`subscription.charged`; validUntil moves one period on from the later of now and the current end). `halt`: retries exhausted (`subscription.halted`; not in good standing). `cancel`: the gateway cancelled it (`subscription.cancelled`; ended). Uses this account’s test clock.',
          params: Type.Object({
            subscriptionId: Type.String({ maxLength: 100 }),
            action: Type.Union([Type.Literal('authenticate'), Type.Literal('charge'), Type.Literal('halt'), Type.Literal('cancel')]),
          }),
          response: { 200: Type.Object({ success: Type.Literal(true), result: Type.Union([Type.Literal('applied'), Type.Literal('ignored')]) }), 404: E },
        },
      },
      async (req) => {
        const p = keyPrincipal(req);
        const subs = new SandboxSubscriptions(deps, p.userId, deps.config.baseUrl);
        if (!(await subs.owns(req.params.subscriptionId))) throw notFound('no such sandbox subscription on this account', 'subscription_not_found');
        const event = sandboxEvents[req.params.action];
        const result = await memberships.applySubscriptionEvent(deps.membershipDeps, 'test', req.params.subscriptionId, event);
        if (result === 'applied') await subs.setStatus(req.params.subscriptionId, event === 'charged' ? 'active' : event);
        deps.jobs.kick();
        return { success: true as const, result };
      },
    );

    app.post(
      '/api/v1/sandbox/clock',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Move this account’s test-mode clock forward',
          description: 'Affects test-mode memberships: standing, expiry, renewal windows and the periods sandbox charges add. Cumulative; DELETE puts it back to now.',
          body: Type.Object({ advanceDays: Type.Number({ exclusiveMinimum: 0, maximum: 3650 }) }, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), now: Type.String({ format: 'date-time' }), offsetDays: Type.Number() }) },
        },
      },
      async (req) => {
        const p = keyPrincipal(req);
        const add = Math.round(req.body.advanceDays * 86_400_000);
        await deps.db
          .insertInto('sandbox_clocks')
          .values({ account_id: p.userId, offset_ms: add })
          .onConflict((oc) => oc.column('account_id').doUpdateSet({ offset_ms: (eb) => eb('sandbox_clocks.offset_ms', '+', add) }))
          .execute();
        const now = await memberships.nowFor(deps, p.userId, 'test');
        return { success: true as const, now: now.toISOString(), offsetDays: (now.getTime() - deps.clock.now().getTime()) / 86_400_000 };
      },
    );

    app.delete(
      '/api/v1/sandbox/clock',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Put this account’s test-mode clock back to now',
          response: { 200: Type.Object({ success: Type.Literal(true), now: Type.String({ format: 'date-time' }), offsetDays: Type.Number() }) },
        },
      },
      async (req) => {
        await deps.db.deleteFrom('sandbox_clocks').where('account_id', '=', keyPrincipal(req).userId).execute();
        return { success: true as const, now: deps.clock.now().toISOString(), offsetDays: 0 };
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
