// The API's schemas for an event's sale opening and waiting room (docs/decisions/26-a-fair-waiting-room.md).
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';

const PER_BUYER =
  'Tickets one buyer (per email and per phone) may hold across the event’s confirmed and pending bookings, this one included; null: no cap (the default). A booking beyond it, whichever way it is made, answers 409 `per_buyer_limit_reached` (docs/decisions/26-a-fair-waiting-room.md).';

export const OnSaleInput = Type.Object(
  {
    opensAt: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 40,
          description:
            'When the sale opens: a date-time with offset (answered in UTC). Before it, buyers who join the waiting room wait in the pre-queue, which is shuffled at the opening. null: the sale is open now.',
        }),
      ),
    ),
    waitingRoom: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({
              description:
                'Turn the waiting room on (default false): the hosted page then books only with an admission token (403 `admission_required`). The hosted page has no waiting screen yet (docs/decisions/26-a-fair-waiting-room.md): switch it on only with a page of your own that drives the queue routes.',
            }),
          ),
          admitPerMinute: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 100_000,
              description: 'Buyers let in per minute from the head of the queue (default 120).',
            }),
          ),
          sessionMinutes: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 120,
              description: 'How long an admitted buyer’s admission token lets them book (default 10).',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    perBuyerLimit: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 100, description: PER_BUYER })),
    ),
  },
  {
    additionalProperties: false,
    description:
      'When the sale opens and how its waiting room admits buyers (docs/decisions/26-a-fair-waiting-room.md). Fields left out keep their value; 400 `invalid_on_sale` (with `field`) when one is out of range.',
  },
);

export const OnSale = Type.Object({
  opensAt: Nullable(Type.String({ format: 'date-time' })),
  waitingRoom: Type.Object({
    enabled: Type.Boolean(),
    admitPerMinute: Type.Integer(),
    sessionMinutes: Type.Integer(),
  }),
  perBuyerLimit: Nullable(Type.Integer({ description: PER_BUYER })),
});
