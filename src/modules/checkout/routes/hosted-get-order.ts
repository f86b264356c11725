import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { BookingStatus } from '../../registrations/registrations.schemas.js';
import * as service from '../checkout.service.js';
import * as bookings from '../page-bookings.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';

const examples: OperationExamples = {
  params: { key: EX.checkoutKey },
  responses: { '200': { status: 'confirmed' } },
};

export const hostedGetOrder: Operation<CheckoutContext> = (app, { deps }) =>
  app.get(
    '/e/:slug/orders/:orderId',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedGetOrder',
        tags: ['checkout'],
        summary: 'Where a booking from the hosted page stands, by its order',
        description: [
          'The page asks while the buyer pays in another tab, or after the gateway’s notification confirmed a booking whose checkout was interrupted. Only the status.',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Type.Object({ slug: Slug.properties.slug, orderId: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object(Access),
        response: {
          200: answer(Type.Object({ status: BookingStatus }), 'Where the booking stands.'),
          403: E,
          404: E,
        },
      },
    },
    async (req) =>
      bookings.orderStatus(
        deps,
        await service.openPageCall(
          deps,
          req.params.slug,
          req.query.key,
          req.query.origin,
          callSource(req),
          req.query.offer,
          req.query.preview,
        ),
        req.params.orderId,
      ),
  );
