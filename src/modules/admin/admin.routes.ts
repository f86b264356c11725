import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import * as accounts from '../accounts/accounts.service.js';

export const adminRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/admin/api/accounts/:userId/organiser-access',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Grant or remove organiser access (publishing) for an account',
          params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
          body: Type.Object({ canPublish: Type.Boolean() }, { additionalProperties: false }),
          response: {
            200: Type.Object({ success: Type.Literal(true), data: Type.Object({ userId: Type.String(), canPublish: Type.Boolean() }) }),
            404: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        const user = await accounts.setOrganiserAccess(deps.db, req.params.userId, req.body.canPublish);
        req.log.info({ staff: req.principal?.userId, userId: user.id, canPublish: user.can_publish }, 'organiser access changed');
        return { success: true as const, data: { userId: user.id, canPublish: user.can_publish } };
      },
    );
  };
