// The browser side: the hosted event page, its JSON calls, the hosted plan page,
// the payment fallback page and the gateway's redirect back, and the static scripts
// (embed.js for host pages, the page's own script and style) with ETags. The hosted page's
// operations are one per file under routes/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CheckoutDeps } from './checkout.service.js';
import { parseJsonKeepingEveryKey } from '../../http/json-body.js';
import type { Operation, RouteApp } from '../../http/operation.js';
import { getEmbedScript } from './routes/get-embed-script.js';
import { getHostedPageScript } from './routes/get-hosted-page-script.js';
import { getHostedPageStyle } from './routes/get-hosted-page-style.js';
import { getPlanPageScript } from './routes/get-plan-page-script.js';
import { getPowWorkerScript } from './routes/get-pow-worker-script.js';
import type { CheckoutFiles } from './routes/static-asset.js';
import { loadCheckoutAssets, pageStyleUrl } from './assets.js';
import type { Assets } from './layout.html.js';
import { checkoutContext, type CheckoutContext } from './page-context.js';
import type { PlanAssets } from './plan-page.html.js';
import { joinPlanFromPage } from './routes/join-plan-from-page.js';
import { openPlanPage } from './routes/open-plan-page.js';
import { planPaymentCallback } from './routes/plan-payment-callback.js';
import type { PlanPageContext } from './routes/plan-page-kit.js';
import { planSandboxMandate } from './routes/plan-sandbox-mandate.js';
import { planSandboxPay } from './routes/plan-sandbox-pay.js';
import { hostedConfirmPayment } from './routes/hosted-confirm-payment.js';
import { hostedGetOrder } from './routes/hosted-get-order.js';
import { hostedGetTicket } from './routes/hosted-get-ticket.js';
import { hostedGetTicketCalendar } from './routes/hosted-get-ticket-calendar.js';
import { hostedHoldSeats } from './routes/hosted-hold-seats.js';
import { hostedJoinWaitlist } from './routes/hosted-join-waitlist.js';
import { hostedPaymentCallback } from './routes/hosted-payment-callback.js';
import { hostedQuote } from './routes/hosted-quote.js';
import { hostedRegister } from './routes/hosted-register.js';
import { hostedReleaseSeats } from './routes/hosted-release-seats.js';
import { hostedRequestMemberCode } from './routes/hosted-request-member-code.js';
import { hostedSandboxCheckout } from './routes/hosted-sandbox-checkout.js';
import { hostedSeatStatuses } from './routes/hosted-seat-statuses.js';
import { hostedVerifyMemberCode } from './routes/hosted-verify-member-code.js';
import { openHostedPage } from './routes/open-hosted-page.js';
import { openHostedPaymentPage } from './routes/open-hosted-payment-page.js';

/** The static files (embed.js, the hosted pages' script and style), with ETags. */
const assetOperations: readonly Operation<CheckoutFiles>[] = [
  getEmbedScript,
  getHostedPageScript,
  getPlanPageScript,
  getHostedPageStyle,
  getPowWorkerScript,
];

/** The hosted page's operations, in this order (the OpenAPI document lists them so). */
const pageOperations: readonly Operation<CheckoutContext>[] = [
  openHostedPage,
  hostedSeatStatuses,
  hostedHoldSeats,
  hostedReleaseSeats,
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

/** The hosted plan page's steps: plain forms (docs/decisions/28-a-persons-day.md). */
const planFormOperations: readonly Operation<PlanPageContext>[] = [
  joinPlanFromPage,
  planSandboxPay,
  planSandboxMandate,
  planPaymentCallback,
];

/** The operations that take a posted form (the sold-out page's, and the gateway's redirect). */
const formOperations: readonly Operation<CheckoutContext>[] = [hostedJoinWaitlist, hostedPaymentCallback];

/** Parses a posted form (16 KB at most) in a child context, so only its routes take one. */
function parseForms(form: RouteApp): void {
  form.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

export const checkoutRoutes =
  (deps: CheckoutDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Answers are keyed by names organisers choose; keep every key as it was sent.
    parseJsonKeepingEveryKey(app);
    const files = loadCheckoutAssets();
    const { pageJs, pageCss, planJs, powWorkerJs } = files;
    const assets: Assets = {
      js: `/embed/page.js?v=${pageJs.version}`,
      css: pageStyleUrl(pageCss),
      powWorker: `/embed/pow-worker.js?v=${powWorkerJs.version}`,
    };
    const ctx = checkoutContext(deps, assets);
    const planAssets: PlanAssets = { ...assets, planJs: `/embed/plan.js?v=${planJs.version}` };

    // In this order (the OpenAPI document lists them so).
    for (const operation of assetOperations) operation(app, files);
    for (const operation of pageOperations) operation(app, ctx);
    // The gateway's redirect posts a form; only these routes parse one.
    await app.register(async (form) => {
      parseForms(form);
      for (const operation of formOperations) operation(form, ctx);
    });
    const planCtx: PlanPageContext = { ...ctx, planAssets };
    openPlanPage(app, planCtx);
    // The plan page's steps are plain forms; only these routes parse one.
    await app.register(async (form) => {
      parseForms(form);
      for (const operation of planFormOperations) operation(form, planCtx);
    });
  };
