import { Type } from 'typebox';
import { forbidden } from '../../../lib/errors.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { type Operation } from '../../../http/operation.js';
import { WhatsappWebhookRouteDeps, sameText } from './whatsapp-webhook-shared.js';

const examples: OperationExamples = {
  params: { 'hub.mode': 'subscribe', 'hub.verify_token': EX.verifyToken, 'hub.challenge': EX.challenge },
  responses: { '200': EX.challenge },
};

export const verifyWhatsAppWebhook: Operation<WhatsappWebhookRouteDeps> = (app, deps) =>
  app.get(
    '/webhooks/whatsapp',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'verifyWhatsAppWebhook',
        tags: ['gateway'],
        summary: 'Meta’s webhook subscribe handshake (WhatsApp)',
        description:
          'Meta calls it when the webhook is set up in the app dashboard: with `hub.mode=subscribe` and `hub.verify_token` equal to `WHATSAPP_VERIFY_TOKEN` (compared in constant time) it answers 200 with `hub.challenge` as plain text; otherwise 403 `verify_token_mismatch` (also when `WHATSAPP_VERIFY_TOKEN` is not set). All three parameters are required (400 without them).',
        querystring: Type.Object({
          'hub.mode': Type.String({ maxLength: 50 }),
          'hub.verify_token': Type.String({ maxLength: 500 }),
          'hub.challenge': Type.String({
            minLength: 1,
            maxLength: 200,
            pattern: '^[\\x21-\\x7e]+$',
            description: 'Echoed as the body.',
          }),
        }),
        response: {
          200: {
            description: 'The challenge, as sent.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          403: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const expected = deps.config.whatsapp.verifyToken;
      const q = req.query;
      if (!expected || q['hub.mode'] !== 'subscribe' || !sameText(q['hub.verify_token'], expected)) {
        throw forbidden(
          'verify_token_mismatch',
          expected
            ? undefined
            : 'this service has no WHATSAPP_VERIFY_TOKEN, so no subscription can be confirmed',
        );
      }
      return reply
        .type('text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .serializer((x: unknown) => String(x))
        .send(q['hub.challenge']);
    },
  );
