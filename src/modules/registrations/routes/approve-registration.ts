import { EXAMPLE_REGISTRATION } from './registration-example.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as actions from '../actions.service.js';
import type { RegisterDeps } from '../register.service.js';
import { presentOne } from '../registrations.present.js';
import { E, RegAnswer, RegParams } from '../registrations.schemas.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: { ...EXAMPLE_REGISTRATION },
    },
  },
};

export const approveRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/registrations/:registrationId/approve',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'approveRegistration',
        tags: ['registrations'],
        summary: 'Approve a registration awaiting approval',
        description:
          'Confirms it and claims its seats (409 `sold_out` when none are left; it then stays pending). Approving a confirmed one changes nothing.',
        params: RegParams,
        response: { 200: answer(RegAnswer, 'The registration, now confirmed.'), 404: E, 409: E, 502: E },
      },
    },
    async (req) => ({
      success: true as const,
      data: await presentOne(
        deps.db,
        await actions.approve(deps, keyPrincipal(req), req.params.id, req.params.registrationId),
      ),
    }),
  );
