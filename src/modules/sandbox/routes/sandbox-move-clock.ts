import { Type } from 'typebox';
import { keyPrincipal } from '../../../http/auth.js';
import { advanceClock } from '../../accounts/account-clock.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { SandboxRouteDeps, TestClock, present } from './sandbox-shared.js';

const examples: OperationExamples = {
  requests: { default: { value: { advanceDays: 7 } } },
  responses: { '200': { success: true, now: '2026-12-02T07:51:24.908Z', offsetDays: 7 } },
};

export const sandboxMoveClock: Operation<SandboxRouteDeps> = (app, deps) =>
  app.post(
    '/api/v1/sandbox/clock',
    {
      config: { auth: { kind: 'key', classes: ['full'], modes: ['test'] }, examples },
      schema: {
        operationId: 'sandboxMoveClock',
        tags: ['sandbox'],
        summary: 'Move this account’s test-mode clock forward',
        description:
          'Every time rule of test mode runs on this clock: memberships (standing, expiry, renewal windows and the periods sandbox charges add), ledger clearing, waitlist offers (one past its expiry lapses and its seat passes to the next in line at the lapse sweep, every minute), unpaid bookings (expired past `CHECKOUT_WINDOW_MINUTES` at the next reconciliation sweep) and the attendee page’s self-service cutoff. Times test mode records (an offer’s expiry, an order’s check time) are on this clock. Cumulative; DELETE puts it back to now.',
        body: Type.Object(
          { advanceDays: Type.Number({ exclusiveMinimum: 0, maximum: 3650 }) },
          { additionalProperties: false },
        ),
        response: { 200: answer(TestClock, 'The test-mode clock as it now stands.') },
      },
    },
    async (req) => present(await advanceClock(deps, keyPrincipal(req).userId, req.body.advanceDays)),
  );
