// WhatsApp Cloud API webhooks: the subscribe handshake and the status webhooks, one operation per
// file under routes/; the plugin checks each body's signature over its raw bytes before parsing it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseSignedJson } from '../../http/json-body.js';
import { WhatsappWebhookRouteDeps, signatureChecker } from './routes/whatsapp-webhook-shared.js';
import { verifyWhatsAppWebhook } from './routes/verify-whatsapp-webhook.js';
import { receiveWhatsAppStatus } from './routes/receive-whatsapp-status.js';

export const whatsappWebhookRoutes =
  (deps: WhatsappWebhookRouteDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    parseSignedJson(app, signatureChecker(deps));
    for (const operation of [verifyWhatsAppWebhook, receiveWhatsAppStatus]) operation(app, deps);
  };
