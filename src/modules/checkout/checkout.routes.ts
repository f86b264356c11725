// The browser side: the hosted event page, its JSON calls, the hosted plan page,
// the payment fallback page and the gateway's redirect back, and the static scripts
// (embed.js for host pages, the page's own script and style) with ETags.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CheckoutDeps } from './checkout.service.js';
import { parseJsonKeepingEveryKey } from '../../http/json-body.js';
import { assetRoutes } from './assets.routes.js';
import { loadCheckoutAssets, pageStyleUrl } from './assets.js';
import type { Assets } from './page.html.js';
import { checkoutContext } from './page-context.js';
import { pageCallRoutes } from './page-calls.routes.js';
import { memberCodeRoutes } from './member-code.routes.js';
import { eventPageRoute, paymentPageRoutes } from './page.routes.js';
import { ticketRoutes } from './ticket.routes.js';
import type { PlanAssets } from './plan-page.html.js';
import { planPageRoutes } from './plan-page.routes.js';

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
    eventPageRoute(app, ctx);
    pageCallRoutes(app, ctx);
    memberCodeRoutes(app, ctx);
    ticketRoutes(app, ctx);
    await paymentPageRoutes(app, ctx);
    await planPageRoutes(app, { ...ctx, planAssets });
  };
