// Sandbox routes: test keys play the buyer and the gateway, move their account's test
// clock and read the mails test mode kept. Live keys get 403.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { keyPrincipal } from '../../http/auth.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';
import { notifyOrderPaid, payOrder, playSubscriptionEvent, type SandboxPlayDeps } from './checkout.service.js';
import { advanceClock, resetClock } from '../accounts/account-clock.js';
import { pageKeptEmails } from '../mail/sandbox-mail.js';

const E = Type.Ref('Error');
const TestClock = Type.Object({ success: Type.Literal(true), now: Type.String({ format: 'date-time' }), offsetDays: Type.Number() });
const present = (c: { now: Date; offsetDays: number }) => ({ success: true as const, now: c.now.toISOString(), offsetDays: c.offsetDays });

export const sandboxRoutes =
  (deps: SandboxPlayDeps): FastifyPluginAsyncTypebox =>
  async (app) => {

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
        const payment = await payOrder(deps, keyPrincipal(req).userId, req.body.orderId, req.body.outcome);
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
              result: Type.Union([Type.Literal('confirmed'), Type.Literal('ignored'), Type.Literal('sold_out'), Type.Literal('refunding')], {
                description: '`ignored` when the registration was already settled; `refunding` when nothing keeps the payment (its membership ended before it was paid), so it is being refunded in full.',
              }),
            }),
            404: E,
          },
        },
      },
      async (req) => {
        const { payment, result } = await notifyOrderPaid(deps, keyPrincipal(req).userId, req.params.orderId);
        return { success: true as const, paymentId: payment.id, result };
      },
    );

    // The buyer approves the mandate from the checkout (a checkout key may do that much); the
    // gateway's own events — a charge, a halt, a cancellation — are the organiser's to play.
    const SubscriptionResult = { 200: Type.Object({ success: Type.Literal(true), result: Type.Union([Type.Literal('applied'), Type.Literal('ignored')]) }), 404: E };
    app.post(
      '/api/v1/sandbox/subscriptions/:subscriptionId/authenticate',
      {
        config: { auth: { kind: 'key', classes: ['full', 'checkout'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Act as the member approving the mandate (the sandbox’s authorisation link)',
          description:
            '`subscription.authenticated`: the member approved the mandate; the organiser’s webhook fires when subscribed to it. A checkout key may call this (it is the buyer’s step); charge, halt and cancel need a full key.',
          params: Type.Object({ subscriptionId: Type.String({ maxLength: 100 }) }),
          response: SubscriptionResult,
        },
      },
      async (req) => {
        const result = await playSubscriptionEvent(deps, keyPrincipal(req).userId, req.params.subscriptionId, 'authenticate');
        return { success: true as const, result };
      },
    );

    app.post(
      '/api/v1/sandbox/subscriptions/:subscriptionId/:action',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Act as the gateway’s subscription events',
          description:
            'Full keys only: a checkout key sits in web pages, and must not charge or end a member’s subscription (403 `checkout_key_not_allowed`). `charge`: a period was paid (`subscription.charged`; validUntil moves one period on from the later of now and the current end). `halt`: retries exhausted (`subscription.halted`; not in good standing). `cancel`: the gateway cancelled it (`subscription.cancelled`; ended). Uses this account’s test clock. `authenticate` is its own operation.',
          params: Type.Object({
            subscriptionId: Type.String({ maxLength: 100 }),
            action: Type.Union([Type.Literal('charge'), Type.Literal('halt'), Type.Literal('cancel')]),
          }),
          response: SubscriptionResult,
        },
      },
      async (req) => {
        const result = await playSubscriptionEvent(deps, keyPrincipal(req).userId, req.params.subscriptionId, req.params.action);
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
          description:
            'Every time rule of test mode runs on this clock: memberships (standing, expiry, renewal windows and the periods sandbox charges add), ledger clearing, waitlist offers (one past its expiry lapses and its seat passes to the next in line at the lapse sweep, every minute), unpaid bookings (expired past `CHECKOUT_WINDOW_MINUTES` at the next reconciliation sweep) and the attendee page’s self-service cutoff. Times test mode records (an offer’s expiry, an order’s check time) are on this clock. Cumulative; DELETE puts it back to now.',
          body: Type.Object({ advanceDays: Type.Number({ exclusiveMinimum: 0, maximum: 3650 }) }, { additionalProperties: false }),
          response: { 200: TestClock },
        },
      },
      async (req) => present(await advanceClock(deps, keyPrincipal(req).userId, req.body.advanceDays)),
    );

    app.delete(
      '/api/v1/sandbox/clock',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Put this account’s test-mode clock back to now',
          response: { 200: TestClock },
        },
      },
      async (req) => present(await resetClock(deps, keyPrincipal(req).userId)),
    );

    app.get(
      '/api/v1/sandbox/emails',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'The mails test mode would have sent, newest first',
          description:
            'Ticket mails (attachments `ticket-<id>.png` and `event.ics`), membership confirmations and payment-received mails, broadcasts. In pages: `limit` (default 100, at most 1,000), then `startingAfter=<nextCursor>` while `hasMore`; `count` is the total kept. Kept mails are pruned after 30 days.',
          querystring: Type.Object(
            { limit: PageQuery.limit, startingAfter: Type.Optional(Type.String({ maxLength: 600, description: 'The `nextCursor` of the previous page.' })) },
            { additionalProperties: false },
          ),
          response: {
            400: E,
            200: Type.Object({
              success: Type.Literal(true),
              count: Type.Integer({ description: 'The total number of kept mails (all pages).' }),
              ...PageFields,
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
            }),
          },
        },
      },
      async (req) => {
        const page = await pageKeptEmails(deps.db, keyPrincipal(req).userId, { limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        return { success: true as const, data: page.items, count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );
  };
