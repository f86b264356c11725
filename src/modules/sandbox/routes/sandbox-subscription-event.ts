import { Type } from 'typebox';
import { keyPrincipal } from '../../../http/auth.js';
import { playSubscriptionEvent } from '../checkout.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { SandboxRouteDeps, SubscriptionResult } from './sandbox-shared.js';

const examples: OperationExamples = {
  params: { action: 'charge' },
  responses: { '200': { success: true, result: 'applied' } },
};

export const sandboxSubscriptionEvent: Operation<SandboxRouteDeps> = (app, deps) =>
  app.post(
    '/api/v1/sandbox/subscriptions/:subscriptionId/:action',
    {
      config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxSubscriptionEvent',
        tags: ['sandbox'],
        summary: 'Act as the gateway’s subscription events',
        description:
          'Full keys only: a checkout key sits in web pages, and must not charge or end a member’s subscription (403 `checkout_key_not_allowed`). `charge`: a period was paid (`subscription.charged`; validUntil moves one period on from the later of now and the current end). `halt`: retries exhausted (`subscription.halted`; not in good standing). `cancel`: the gateway cancelled it (`subscription.cancelled`; ended). Uses this account’s test clock. `authenticate` is its own operation.',
        params: Type.Object({
          subscriptionId: Type.String({ maxLength: 100 }),
          action: Type.Union([Type.Literal('charge'), Type.Literal('halt'), Type.Literal('cancel')]),
        }),
        response: {
          ...SubscriptionResult,
          200: answer(SubscriptionResult[200], 'What the subscription event did to the membership.'),
        },
      },
    },
    async (req) => {
      const result = await playSubscriptionEvent(
        deps,
        keyPrincipal(req).userId,
        req.params.subscriptionId,
        req.params.action,
      );
      return { success: true as const, result };
    },
  );
