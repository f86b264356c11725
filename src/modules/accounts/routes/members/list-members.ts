import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import {
  Invitation,
  Member,
  type MembersRouteDeps,
  presentInvitation,
  presentMember,
  SESSION,
} from './member.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: [
        {
          userId: EX.userId,
          email: EX.organiserEmail,
          name: 'Asha Rao',
          role: 'owner',
          events: null,
          joinedAt: '2026-11-25T07:51:24.908Z',
          twoFactor: true,
        },
      ],
      invitations: [
        {
          id: EX.invitationId,
          email: EX.memberEmail,
          role: 'finance',
          events: null,
          invitedBy: EX.userId,
          createdAt: '2026-11-25T07:51:24.908Z',
          expiresAt: '2026-12-02T07:51:24.908Z',
        },
      ],
    },
  },
};

export const listMembers: Operation<MembersRouteDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/members',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'listOrganisationMembers',
        tags: ['dashboard'],
        summary: "The organisation's members and its open invitations",
        description:
          'Owners and admins (others: 403 `role_forbidden`). Members owners first, each with `twoFactor` (whether they sign in with two-factor); invitations not yet accepted, withdrawn or expired, newest first.',
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Array(Member),
              invitations: Type.Array(Invitation),
            }),
            'The members and the open invitations.',
          ),
        },
      },
    },
    async (req) => {
      const r = await members.listMembers(deps, sessionPrincipal(req).userId);
      return {
        success: true as const,
        data: r.members.map(presentMember),
        invitations: r.invitations.map(presentInvitation),
      };
    },
  );
