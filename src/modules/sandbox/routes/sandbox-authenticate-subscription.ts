import { Type } from 'typebox';
import { keyPrincipal } from '../../../http/auth.js';
import { playSubscriptionEvent } from '../checkout.service.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { SandboxRouteDeps, SubscriptionResult } from './sandbox-shared.js';

const examples: OperationExamples = { responses: { '200': { success: true, result: 'applied' } } };

export const sandboxAuthenticateSubscription: Operation<SandboxRouteDeps> = (app, deps) =>
  app.post(
    '/api/v1/sandbox/subscriptions/:subscriptionId/authenticate',
    {
      config: { auth: { kind: 'key', classes: ['full', 'checkout'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxAuthenticateSubscription',
        tags: ['sandbox'],
        summary: 'Act as the member approving the mandate (the sandbox’s authorisation link)',
        description:
          '`subscription.authenticated`: the member approved the mandate; the organiser’s webhook fires when subscribed to it. A checkout key may call this (it is the buyer’s step); charge, halt and cancel need a full key.',
        params: Type.Object({ subscriptionId: Type.String({ maxLength: 100 }) }),
        response: {
          ...SubscriptionResult,
          200: answer(SubscriptionResult[200], 'What the mandate authorisation did to the membership.'),
        },
      },
    },
    async (req) => {
      const result = await playSubscriptionEvent(
        deps,
        keyPrincipal(req).userId,
        req.params.subscriptionId,
        'authenticate',
      );
      return { success: true as const, result };
    },
  );
