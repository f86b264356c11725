import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import { listJobs as listJobsPage } from '../../../jobs/dead-jobs.js';
import { type AdminDeps, Job, STAFF } from './admin.js';

const examples: OperationExamples = {
  params: { status: 'dead', limit: '20' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: EX.jobId,
          topic: 'account.verify_email',
          status: 'dead',
          attempts: 1,
          maxAttempts: null,
          lastError: null,
          createdAt: '2026-11-25T07:51:24.908Z',
          runAt: '2026-11-25T07:51:24.908Z',
          finishedAt: '2026-11-25T07:51:24.908Z',
          retryUntil: '2026-11-28T07:51:24.908Z',
        },
      ],
      count: 1,
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listJobs: Operation<AdminDeps> = (app, deps) =>
  app.get(
    '/admin/api/jobs',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'listJobs',
        tags: ['admin'],
        summary: 'Background jobs by status, newest first (dead jobs by default)',
        description:
          'A failing job (ticket or broadcast mail, refund, payout) is retried with back-off doubling from 1 second to at most 1 hour for at least 72 hours after it was queued, then parked as `dead` and listed here; a job whose worker stopped counts as an attempt. Webhook deliveries are sent once (best effort) and are dead after one failed attempt. `count` is the number of jobs in that status; pages with `limit` (default 100, at most 1,000) and `startingAfter=<nextCursor>`. Payloads are not shown.',
        querystring: Type.Object(
          {
            status: Type.Optional(
              Type.Union([Type.Literal('dead'), Type.Literal('pending'), Type.Literal('done')], {
                description: 'Default `dead`.',
              }),
            ),
            limit: PageQuery.limit,
            startingAfter: Type.Optional(
              Type.String({ maxLength: 600, description: 'The `nextCursor` of the previous page.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Array(Job),
              count: Type.Integer(),
              ...PageFields,
            }),
            'A page of jobs.',
          ),
          400: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const page = await listJobsPage(deps.db, {
        status: req.query.status ?? 'dead',
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      return { success: true as const, ...page };
    },
  );
