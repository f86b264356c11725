import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { WaitlistDeps } from '../waitlist.service.js';
import * as waitlist from '../waitlist.service.js';
import { IdParams, E, RULES } from './waitlist-entry.js';

const examples: OperationExamples = {
  requests: { default: { value: { name: 'Kiran Shah', email: 'kiran@example.in' } } },
  responses: { '201': { success: true, status: 'waiting', position: 1 } },
};

export const joinWaitlist: Operation<WaitlistDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/waitlist',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'joinWaitlist',
        tags: ['waitlist'],
        summary: 'Join the waitlist of a sold-out event, track or tier',
        description: [
          'Takes a name only when what is asked for is sold out (409 `seats_available` otherwise) and the event (or the track) has `waitlist.enabled` (409 `waitlist_closed`). A checkout key may call it; the answer carries nothing personal, only where the person stands. The same email for the same choice keeps its place (the same answer again).',
          RULES,
        ].join('\n\n'),
        params: IdParams,
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            email: Type.String({ minLength: 3, maxLength: 254 }),
            subEventId: Type.Optional(
              Type.String({ maxLength: 10, description: 'A track index: wait for that track.' }),
            ),
            ticketType: Type.Optional(
              Type.String({ maxLength: 80, description: 'A tier’s name: wait for that tier.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(
            Type.Object({
              success: Type.Literal(true),
              status: Type.Union([Type.Literal('waiting'), Type.Literal('offered')], {
                description: '`offered`: this email already holds an offer for this choice.',
              }),
              position: Type.Integer({
                description: 'Place in the queue for this choice, from 1 (0 when holding an offer).',
              }),
            }),
            'On the waitlist, at this position.',
          ),
          400: E,
          404: E,
          409: E,
        },
      },
    },
    async (req, reply) => {
      const joined = await waitlist.join(deps, keyPrincipal(req), req.params.id, req.body);
      return reply.code(201).send({ success: true as const, ...joined });
    },
  );
