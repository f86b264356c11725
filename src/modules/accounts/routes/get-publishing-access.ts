import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { getUser } from '../accounts.service.js';
import * as publishing from '../publishing.js';
import { PublishingRequest } from '../publishing.schemas.js';
import { SESSION } from './account.js';
import { type PublishingDeps, publishingRequestExample } from './publishing-request.js';

const examples: OperationExamples = {
  responses: { '200': { success: true, canPublish: false, requests: [publishingRequestExample] } },
};

export const getPublishingAccess: Operation<PublishingDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/publishing-access',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'getPublishingAccess',
        tags: ['dashboard'],
        summary: 'Whether this account may publish live events, and its requests for access',
        description:
          'Test events publish without access (they are never public); live events need it. `requests` are the account’s latest 20, newest first; a declined one carries the staff’s `reason`.',
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              canPublish: Type.Boolean(),
              requests: Type.Array(PublishingRequest),
            }),
            'Whether the account may publish live events, and its latest requests for access, newest first.',
          ),
        },
      },
    },
    async (req) => {
      const userId = sessionPrincipal(req).userId;
      const [user, rows] = await Promise.all([
        getUser(deps.db, userId),
        publishing.requestsOf(deps.db, userId),
      ]);
      return {
        success: true as const,
        canPublish: user.can_publish,
        requests: rows.map(publishing.presentRequest),
      };
    },
  );
