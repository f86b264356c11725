// Sold out: join the waitlist from the hosted page, a plain form (registered where the
// module's plugin parses forms).
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import * as service from '../checkout.service.js';
import { renderMessagePage } from '../layout.html.js';
import {
  callSource,
  EmbedField,
  Html,
  htmlErrors,
  MESSAGE_CSP,
  PAGE_AUTH,
  Slug,
  type CheckoutContext,
} from '../page-context.js';
import { backToEvent } from './back-to-event.js';

const examples: OperationExamples = {
  requests: {
    default: { value: { key: EX.checkoutKey, name: 'Kiran Shah', email: 'kiran.shah@example.in' } },
  },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>You are on the waitlist</title></head><body>…</body></html>',
  },
};

export const hostedJoinWaitlist: Operation<CheckoutContext> = (form, ctx) => {
  const { deps, assets, s, htmlErrorHandler, html } = ctx;
  return form.post(
    '/e/:slug/waitlist',
    {
      bodyLimit: 16 * 1024,
      config: { auth: { kind: 'public' }, examples },
      errorHandler: (err, req, reply) => htmlErrorHandler(err, req, reply, backToEvent(ctx, req)),
      schema: {
        operationId: 'hostedJoinWaitlist',
        tags: ['checkout'],
        summary: 'Join the waitlist from the sold-out page (a plain form)',
        description: [
          'The same rules as `POST /api/v1/events/{id}/waitlist` (409 `seats_available` when not sold out, `waitlist_closed` without a waitlist), for the whole event. Answers an HTML page with the place in the queue; nothing personal.',
          PAGE_AUTH,
        ].join('\n\n'),
        consumes: ['application/x-www-form-urlencoded'],
        params: Slug,
        body: Type.Object(
          {
            key: Type.Optional(Type.String({ maxLength: 100 })),
            preview: Type.Optional(Type.String({ maxLength: 160 })),
            origin: Type.Optional(
              Type.String({
                maxLength: 300,
                description:
                  'The origin the page was opened for (it grants nothing): the answer’s link back to the event keeps it.',
              }),
            ),
            embed: Type.Optional(EmbedField),
            name: Type.String({ minLength: 1, maxLength: 200 }),
            email: Type.String({ minLength: 3, maxLength: 254 }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Html('On the waitlist.'),
          ...htmlErrors([400, 403, 404, 409, 413, 415, 429, 500]),
        } as never,
      },
    },
    async (req, reply) => {
      const b = req.body as { key?: string; origin?: string; preview?: string; name: string; email: string };
      const access = await service.openPageCall(
        deps,
        (req.params as { slug: string }).slug,
        b.key,
        b.origin,
        callSource(req),
        undefined,
        b.preview,
      );
      const joined = await service.joinFromPage(deps, access, { name: b.name, email: b.email });
      const text =
        joined.status === 'offered'
          ? 'A seat is already held for you: look for the offer mail.'
          : `You are number ${joined.position} on the waitlist. If a seat comes free we will mail you a link that holds it for you.`;
      return html(
        reply,
        renderMessagePage(s, assets, 'You are on the waitlist', text, undefined, backToEvent(ctx, req)),
        MESSAGE_CSP,
      );
    },
  );
};
