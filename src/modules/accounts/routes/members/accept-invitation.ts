import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import { EventsSchema, type MembersRouteDeps, RoleSchema, SESSION } from './member.js';

const examples: OperationExamples = {
  requests: { default: { value: { token: EX.invitationToken } } },
  responses: {
    '200': {
      success: true,
      organisationId: EX.userId,
      role: 'finance',
      events: null,
      idToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlcCI6MCwib3JnIjoidXNyX1YxYzNuQjhxTG0yeFQwYVoifQ.sig',
      expiresAt: '2026-11-25T19:51:24.000Z',
    },
  },
};

export const acceptInvitation: Operation<MembersRouteDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/invitations/accept',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'acceptInvitation',
        tags: ['dashboard'],
        summary: 'Accept an invitation, signed in with the invited address',
        description:
          'Takes the token of the mailed link. The session must be of the person whose address was invited (sign up with it first if they have no account): another address answers 403 `invitation_other_address`; an unknown, used, withdrawn or expired (7 days) token 404 `invitation_not_found`. Accepting proves the address (it is marked verified) and answers a session token that works in the organisation joined.',
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 128 }) },
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
            'Joined; `idToken` works in that organisation.',
          ),
          403: Type.Ref('Error'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const s = sessionPrincipal(req);
      const joined = await members.accept(deps, { personId: s.personId, email: s.email }, req.body.token);
      const t = await members.tokenFor(deps, s.personId, joined.organisationId);
      return {
        success: true as const,
        organisationId: joined.organisationId,
        role: joined.role,
        events: joined.events,
        idToken: t.idToken,
        expiresAt: t.expiresAt,
      };
    },
  );
