import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import { EventsSchema, type MembersRouteDeps, RoleSchema, SESSION } from './member.js';

const examples: OperationExamples = {
  requests: { default: { value: { organisationId: EX.userId } } },
  responses: {
    '200': {
      success: true,
      organisationId: EX.userId,
      role: 'owner',
      events: null,
      idToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlcCI6MCwib3JnIjoidXNyX1YxYzNuQjhxTG0yeFQwYVoifQ.sig',
      expiresAt: '2026-11-25T19:51:24.000Z',
    },
  },
};

export const chooseOrganisation: Operation<MembersRouteDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/organisations/current',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'chooseOrganisation',
        tags: ['dashboard'],
        summary: 'Work in another organisation the person belongs to',
        description:
          'Answers a new session token scoped to that organisation: every session route then answers for it, as the person’s role there allows. Not a member: 403 `role_forbidden`.',
        body: Type.Object(
          { organisationId: Type.String({ minLength: 1, maxLength: 100 }) },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              organisationId: Type.String(),
              role: RoleSchema,
              events: EventsSchema,
              idToken: Type.String(),
              expiresAt: Type.String({ format: 'date-time' }),
            }),
            'The token for that organisation.',
          ),
          403: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const t = await members.tokenFor(deps, sessionPrincipal(req).personId, req.body.organisationId);
      return { success: true as const, ...t };
    },
  );
