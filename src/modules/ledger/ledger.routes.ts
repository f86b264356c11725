// The session's balance and ledger, and the staff recomputation check.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { sessionPrincipal } from '../../http/auth.js';
import { paiseToRupees } from '../../lib/money.js';
import * as ledger from './ledger.service.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';
import { ModeQuery } from './paging.js';

const Mode = Type.Union([Type.Literal('test'), Type.Literal('live')]);

export const LEDGER_DESCRIPTION =
  'Balances are sums of ledger entries, never a stored number. A paid booking writes `ticket_sale` (gross), `platform_fee` and `gateway_fee` (both negative, at the fee rates of the booking; none in test mode); a membership payment writes `membership_payment` (gross) and, in live mode, `gateway_fee` (3 %; no platform fee on memberships). A full refund (cancel or refund of a paid booking) writes `ticket_refund` (minus the gross) and `platform_fee_reversal` (the platform fee back); the gateway charge is not given back because Razorpay keeps it. A payout writes `payout_hold` when requested and `payout_credit` if it fails, is cancelled or is reversed. Sale, fee and refund entries are pending until `PAYOUT_CLEARING_DAYS` working days (Monday to Friday, India time, holidays not modelled) after the payment’s capture, then available; a refund of money still pending comes out of pending. Payout entries count at once.';

const Entry = Type.Object({
  id: Type.String(),
  kind: Type.Union([
    Type.Literal('ticket_sale'),
    Type.Literal('platform_fee'),
    Type.Literal('gateway_fee'),
    Type.Literal('ticket_refund'),
    Type.Literal('platform_fee_reversal'),
    Type.Literal('membership_payment'),
    Type.Literal('payout_hold'),
    Type.Literal('payout_credit'),
  ]),
  amount: Type.Number({ description: 'Rupees; positive credits the organiser, negative debits.' }),
  source: Type.Object({
    type: Type.Union([Type.Literal('registration'), Type.Literal('membership'), Type.Literal('payout')]),
    id: Type.String({ description: 'The registration, membership or payout id.' }),
    paymentId: Type.Union([Type.String(), Type.Null()], { description: 'For a membership payment, the gateway payment it came with.' }),
  }),
  capturedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Capture of the payment this entry belongs to; null for payout entries.' }),
  availableFrom: Type.String({ format: 'date-time', description: 'When the entry counts as available rather than pending.' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const ledgerRoutes =
  (deps: { db: Kysely<Database>; payoutDeps: ledger.LedgerDeps }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const session = { auth: { kind: 'session' } } as const;

    app.get(
      '/dashboard/api/balance',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: "The session account's balance: available and pending, in rupees",
          description: `${LEDGER_DESCRIPTION} \`available\` may be below zero after a refund of money already paid out; no payout is possible until it is positive again.`,
          querystring: Type.Object({ mode: ModeQuery }, { additionalProperties: false }),
          response: {
            200: Type.Object({
              available: Type.Number({ description: 'Rupees that may be paid out now.' }),
              pending: Type.Number({ description: 'Rupees of net proceeds not cleared yet.' }),
              currency: Type.Literal('INR'),
              mode: Mode,
            }),
          },
        },
      },
      async (req) => {
        const mode = req.query.mode ?? 'live';
        const b = await ledger.balance(deps.payoutDeps, deps.db, sessionPrincipal(req).userId, mode);
        return { available: paiseToRupees(b.availablePaise), pending: paiseToRupees(b.pendingPaise), currency: 'INR' as const, mode };
      },
    );

    app.get(
      '/dashboard/api/ledger',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: "The session account's ledger entries, newest first, a page at a time",
          description: LEDGER_DESCRIPTION,
          querystring: Type.Object({ mode: ModeQuery, ...PageQuery }, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Entry), ...PageFields }) },
        },
      },
      async (req) => {
        const page = await ledger.listEntries(deps.payoutDeps, sessionPrincipal(req).userId, req.query.mode ?? 'live', parseLimit(req.query.limit), req.query.startingAfter);
        return {
          success: true as const,
          data: page.items.map((e) => ({
            id: e.id,
            kind: e.kind,
            amount: paiseToRupees(e.amountPaise),
            source: { type: e.sourceType, id: e.sourceId, paymentId: e.sourceType === 'membership' ? e.ref : null },
            capturedAt: e.capturedAt?.toISOString() ?? null,
            availableFrom: (e.availableFrom ?? e.createdAt).toISOString(),
            createdAt: e.createdAt.toISOString(),
          })),
          hasMore: page.hasMore,
          nextCursor: page.nextCursor,
        };
      },
    );

    app.get(
      '/admin/api/ledger/check',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Recompute every account’s money from registrations, refunds and payouts and compare it with the ledger',
          description:
            'Per account, mode and source: the net of confirmed paid bookings (gross less fees, and less the refund plus the fee reversal when refunded) and of payouts (minus each hold, plus its credit when failed, cancelled or reversed) must equal the ledger’s sum; every membership’s last payment must have its entry. The entries of a deleted event’s registrations (deletion refunds paid bookings first) count as recorded, having no row left to recompute them from. `ok` is true when nothing differs.',
          querystring: Type.Object({ accountId: Type.Optional(Type.String({ maxLength: 100, description: 'Check one account only.' })) }, { additionalProperties: false }),
          response: {
            200: Type.Object({
              ok: Type.Boolean(),
              accountsChecked: Type.Integer(),
              mismatches: Type.Array(
                Type.Object({
                  accountId: Type.String(),
                  mode: Mode,
                  source: Type.Union([Type.Literal('registration'), Type.Literal('membership'), Type.Literal('payout')]),
                  expected: Type.Number({ description: 'Rupees recomputed from the source rows.' }),
                  ledger: Type.Number({ description: 'Rupees in the ledger.' }),
                  detail: Type.Optional(Type.String()),
                }),
              ),
            }),
          },
        },
      },
      async (req) => {
        const r = await ledger.checkLedger(deps.db, req.query.accountId);
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
  };
