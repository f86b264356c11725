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
      data: { ...EXAMPLE_REGISTRATION, status: 'cancelled', confirmedAt: null },
    },
  },
};

export const rejectRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/registrations/:registrationId/reject',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'rejectRegistration',
        tags: ['registrations'],
        summary: 'Reject a registration awaiting approval',
        description: 'It ends cancelled.',
        params: RegParams,
        response: { 200: answer(RegAnswer, 'The registration, now rejected.'), 404: E, 409: E, 502: E },
      },
    },
    async (req) => ({
      success: true as const,
      data: await presentOne(
        deps.db,
        await actions.reject(deps, keyPrincipal(req), req.params.id, req.params.registrationId),
      ),
    }),
  );
