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
      data: { ...EXAMPLE_REGISTRATION, status: 'cancelled', name: 'Attendee', email: 'attendee@example.in' },
    },
  },
};

export const cancelRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/registrations/:registrationId/cancel',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'cancelRegistration',
        tags: ['registrations'],
        summary: 'Cancel a registration',
        description:
          'Frees its seats; a paid one is refunded in full. A paid one is claimed first (status `refunding`), then refunded at the gateway with an idempotency key derived from the booking and the change: of any number of concurrent changes to one booking exactly one acts, the others answer 409 `registration_changed` and move no money. The gateway refusing answers 502 `gateway_refused` and changes nothing; a gateway that does not answer gives 502 `gateway_error` and the booking stays `refunding` until the reconciliation sweep, asking again with the same key, completes it.',
        params: RegParams,
        response: { 200: answer(RegAnswer, 'The registration, now cancelled.'), 404: E, 409: E, 502: E },
      },
    },
    async (req) => ({
      success: true as const,
      data: await presentOne(
        deps.db,
        await actions.end(deps, keyPrincipal(req), req.params.id, req.params.registrationId, 'cancelled'),
      ),
    }),
  );
