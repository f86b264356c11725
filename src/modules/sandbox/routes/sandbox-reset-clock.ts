import { keyPrincipal } from '../../../http/auth.js';
import { resetClock } from '../../accounts/account-clock.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { SandboxRouteDeps, TestClock, present } from './sandbox-shared.js';

const examples: OperationExamples = {
  responses: { '200': { success: true, now: '2026-11-25T07:51:24.908Z', offsetDays: 0 } },
};

export const sandboxResetClock: Operation<SandboxRouteDeps> = (app, deps) =>
  app.delete(
    '/api/v1/sandbox/clock',
    {
      config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxResetClock',
        tags: ['sandbox'],
        summary: 'Put this account’s test-mode clock back to now',
        response: { 200: answer(TestClock, 'The test-mode clock, back to the real time.') },
        description: 'Puts this account’s test-mode clock back to the real time (offset 0). Test keys only.',
      },
    },
    async (req) => present(await resetClock(deps, keyPrincipal(req).userId)),
  );
