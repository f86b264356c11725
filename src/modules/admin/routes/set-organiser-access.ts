import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as publishing from '../../accounts/publishing.js';
import { type AdminDeps, STAFF } from './admin.js';

const examples: OperationExamples = {
  requests: { default: { value: { canPublish: true } } },
  responses: { '200': { success: true, data: { userId: EX.userId, canPublish: true } } },
};

export const setOrganiserAccess: Operation<AdminDeps> = (app, deps) =>
  app.post(
    '/admin/api/accounts/:userId/organiser-access',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'setOrganiserAccess',
        tags: ['admin'],
        summary: 'Grant or remove organiser access (publishing) for an account',
        description:
          'Platform staff grant or withdraw an account’s right to publish live events (`canPublish`).',
        params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
        body: Type.Object({ canPublish: Type.Boolean() }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({ userId: Type.String(), canPublish: Type.Boolean() }),
            }),
            'The account’s organiser access as it now stands.',
          ),
          404: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const user = await publishing.setOrganiserAccess(
        deps,
        sessionPrincipal(req),
        req.params.userId,
        req.body.canPublish,
      );
      req.log.info(
        { staff: req.principal?.userId, userId: user.id, canPublish: user.can_publish },
        'organiser access changed',
      );
      return { success: true as const, data: { userId: user.id, canPublish: user.can_publish } };
    },
  );
