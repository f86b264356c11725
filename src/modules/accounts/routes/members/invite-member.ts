import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import {
  actorOf,
  EventsSchema,
  Invitation,
  type MembersRouteDeps,
  membersDeps,
  presentInvitation,
  ROLE_TEXT,
  SESSION,
} from './member.js';

const examples: OperationExamples = {
  requests: { default: { value: { email: EX.memberEmail, role: 'finance' } } },
  responses: {
    '201': {
      success: true,
      data: {
        id: EX.invitationId,
        email: EX.memberEmail,
        role: 'finance',
        events: null,
        invitedBy: EX.userId,
        createdAt: '2026-11-25T07:51:24.908Z',
        expiresAt: '2026-12-02T07:51:24.908Z',
      },
    },
  },
};

export const inviteMember: Operation<MembersRouteDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/members',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'inviteMember',
        tags: ['dashboard'],
        summary: 'Invite a person to the organisation by email',
        description: [
          'Owners and admins. Mails a link to `email` that works for 7 days, for that address only: the person accepts it signed in (or after signing up) with that address (`POST /dashboard/api/invitations/accept`). A new invitation to the same address replaces the open one.',
          '`events` limits an `event_manager` (optional) or a `door` member (required) to those events of the organisation (400 `invalid_member_events` otherwise). Only an owner may invite an owner (403 `owner_only`); a member already (409 `already_member`).',
        ].join(' '),
        body: Type.Object(
          {
            email: Type.String({ minLength: 3, maxLength: 254 }),
            role: Type.String({ maxLength: 30, description: ROLE_TEXT }),
            events: Type.Optional(EventsSchema),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(
            Type.Object({ success: Type.Literal(true), data: Invitation }),
            'The invitation; its link is only in the mail.',
          ),
          400: Type.Ref('Error'),
          403: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const row = await members.invite(membersDeps(deps), actorOf(req), req.body);
      return reply.code(201).send({ success: true as const, data: presentInvitation(row) });
    },
  );
