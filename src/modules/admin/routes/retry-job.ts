import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { retryJob as retryDeadJob } from '../../../jobs/dead-jobs.js';
import { type AdminDeps, Job, STAFF } from './admin.js';

const examples: OperationExamples = {
  params: { id: EX.jobId },
  responses: {
    '200': {
      success: true,
      data: {
        id: EX.jobId,
        topic: 'account.verify_email',
        status: 'pending',
        attempts: 0,
        maxAttempts: null,
        lastError: null,
        createdAt: '2026-11-25T07:51:24.908Z',
        runAt: '2026-11-25T07:51:24.908Z',
        finishedAt: null,
        retryUntil: '2026-11-28T07:51:24.908Z',
      },
    },
  },
};

export const retryJob: Operation<AdminDeps> = (app, deps) =>
  app.post(
    '/admin/api/jobs/:id/retry',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'retryJob',
        tags: ['admin'],
        summary: 'Put a dead job back in the queue now',
        description:
          'The job runs again at once, with its attempts counted afresh and a new 72-hour retry window. 409 `job_not_dead` for a job that is pending or done; 404 `job_not_found` for no such job.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), data: Job }), 'The job, queued again.'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const data = await retryDeadJob(deps.db, deps.clock, req.params.id);
      req.log.info({ staff: req.principal?.userId, jobId: data.id, topic: data.topic }, 'dead job retried');
      deps.jobs.kick();
      return { success: true as const, data };
    },
  );
