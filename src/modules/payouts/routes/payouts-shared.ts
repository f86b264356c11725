// What the payouts operations share: the deps type, schemas and helpers of routes/.
import { Type } from 'typebox';
import type { PayoutDeps } from '../payouts.service.js';
import { paiseToRupees } from '../../../lib/money.js';
import * as payouts from '../payouts.service.js';

/** What the payouts operations need. */
export type PayoutsRouteDeps = { payoutDeps: PayoutDeps };

export const Payout = Type.Object({
  id: Type.String({ description: 'Our payout id; also the idempotency key and reference_id at RazorpayX.' }),
  amount: Type.Number({ description: 'Rupees.' }),
  currency: Type.Literal('INR'),
  upiId: Type.String(),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  status: Type.Union(
    [
      Type.Literal('processing'),
      Type.Literal('processed'),
      Type.Literal('failed'),
      Type.Literal('cancelled'),
      Type.Literal('reversed'),
    ],
    {
      description:
        '`processing` until the gateway settles it; `processed` (UTR set), `failed`, `cancelled` or `reversed` (may follow processed). failed, cancelled and reversed credit the amount back to the balance.',
    },
  ),
  utr: Type.Union([Type.String(), Type.Null()], { description: 'The bank’s reference once processed.' }),
  failureReason: Type.Union([Type.String(), Type.Null()]),
  expectedBy: Type.String({
    format: 'date-time',
    description: 'Two working days (Monday to Friday, India time) after the request.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export function present(p: payouts.PayoutRow) {
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

export const session = { auth: { kind: 'session' } } as const;
