import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as publishing from '../publishing.js';
import { PublishingRequest, RequestMessage } from '../publishing.schemas.js';
import { SESSION } from './account.js';
import {
  type PublishingDeps,
  publishingRequestExample,
  requestMessageExample,
} from './publishing-request.js';

const examples: OperationExamples = {
  requests: { default: { value: { message: requestMessageExample } } },
  responses: { '201': { success: true, data: publishingRequestExample } },
};

export const requestPublishingAccess: Operation<PublishingDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/publishing-access',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'requestPublishingAccess',
        tags: ['dashboard'],
        summary: 'Request publishing access (to publish live events)',
        description:
          'Files a request that platform staff review (`GET /admin/api/publishing-requests`); they grant or decline it with a reason, and the account’s address is mailed either way. One request waits at a time: 409 `publishing_request_pending` while one does, 409 `already_can_publish` when the account may publish already. A declined account may ask again. Nothing else waits on it: test events publish without access.',
        body: Type.Object({ message: RequestMessage }, { additionalProperties: false }),
        response: {
          201: answer(
            Type.Object({ success: Type.Literal(true), data: PublishingRequest }),
            'The request, pending until staff review it.',
          ),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const row = await publishing.requestPublishing(deps, sessionPrincipal(req).userId, req.body.message);
      req.log.info({ userId: row.user_id, requestId: row.id }, 'publishing access requested');
      return reply.code(201).send({ success: true as const, data: publishing.presentRequest(row) });
    },
  );
