// Live events: the payment fallback page, where the gateway's checkout cannot run in a frame.
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import * as service from '../checkout.service.js';
import * as bookings from '../page-bookings.service.js';
import { renderPaymentPage } from '../payment-page.html.js';
import { Html, htmlErrors, pageCsp, Slug, type CheckoutContext } from '../page-context.js';

const examples: OperationExamples = {
  params: { order: EX.orderId },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Pay for Pune Tech Summit 2027</title></head><body>…</body></html>',
  },
};

export const openHostedPaymentPage: Operation<CheckoutContext> = (
  app,
  { deps, assets, s, htmlErrorHandler, html },
) =>
  app.get(
    '/e/:slug/pay',
    {
      config: { auth: { kind: 'public' }, examples },
      errorHandler: htmlErrorHandler,
      schema: {
        operationId: 'openHostedPaymentPage',
        tags: ['checkout'],
        summary: 'Live events: a top-level payment page for a pending booking',
        description:
          'The fallback where the gateway’s checkout cannot run inside a frame: opens Razorpay’s checkout with `callback_url` (`POST /e/{slug}/callback`) and `redirect: true`. Shows no personal data. Public for a published live event; 404 for anything else or an order that is not pending on this event.',
        params: Slug,
        querystring: Type.Object({
          order: Type.String({
            maxLength: 100,
            pattern: '^[A-Za-z0-9_]+$',
            description: 'The booking’s gateway order id (letters, digits and `_`).',
          }),
        }),
        response: { 200: Html('The payment page.'), ...htmlErrors([400, 404, 429, 500]) } as never,
      },
    },
    async (req, reply) => {
      const access = await service.openPage(deps, req.params.slug, undefined, undefined);
      const order = await bookings.pendingPayment(deps, access, req.query.order);
      const page = renderPaymentPage({
        strings: s,
        assets,
        title: access.event.title,
        order,
        callbackUrl: `${deps.config.baseUrl}/e/${encodeURIComponent(access.event.slug)}/callback`,
        mode: 'live',
      });
      return html(reply, page, pageCsp(true));
    },
  );
