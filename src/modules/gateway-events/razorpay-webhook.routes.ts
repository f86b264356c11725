// POST /webhooks/razorpay: the gateway's notifications. Razorpay delivers at least
// once, in any order, and retries for a day on any non-2xx, so every verified
// notification answers 2xx whether it changed something or was safely ignored;
// only a bad signature is a 400. The operation is in routes/; the plugin checks each body's
// signature over its raw bytes before parsing it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseSignedJson } from '../../http/json-body.js';
import { RazorpayWebhookRouteDeps, signatureChecker } from './routes/razorpay-webhook-shared.js';
import { receiveRazorpayNotification } from './routes/receive-razorpay-notification.js';

export const razorpayWebhookRoutes =
  (deps: RazorpayWebhookRouteDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    parseSignedJson(app, signatureChecker(deps));
    for (const operation of [receiveRazorpayNotification]) operation(app, deps);
  };
