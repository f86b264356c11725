import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import {
  actorOf,
  EventsSchema,
  type MembersRouteDeps,
  membersDeps,
  ROLE_TEXT,
  RoleSchema,
  SESSION,
} from './member.js';

const examples: OperationExamples = {
  params: { userId: EX.memberUserId },
  requests: { default: { value: { role: 'viewer' } } },
  responses: { '200': { success: true, data: { userId: EX.memberUserId, role: 'viewer', events: null } } },
};

export const changeMember: Operation<MembersRouteDeps> = (app, deps) =>
  app.patch(
    '/dashboard/api/members/:userId',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'changeMember',
        tags: ['dashboard'],
        summary: "Change a member's role (and events)",
        description:
          'Owners and admins. Only an owner makes, demotes or changes an owner (403 `owner_only`); the last owner cannot be demoted (409 `last_owner`). `events` as on invitation.',
        params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
        body: Type.Object(
          {
            role: Type.String({ maxLength: 30, description: ROLE_TEXT }),
            events: Type.Optional(EventsSchema),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({ userId: Type.String(), role: RoleSchema, events: EventsSchema }),
            }),
            'The member as they are now.',
          ),
          400: Type.Ref('Error'),
          403: Type.Ref('Error'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const row = await members.changeMember(membersDeps(deps), actorOf(req), req.params.userId, req.body);
      return { success: true as const, data: { userId: row.user_id, role: row.role, events: row.event_ids } };
    },
  );
