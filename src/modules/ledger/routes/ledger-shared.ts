// What the ledger operations share: the deps type, schemas and helpers of routes/.
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import * as ledger from '../ledger.service.js';

/** What the ledger operations need. */
export type LedgerRouteDeps = { db: Kysely<Database>; payoutDeps: ledger.LedgerDeps };

export const Mode = Type.Union([Type.Literal('test'), Type.Literal('live')]);

export const LEDGER_DESCRIPTION =
  'Balances are sums of ledger entries, never a stored number. A paid booking writes `ticket_sale` (gross), `platform_fee` and `gateway_fee` (both negative, at the fee rates of the booking; none in test mode); a membership payment writes `membership_payment` (gross) and, in live mode, `gateway_fee` (3 %; no platform fee on memberships). A full refund (cancel or refund of a paid booking) writes `ticket_refund` (minus the gross) and `platform_fee_reversal` (the platform fee back); the gateway charge is not given back because Razorpay keeps it. A payout writes `payout_hold` when requested and `payout_credit` if it fails, is cancelled or is reversed. Sale, fee and refund entries are pending until `PAYOUT_CLEARING_DAYS` working days (Monday to Friday, India time, holidays not modelled) after the payment’s capture, then available; a refund of money still pending comes out of pending. Payout entries count at once. A booking paid outside the gateway (docs/decisions/24-payment-outside-the-gateway.md) writes `offline_sale` (gross; the organiser holds that money, so it is never payable and never in `available` or `pending`) and `platform_fee` against the balance at once (no gateway charge), which may take `available` below zero; its offline refund writes `offline_refund` (never payable either) and `platform_fee_reversal`.';

export const Entry = Type.Object({
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
    Type.Literal('offline_sale'),
    Type.Literal('offline_refund'),
  ]),
  amount: Type.Number({ description: 'Rupees; positive credits the organiser, negative debits.' }),
  source: Type.Object({
    type: Type.Union([Type.Literal('registration'), Type.Literal('membership'), Type.Literal('payout')]),
    id: Type.String({ description: 'The registration, membership or payout id.' }),
    paymentId: Type.Union([Type.String(), Type.Null()], {
      description: 'For a membership payment, the gateway payment it came with.',
    }),
  }),
  capturedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Capture of the payment this entry belongs to; null for payout entries.',
  }),
  availableFrom: Type.String({
    format: 'date-time',
    description: 'When the entry counts as available rather than pending.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const session = { auth: { kind: 'session' } } as const;
