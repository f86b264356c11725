import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as publishing from '../../accounts/publishing.js';
import { DeclineReason } from '../../accounts/publishing.schemas.js';
import { type AdminDeps, Decided, STAFF } from './admin.js';
import { EXAMPLE_PUBLISHING_REQUEST } from './publishing-request-example.js';

const REASON = 'Tell us which events you will sell and link to a past one.';

const examples: OperationExamples = {
  params: { id: EX.publishingRequestId },
  requests: { default: { value: { reason: REASON } } },
  responses: {
    '200': {
      success: true,
      data: {
        ...EXAMPLE_PUBLISHING_REQUEST,
        status: 'declined',
        reason: REASON,
        decidedAt: '2026-11-25T09:15:02.311Z',
      },
    },
  },
};

export const declinePublishingRequest: Operation<AdminDeps> = (app, deps) =>
  app.post(
    '/admin/api/publishing-requests/:id/decline',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'declinePublishingRequest',
        tags: ['admin'],
        summary: 'Decline a request for publishing access, with a reason',
        description:
          'The organiser is mailed the reason and may ask again. 409 `publishing_request_decided` for a request decided already.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        body: Type.Object({ reason: DeclineReason }, { additionalProperties: false }),
        response: {
          200: answer(Decided, 'The request, now declined with its reason.'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const staff = req.principal!.userId;
      const row = await publishing.decideRequest(
        { ...deps, jobs: deps.jobs },
        sessionPrincipal(req),
        req.params.id,
        { grant: false, reason: req.body.reason },
      );
      req.log.info({ staff, requestId: row.id, userId: row.user_id }, 'publishing access declined');
      return { success: true as const, data: publishing.presentRequest(row) };
    },
  );
