import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as twoFactor from '../../accounts/two-factor.js';
import { type AdminDeps, STAFF } from './admin.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: { reason: 'Lost phone and codes; identity checked on a video call against their PAN card' },
    },
  },
  responses: { '200': { success: true, data: { userId: EX.userId, twoFactor: false } } },
};

export const resetTwoFactor: Operation<AdminDeps> = (app, deps) =>
  app.post(
    '/admin/api/accounts/:userId/two-factor/reset',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'resetTwoFactor',
        tags: ['admin'],
        summary: 'Turn off a person’s two-factor sign-in (lost phone and recovery codes)',
        description:
          'Platform staff turn two-factor off for a person who has lost both their authenticator and their recovery codes, after proving who they are outside the service. `reason` (how they were identified) goes into the audit log (`account.two_factor_reset`), and the person is mailed a notice. An organisation that requires two-factor sends them to enrolment at their next sign-in. 409 `two_factor_not_enabled` when they have none.',
        params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
        body: Type.Object(
          { reason: Type.String({ minLength: 1, maxLength: 500 }) },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({ userId: Type.String(), twoFactor: Type.Literal(false) }),
            }),
            'Two-factor is off for the person.',
          ),
          400: Type.Ref('Error'),
          404: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      await twoFactor.resetByStaff(deps, sessionPrincipal(req), req.params.userId, req.body.reason);
      req.log.info({ staff: req.principal?.userId, userId: req.params.userId }, 'two-factor reset by staff');
      return { success: true as const, data: { userId: req.params.userId, twoFactor: false as const } };
    },
  );
