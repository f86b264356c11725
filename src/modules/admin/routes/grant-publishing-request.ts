import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { errorResponses } from '../../../http/schemas.js';
import * as publishing from '../../accounts/publishing.js';
import { type AdminDeps, Decided, STAFF } from './admin.js';
import { EXAMPLE_PUBLISHING_REQUEST } from './publishing-request-example.js';

const examples: OperationExamples = {
  params: { id: EX.publishingRequestId },
  responses: {
    '200': {
      success: true,
      data: { ...EXAMPLE_PUBLISHING_REQUEST, status: 'granted', decidedAt: '2026-11-25T09:15:02.311Z' },
    },
  },
};

export const grantPublishingRequest: Operation<AdminDeps> = (app, deps) =>
  app.post(
    '/admin/api/publishing-requests/:id/grant',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'grantPublishingRequest',
        tags: ['admin'],
        summary: 'Grant a request for publishing access',
        description:
          'The account may publish live events at once (as with organiser-access); the organiser is mailed. 409 `publishing_request_decided` for a request decided already.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: {
          200: answer(Decided, 'The request, now granted; the account may publish live events.'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
          // Fastify still reads a body sent to this POST; these two were listed since grant and
          // decline shared one answers object (decline's body added them), and stay listed.
          ...errorResponses([413, 415]),
        },
      },
    },
    async (req) => {
      const staff = req.principal!.userId;
      const row = await publishing.decideRequest(
        { ...deps, jobs: deps.jobs },
        sessionPrincipal(req),
        req.params.id,
        { grant: true },
      );
      req.log.info({ staff, requestId: row.id, userId: row.user_id }, 'publishing access granted');
      return { success: true as const, data: publishing.presentRequest(row) };
    },
  );
