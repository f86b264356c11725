// The browser side: the hosted event page, its JSON calls, the hosted plan page,
// the payment fallback page and the gateway's redirect back, and the static scripts
// (embed.js for host pages, the page's own script and style) with ETags. The hosted page's
// operations are one per file under routes/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CheckoutDeps } from './checkout.service.js';
import { parseJsonKeepingEveryKey } from '../../http/json-body.js';
import type { Operation } from '../../http/operation.js';
import { assetRoutes } from './assets.routes.js';
import { loadCheckoutAssets, pageStyleUrl } from './assets.js';
import type { Assets } from './page.html.js';
import { checkoutContext, type CheckoutContext } from './page-context.js';
import type { PlanAssets } from './plan-page.html.js';
import { planPageRoutes } from './plan-page.routes.js';
import { hostedConfirmPayment } from './routes/hosted-confirm-payment.js';
import { hostedGetOrder } from './routes/hosted-get-order.js';
import { hostedGetTicket } from './routes/hosted-get-ticket.js';
import { hostedGetTicketCalendar } from './routes/hosted-get-ticket-calendar.js';
import { hostedJoinWaitlist } from './routes/hosted-join-waitlist.js';
import { hostedPaymentCallback } from './routes/hosted-payment-callback.js';
import { hostedQuote } from './routes/hosted-quote.js';
import { hostedRegister } from './routes/hosted-register.js';
import { hostedRequestMemberCode } from './routes/hosted-request-member-code.js';
import { hostedSandboxCheckout } from './routes/hosted-sandbox-checkout.js';
import { hostedVerifyMemberCode } from './routes/hosted-verify-member-code.js';
import { openHostedPage } from './routes/open-hosted-page.js';
import { openHostedPaymentPage } from './routes/open-hosted-payment-page.js';

/** The hosted page's operations, in this order (the OpenAPI document lists them so). */
const pageOperations: readonly Operation<CheckoutContext>[] = [
  openHostedPage,
  hostedRegister,
  hostedConfirmPayment,
  hostedGetOrder,
  hostedSandboxCheckout,
  hostedRequestMemberCode,
  hostedVerifyMemberCode,
  hostedQuote,
  hostedGetTicket,
  hostedGetTicketCalendar,
  openHostedPaymentPage,
];

/** The operations that take a posted form (the sold-out page's, and the gateway's redirect). */
const formOperations: readonly Operation<CheckoutContext>[] = [hostedJoinWaitlist, hostedPaymentCallback];

export const checkoutRoutes =
  (deps: CheckoutDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Answers are keyed by names organisers choose; keep every key as it was sent.
    parseJsonKeepingEveryKey(app);
    const files = loadCheckoutAssets();
    const { pageJs, pageCss, planJs } = files;
    const assets: Assets = { js: `/embed/page.js?v=${pageJs.version}`, css: pageStyleUrl(pageCss) };
    const ctx = checkoutContext(deps, assets);
    const planAssets: PlanAssets = { ...assets, planJs: `/embed/plan.js?v=${planJs.version}` };

    // In this order (the OpenAPI document lists them so).
    assetRoutes(app, files);
    for (const operation of pageOperations) operation(app, ctx);
    // The gateway's redirect posts a form; only these routes parse one.
    await app.register(async (form) => {
      form.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_req, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        },
      );
      for (const operation of formOperations) operation(form, ctx);
    });
    await planPageRoutes(app, { ...ctx, planAssets });
  };
