import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as events from '../../events/events.service.js';
import * as promos from '../promo.service.js';
import type { RegisterDeps } from '../register.service.js';
import { E, EventParams, PromoCode } from '../registrations.schemas.js';

const examples: OperationExamples = {
  requests: {
    default: { value: { code: 'EARLYBIRD', discountPercent: 20, maxUses: 100, validUntil: '2027-01-01' } },
  },
  responses: {
    '201': {
      success: true,
      data: {
        id: EX.promoId,
        code: 'EARLYBIRD',
        discountPercent: 20,
        discountAmount: null,
        validFrom: null,
        validUntil: '2026-12-31T18:30:00.000Z',
        maxUses: 100,
        uses: 0,
        usesReserved: 0,
        createdAt: '2026-11-25T07:51:24.908Z',
      },
    },
  },
};

export const createPromoCode: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/promo-codes',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'createPromoCode',
        tags: ['registrations'],
        summary: 'Create a promo code',
        description:
          'Exactly one of discountPercent (1–100) or discountAmount (rupees off the booking total). Codes are case-insensitive. A booking with the code reserves a use when it is made (paid step 1, a free booking, one awaiting approval) and the reservation becomes a use when it is confirmed, so nobody who paid the discounted price is refused later and `uses` never exceeds maxUses under any concurrency; a booking cancelled, rejected or expired unpaid gives its reservation back. A code that is unknown, out of date or used up (uses plus reservations at maxUses) is refused at registration with 400. A discount that makes the price 0 confirms like a free event.',
        params: EventParams,
        body: Type.Object(
          {
            code: Type.String({ minLength: 2, maxLength: 40 }),
            discountPercent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
            discountAmount: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
            validFrom: Type.Optional(Type.String({ maxLength: 40 })),
            validUntil: Type.Optional(Type.String({ maxLength: 40 })),
            maxUses: Type.Optional(Type.Integer({ minimum: 1 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(Type.Object({ success: Type.Literal(true), data: PromoCode }), 'The promo code.'),
          404: E,
          409: E,
        },
      },
    },
    async (req, reply) => {
      const row = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
      return reply.code(201).send({
        success: true as const,
        data: promos.presentPromo(await promos.createPromo(deps, row.id, req.body)),
      });
    },
  );
