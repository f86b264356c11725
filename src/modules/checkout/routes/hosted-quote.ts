// The hosted page's order summary: what a choice costs before it is booked.
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { quoteBooking } from '../../registrations/quote.service.js';
import * as service from '../checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';
import { Paise } from './ticket-token.js';

const examples: OperationExamples = {
  requests: {
    default: { value: { key: EX.checkoutKey, quantity: 2, ticketType: 'Student', promoCode: 'EARLYBIRD' } },
  },
  responses: {
    '200': { currency: 'INR', quantity: 2, unitPrice: 19900, subtotal: 39800, discount: 7960, total: 31840 },
  },
};

export const hostedQuote: Operation<CheckoutContext> = (app, { deps }) =>
  app.post(
    '/e/:slug/quote',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedQuote',
        tags: ['checkout'],
        summary: 'The order summary: what a choice on the hosted page costs',
        description: [
          'Prices a booking without making it, with the rules of register: the tier’s price wins over the track’s, and the track’s over the event’s; times the people (1 plus the team members); less the promo code, taken off the booking total. Refusals name the field (`field`): 400 `promo_code_invalid` (`promoCode`; unknown, out of date and used up answer alike), 400 `unknown_ticket_type` / 409 `tier_not_on_sale` (`ticketType`), 404 `track_not_found` (`subEventId`), 400 `team_too_large` (`teamMembers`). Availability and membership are checked when booking, not here.',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object(
          {
            ...Access,
            subEventId: Type.Optional(Type.String({ maxLength: 10 })),
            ticketType: Type.Optional(Type.String({ maxLength: 80 })),
            quantity: Type.Integer({
              minimum: 1,
              maximum: 100,
              description: 'People on the booking: 1 plus the team members.',
            }),
            promoCode: Type.Optional(Type.String({ maxLength: 40 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              currency: Type.String(),
              quantity: Type.Integer(),
              unitPrice: Paise('The price per person.'),
              subtotal: Paise('unitPrice × quantity.'),
              discount: Paise('What the promo code takes off.'),
              total: Paise(
                'What the booking costs: 0 is a free booking (the page’s button says “Register”), more is paid through the gateway (“Pay ₹X”).',
              ),
            }),
            'What the choice costs, in paise.',
          ),
          403: E,
          404: E,
          409: E,
        },
      },
    },
    async (req) => {
      const { key, origin, offer, preview, ...input } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      const q = await quoteBooking(deps.db, access.event, input, deps.clock.now());
      return {
        currency: q.currency,
        quantity: q.quantity,
        unitPrice: q.unitPaise,
        subtotal: q.subtotalPaise,
        discount: q.discountPaise,
        total: q.amountPaise,
      };
    },
  );
