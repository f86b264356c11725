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
      data: {
        ...EXAMPLE_REGISTRATION,
        kept: 499,
        name: 'Asha Rao',
        email: 'asha@example.in',
        phone: '+919812345678',
        amount: 499,
        customFields: { company: 'Acme' },
      },
    },
  },
};

export const getRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/registrations/:registrationId',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getRegistration',
        tags: ['registrations'],
        summary: 'One registration',
        description:
          'One registration of the event with its attendees, answers, payment state and check-ins.',
        params: RegParams,
        response: { 200: answer(RegAnswer, 'The registration.'), 404: E },
      },
    },
    async (req) => ({
      success: true as const,
      data: await presentOne(
        deps.db,
        await actions.loadOwnedRegistration(
          deps.db,
          keyPrincipal(req),
          req.params.id,
          req.params.registrationId,
        ),
      ),
    }),
  );
