import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import { actorOf, type MembersRouteDeps, membersDeps, SESSION } from './member.js';

const examples: OperationExamples = {
  params: { userId: EX.memberUserId },
  responses: { '200': { success: true, removed: EX.memberUserId } },
};

export const removeMember: Operation<MembersRouteDeps> = (app, deps) =>
  app.delete(
    '/dashboard/api/members/:userId',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'removeMember',
        tags: ['dashboard'],
        summary: 'Remove a member (or leave)',
        description:
          'Owners and admins; an owner or admin may remove themselves (leave). Only an owner removes another owner (403 `owner_only`); the last owner cannot leave (409 `last_owner`). What the member made (events, keys, webhooks) stays the organisation’s; the audit log keeps their name.',
        params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), removed: Type.String() }), 'Removed.'),
          403: Type.Ref('Error'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      await members.removeMember(membersDeps(deps), actorOf(req), req.params.userId);
      return { success: true as const, removed: req.params.userId };
    },
  );
