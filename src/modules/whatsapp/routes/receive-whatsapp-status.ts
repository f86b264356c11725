import { Type } from 'typebox';
import { applyStatuses } from '../whatsapp.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { WhatsappWebhookRouteDeps, signatureChecker } from './whatsapp-webhook-shared.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '102290129340398',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  statuses: [
                    {
                      id: 'wamid.HBgMOTE5ODEyMzQ1Njc4FQIAERgSQUFBQUFBQUFBQUFBQUFBQUFBAA==',
                      status: 'delivered',
                      timestamp: '1800000000',
                      recipient_id: '919812345678',
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    },
  },
  responses: { '200': { received: true, applied: 0 } },
};

export const receiveWhatsAppStatus: Operation<WhatsappWebhookRouteDeps> = (app, deps) =>
  app.post(
    '/webhooks/whatsapp',
    {
      config: { auth: { kind: 'public', rateLimit: false }, examples },
      schema: {
        operationId: 'receiveWhatsAppStatus',
        tags: ['gateway'],
        summary: 'WhatsApp Cloud API status webhooks (sent, delivered, read, failed)',
        description:
          'Verified with `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the raw body with `WHATSAPP_APP_SECRET`, compared in constant time, before the body is parsed; a body whose signature does not hold is never read and answers 403 `signature_not_verified` (so does every request when `WHATSAPP_APP_SECRET` is not set, with a sentence saying so, and a warning is logged); more than 20 such requests from one address in a minute answer 429 (correctly signed ones are never counted or limited). Each status (`entry[].changes[].value.statuses[]`: `id` the message id, `status`, `timestamp` in Unix seconds as a string, `errors[].code` when failed) moves the ticket’s WhatsApp message to that status if it is further along (accepted → sent → delivered → read; failed last), so duplicates, late or out-of-order deliveries and a skipped `delivered` change nothing wrongly; the registration shows it in `channels`. A message is found by its id, or by `biz_opaque_callback_data` (the service’s own id for the message, never the ticket id) when the send’s answer was lost. Anything else in the body is ignored. Every verified request answers 200. The body is at most 64 KiB (413) and nests at most 64 levels (400 `invalid_json`).',
        headers: Type.Object({ 'x-hub-signature-256': Type.Optional(Type.String()) }),
        body: Type.Object(
          {
            object: Type.Optional(Type.String()),
            entry: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000 })),
          },
          { additionalProperties: true },
        ),
        response: {
          200: answer(
            Type.Object({
              received: Type.Literal(true),
              applied: Type.Integer({ description: 'Statuses that moved a message.' }),
            }),
            'The statuses were received; `applied` counts those that changed a message.',
          ),
          403: Type.Ref('Error'),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      // The parser verified the signature of every body it read; a request without one is checked here.
      if (req.rawBody === undefined) await signatureChecker(deps)(req, Buffer.alloc(0));
      const applied = await applyStatuses(deps.db, req.body, deps.clock.now());
      req.log.info({ applied }, 'whatsapp webhook');
      return { received: true as const, applied };
    },
  );
