// The hosted page's seat map letting go of the buyer's seats (all removed, or the hold lapsed on the page).
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { releaseHold } from '../../seat-holds/event-seats.service.js';
import * as service from '../checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';

const examples: OperationExamples = {
  params: { key: EX.checkoutKey, holdToken: EX.holdToken },
  responses: { '200': { released: true } },
};

export const hostedReleaseSeats: Operation<CheckoutContext> = (app, { deps }) =>
  app.delete(
    '/e/:slug/seats/hold/:holdToken',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedReleaseSeats',
        tags: ['checkout'],
        summary: 'Let go of the seats held from the hosted page',
        description: [
          'The seat map’s own call when the buyer removes every chosen seat, or when the page’s countdown of the hold ends: the seats are available again at once. 404 when there is no such hold (it lapsed and another buyer took a seat, it was let go, or a booking has its seats).',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Type.Object({
          slug: Slug.properties.slug,
          holdToken: Type.String({ maxLength: 100, description: 'The token the hold answered.' }),
        }),
        querystring: Type.Object(Access),
        response: {
          200: answer(Type.Object({ released: Type.Literal(true) }), 'The seats, let go.'),
          403: E,
          404: E,
        },
      },
    },
    async (req) => {
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        req.query.key,
        req.query.origin,
        callSource(req),
        req.query.offer,
        req.query.preview,
      );
      await releaseHold(deps, access.principal, access.event.id, req.params.holdToken);
      return { released: true as const };
    },
  );
