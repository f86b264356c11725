import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as members from '../../members.service.js';
import { actorOf, type MembersRouteDeps, membersDeps, SESSION } from './member.js';

const examples: OperationExamples = {
  responses: { '200': { success: true, withdrawn: EX.invitationId } },
};

export const withdrawInvitation: Operation<MembersRouteDeps> = (app, deps) =>
  app.delete(
    '/dashboard/api/invitations/:invitationId',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'withdrawInvitation',
        tags: ['dashboard'],
        summary: 'Withdraw an invitation not yet accepted',
        description: 'Owners and admins. Its link stops working at once.',
        params: Type.Object({ invitationId: Type.String({ maxLength: 100 }) }),
        response: {
          200: answer(Type.Object({ success: Type.Literal(true), withdrawn: Type.String() }), 'Withdrawn.'),
          404: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      await members.withdrawInvitation(membersDeps(deps), actorOf(req), req.params.invitationId);
      return { success: true as const, withdrawn: req.params.invitationId };
    },
  );
