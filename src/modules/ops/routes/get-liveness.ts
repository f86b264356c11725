import { Type } from 'typebox';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { OPEN, type OpsDeps } from './ops.js';

const examples: OperationExamples = { responses: { '200': { status: 'ok' } } };

export const getLiveness: Operation<OpsDeps> = (app) =>
  app.get(
    '/healthz',
    {
      config: { auth: OPEN, examples },
      schema: {
        operationId: 'getLiveness',
        tags: ['operations'],
        summary: 'Liveness: the process answers',
        description:
          'Answers 200 while the process runs, without touching the database or Redis: for a process supervisor’s liveness probe.',
        response: { 200: answer(Type.Object({ status: Type.Literal('ok') }), 'The process is running.') },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
