// Payouts to UPI for the session's account, the sandbox routes that settle test-mode
// payouts, and the staff sweep of payouts stuck in processing.
import { actorOfSession } from '../audit/audit.service.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { PayoutDeps } from './payouts.service.js';
import { keyPrincipal, sessionPrincipal } from '../../http/auth.js';
import { paiseToRupees } from '../../lib/money.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';
import { ModeQuery } from '../ledger/paging.js';
import * as payouts from './payouts.service.js';
import { UPI_ID_MAX } from './upi.js';

const Payout = Type.Object({
  id: Type.String({ description: 'Our payout id; also the idempotency key and reference_id at RazorpayX.' }),
  amount: Type.Number({ description: 'Rupees.' }),
  currency: Type.Literal('INR'),
  upiId: Type.String(),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  status: Type.Union([Type.Literal('processing'), Type.Literal('processed'), Type.Literal('failed'), Type.Literal('cancelled'), Type.Literal('reversed')], {
    description: '`processing` until the gateway settles it; `processed` (UTR set), `failed`, `cancelled` or `reversed` (may follow processed). failed, cancelled and reversed credit the amount back to the balance.',
  }),
  utr: Type.Union([Type.String(), Type.Null()], { description: 'The bank’s reference once processed.' }),
  failureReason: Type.Union([Type.String(), Type.Null()]),
  expectedBy: Type.String({ format: 'date-time', description: 'Two working days (Monday to Friday, India time) after the request.' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

function present(p: payouts.PayoutRow) {
  return {
    id: p.id,
    amount: paiseToRupees(Number(p.amount_paise)),
    currency: 'INR' as const,
    upiId: p.upi_id,
    mode: p.mode,
    status: p.status,
    utr: p.utr,
    failureReason: p.failure_reason,
    expectedBy: p.expected_by.toISOString(),
    createdAt: p.created_at.toISOString(),
    updatedAt: p.updated_at.toISOString(),
  };
}

export const payoutsRoutes =
  (deps: { payoutDeps: PayoutDeps }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const session = { auth: { kind: 'session' } } as const;

    app.post(
      '/dashboard/api/payouts',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: 'Withdraw available balance to a UPI id',
          description:
            'Live mode (default): needs a verified email (403 `email_unverified`) and RazorpayX configured (503 `payouts_not_configured`); pays through RazorpayX to a `vpa` fund account with `mode: UPI`. `?mode=test` pays out of the sandbox ledger through the sandbox payout gateway (no money moves; settle it with `POST /api/v1/sandbox/payouts/{payoutId}/{process|fail|reverse|cancel}`). `amount` is rupees with at most two decimals, at least 100 (400 `amount_below_minimum`) and at most the available balance (409 `insufficient_balance`, also while the balance is below zero after refunds). The amount is held in the ledger in the same transaction that creates the payout; requests of one account are serialised, so concurrent requests never withdraw more than available.',
          querystring: Type.Object({ mode: ModeQuery }, { additionalProperties: false }),
          body: Type.Object(
            {
              amount: Type.Number({ minimum: 0, description: 'Rupees, at least 100, at most two decimals.' }),
              upiId: Type.String({ maxLength: UPI_ID_MAX, description: 'UPI id `name@handle`: letters, digits, "." and "-", one "@".' }),
            },
            { additionalProperties: false },
          ),
          response: { 201: Payout, 403: Type.Ref('Error'), 409: Type.Ref('Error'), 503: Type.Ref('Error') },
        },
      },
      async (req, reply) => {
        const p = await payouts.requestPayout(deps.payoutDeps, sessionPrincipal(req).userId, req.query.mode ?? 'live', req.body, actorOfSession(sessionPrincipal(req)));
        req.log.info({ payoutId: p.id, mode: p.mode, amountPaise: Number(p.amount_paise) }, 'payout requested');
        return reply.code(201).send(present(p));
      },
    );

    app.get(
      '/dashboard/api/payouts',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: "The session account's payouts, newest first, a page at a time",
          querystring: Type.Object({ mode: ModeQuery, ...PageQuery }, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Payout), ...PageFields }) },
        },
      },
      async (req) => {
        const page = await payouts.listPayouts(deps.payoutDeps, sessionPrincipal(req).userId, req.query.mode ?? 'live', parseLimit(req.query.limit), req.query.startingAfter);
        return { success: true as const, data: page.items.map(present), hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );

    app.get(
      '/dashboard/api/payouts/:payoutId',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: 'One payout of the session account',
          params: Type.Object({ payoutId: Type.String({ maxLength: 100 }) }),
          querystring: Type.Object({ mode: ModeQuery }, { additionalProperties: false }),
          response: { 200: Payout, 404: Type.Ref('Error') },
        },
      },
      async (req) => present(await payouts.getPayout(deps.payoutDeps, sessionPrincipal(req).userId, req.query.mode ?? 'live', req.params.payoutId)),
    );

    app.post(
      '/api/v1/sandbox/payouts/:payoutId/:outcome',
      {
        config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] } },
        schema: {
          tags: ['sandbox'],
          summary: 'Settle a test-mode payout as the gateway would',
          description:
            '`process`: paid, with a sandbox UTR. `fail` / `cancel`: not paid; the amount is credited back. `reverse`: the bank returned it (also after `process`); the amount is credited back. Any other move answers 409 `invalid_payout_transition`. A live payout is not visible here (404).',
          params: Type.Object({
            payoutId: Type.String({ maxLength: 100 }),
            outcome: Type.Union([Type.Literal('process'), Type.Literal('fail'), Type.Literal('reverse'), Type.Literal('cancel')]),
          }),
          response: { 200: Payout, 404: Type.Ref('Error'), 409: Type.Ref('Error') },
        },
      },
      async (req) => present(await payouts.settleSandboxPayout(deps.payoutDeps, keyPrincipal(req), req.params.payoutId, req.params.outcome)),
    );

    app.post(
      '/admin/api/payouts/sweep',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Read live payouts stuck in processing back from RazorpayX now',
          description: `The same sweep runs every five minutes on worker instances: payouts processing for more than ${payouts.STUCK_AFTER_MS / 60_000} minutes are fetched from RazorpayX and their state applied.`,
          response: { 200: Type.Object({ checked: Type.Integer(), changed: Type.Integer() }) },
        },
      },
      async () => payouts.sweepStuckPayouts(deps.payoutDeps),
    );
  };
