// The API's schemas for an event's payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md).
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';

const Method = Type.Union(
  [Type.Literal('bank_transfer'), Type.Literal('upi_to_organiser'), Type.Literal('cash_at_venue')],
  {
    description:
      '`bank_transfer` (NEFT/IMPS/RTGS to the account in `instructions`), `upi_to_organiser` (a UPI payment to `upiId`; the mail carries a `upi://pay` link and its QR), `cash_at_venue`.',
  },
);

export const OfflinePaymentInput = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({ description: 'Offer these methods beside the gateway (default false).' }),
    ),
    methods: Type.Optional(Type.Array(Method, { maxItems: 3, description: 'At least one when enabled.' })),
    instructions: Type.Optional(
      Type.String({
        maxLength: 2_000,
        description:
          'How to pay (bank account, IFSC, where to pay cash), shown and mailed with the reference.',
      }),
    ),
    payWithinDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 30,
        description:
          'Days from booking until `payBy` (default 3); an unpaid booking is cancelled then and its seats freed.',
      }),
    ),
    upiId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 100,
          description:
            'The organiser’s UPI id (name@bank) that `upi_to_organiser` pays; required with that method (400 `invalid_offline_payment`). Kept on the event: payouts take their UPI id per request, so the account holds none to reuse.',
        }),
      ),
    ),
    upiName: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 100,
          description: 'The payee name UPI apps show (null: the event’s title).',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Payment outside the gateway. Register with `paymentMethod` set to one of `methods`: the booking is `pending` with `awaitingPayment { method, reference, payBy }` until the organiser marks it paid (`POST /api/v1/events/{id}/registrations/{registrationId}/mark-paid`). Fields left out keep their value; 400 `invalid_offline_payment` when the settings do not hold together.',
  },
);

export const OfflinePayment = Type.Object({
  enabled: Type.Boolean(),
  methods: Type.Array(Type.String()),
  instructions: Type.String(),
  payWithinDays: Type.Integer(),
  upiId: Nullable(Type.String()),
  upiName: Nullable(Type.String()),
});
