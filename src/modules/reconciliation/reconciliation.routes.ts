// Staff views of reconciliation: the orders it watches and a sweep on demand.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, parseLimit } from '../../http/paging.js';
import { conflict } from '../../lib/errors.js';
import { listOrderChecks, sweep, type ReconcileDeps } from './reconcile.service.js';

const SweepSummary = Type.Object({
  checked: Type.Integer({ description: 'orders asked about' }),
  confirmed: Type.Integer({ description: 'bookings or membership periods confirmed by the sweep' }),
  captured: Type.Integer({ description: 'authorised payments captured for a booking or membership still waiting' }),
  refunded: Type.Integer({ description: 'payments refunded because nothing here expects them' }),
  expired: Type.Integer({ description: 'bookings unpaid CHECKOUT_WINDOW_MINUTES after step 1, cancelled (their promo code uses released)' }),
  endedRefunded: Type.Integer({ description: 'confirmed bookings whose payment the gateway had refunded (in its own dashboard), ended as refunded with seats freed' }),
  claimsFinished: Type.Integer({ description: 'refunds claimed and left refunding by a crash or an unanswered gateway, asked again with their own idempotency key and completed' }),
  orphansFound: Type.Integer({ description: 'orders whose create answer was lost, found by receipt' }),
  settled: Type.Integer({ description: 'orders whose money has ended in one place' }),
  errors: Type.Integer({ description: 'orders the gateway could not be asked about; asked again later' }),
});

const OrderCheck = Type.Object({
  receipt: Type.String({ description: 'our id sent as the order receipt (a registration id, or a membership order receipt)' }),
  kind: Type.Union([Type.Literal('registration'), Type.Literal('membership')]),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  accountId: Type.String(),
  amount: Type.Integer({ description: 'paise' }),
  currency: Type.String(),
  orderId: Type.Union([Type.String(), Type.Null()], { description: 'null until the gateway answered the create (or the sweep found it by receipt)' }),
  paymentId: Type.Union([Type.String(), Type.Null()], { description: 'the payment a membership period was confirmed with' }),
  status: Type.Union([Type.Literal('open'), Type.Literal('settled')]),
  outcome: Type.Union([Type.String(), Type.Null()], { description: 'confirmed, cancelled, refunded, expired, unpaid, orphaned, orphan_refunded, no_order, refund_pending, …' }),
  checks: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  checkAfter: Type.String({ format: 'date-time' }),
  settledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const reconciliationRoutes =
  (deps: ReconcileDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/admin/api/reconciliation/orders',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Gateway orders the reconciliation job watches',
          description:
            'Every gateway order the service creates is recorded before the create call and watched until its money has ended in one place: a confirmed booking or membership period, or a full refund. Oldest first; `status=open` lists those still watched.',
          querystring: Type.Object(
            {
              status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('settled')])),
              receipt: Type.Optional(Type.String({ maxLength: 64 })),
              limit: PageQuery.limit,
              startingAfter: Type.Optional(Type.String({ maxLength: 64, description: 'nextCursor of the previous page' })),
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ data: Type.Array(OrderCheck), hasMore: Type.Boolean(), nextCursor: Type.Union([Type.String(), Type.Null()]) }) },
        },
      },
      async (req) => listOrderChecks(deps.db, { status: req.query.status, receipt: req.query.receipt, limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter }),
    );

    app.post(
      '/admin/api/reconciliation/sweep',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Run the reconciliation sweep now',
          description:
            'What the workers do on start and every RECONCILE_EVERY_SECONDS: each order unpaid longer than RECONCILE_AFTER_MINUTES is looked up at the gateway and confirmed or refunded. 409 `sweep_in_progress` while another instance sweeps.',
          response: { 200: Type.Object({ success: Type.Literal(true), data: SweepSummary }), 409: Type.Ref('Error') },
        },
      },
      async (req) => {
        const { ran, ...summary } = await sweep(deps);
        if (!ran) throw conflict('sweep_in_progress', 'another instance is sweeping now; try again in a few minutes');
        req.log.info({ staff: req.principal?.userId, reconcile: summary }, 'reconciliation sweep on demand');
        return { success: true as const, data: summary };
      },
    );
  };
