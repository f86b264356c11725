import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import * as webhooks from '../webhooks.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { WebhooksRouteDeps } from './webhooks-shared.js';

const examples: OperationExamples = { responses: { '200': { success: true, data: null } } };

export const deleteWebhookConfig: Operation<WebhooksRouteDeps> = (app, deps) =>
  app.delete(
    '/api/v1/webhooks',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'deleteWebhookConfig',
        tags: ['webhooks'],
        summary: 'Remove the webhook and its secret',
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Null() }),
            'The webhook is removed.',
          ),
        },
        description:
          'Removes the webhook and its secret; nothing more is delivered. Deliveries already recorded stay readable.',
      },
    },
    async (req) => {
      const p = keyPrincipal(req);
      await webhooks.deleteConfig(deps, p);
      return { success: true as const, data: null };
    },
  );
