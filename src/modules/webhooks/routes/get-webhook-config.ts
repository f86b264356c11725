import { Type } from 'typebox';
import { Nullable } from '../../../http/schemas.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import * as webhooks from '../webhooks.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { WebhooksRouteDeps, WebhookConfig } from './webhooks-shared.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        url: 'https://hooks.example.in/tickets',
        enabled: true,
        secretSet: true,
        events: ['registration.confirmed'],
      },
    },
  },
};

export const getWebhookConfig: Operation<WebhooksRouteDeps> = (app, deps) =>
  app.get(
    '/api/v1/webhooks',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getWebhookConfig',
        tags: ['webhooks'],
        summary: 'The webhook configuration of this account and mode',
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Nullable(WebhookConfig) }),
            'The webhook configuration, or `data: null`.',
          ),
        },
        description:
          'The webhook of this account and mode (URL, events, paused), or `data: null` when none is set up. The secret is never shown again.',
      },
    },
    async (req) => {
      const p = keyPrincipal(req);
      return { success: true as const, data: await webhooks.getConfig(deps.db, p.userId, p.mode) };
    },
  );
