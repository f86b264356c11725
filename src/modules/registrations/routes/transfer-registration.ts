import { EXAMPLE_REGISTRATION } from './registration-example.js';
import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as actions from '../actions.service.js';
import type { RegisterDeps } from '../register.service.js';
import { presentOne } from '../registrations.present.js';
import { E, RegAnswer, RegParams } from '../registrations.schemas.js';

const examples: OperationExamples = {
  requests: { default: { value: { name: 'Dev Mehta', email: 'dev.mehta@example.in' } } },
  responses: {
    '200': {
      success: true,
      data: {
        ...EXAMPLE_REGISTRATION,
        kept: 499,
        name: 'Dev Mehta',
        email: 'dev.mehta@example.in',
        phone: '+919812345678',
        amount: 499,
        customFields: { company: 'Acme' },
        ticketCode: 'tkt_cP1I5N9iKWsjtVRSQTt73Q',
      },
    },
  },
};

export const transferRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/registrations/:registrationId/transfer',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'transferRegistration',
        tags: ['registrations'],
        summary: 'Transfer a confirmed ticket to someone else',
        description:
          'Issues a new `ticketCode` (the QR payload from then on) and emails the new holder; the old QR is refused at the door with `reason: transferred`.',
        params: RegParams,
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            email: Type.String({ minLength: 3, maxLength: 254 }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(RegAnswer, 'The registration, now in the new holder’s name.'),
          404: E,
          409: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await presentOne(
        deps.db,
        await actions.transfer(deps, keyPrincipal(req), req.params.id, req.params.registrationId, req.body),
      ),
    }),
  );
