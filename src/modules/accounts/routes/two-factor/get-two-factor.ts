import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import type { OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as twoFactor from '../../two-factor.js';
import type { AccountsDeps } from '../account.js';
import { SESSION } from './two-factor.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      enabled: true,
      recoveryCodesLeft: 9,
      enrolmentRequired: false,
      organisationRequires: false,
    },
  },
};

export const getTwoFactor: Operation<AccountsDeps> = (app, deps) =>
  app.get(
    '/dashboard/api/two-factor',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'getTwoFactor',
        tags: ['dashboard'],
        summary: 'The signed-in person’s two-factor sign-in',
        description:
          'Whether two-factor (TOTP) is on for the person, how many recovery codes are left, whether they must enrol before anything else, and whether the organisation the session works in requires it.',
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              enabled: Type.Boolean(),
              recoveryCodesLeft: Type.Integer({ minimum: 0 }),
              enrolmentRequired: Type.Boolean({
                description:
                  'Two-factor is off and an organisation the person belongs to requires it: until they enrol, every route but their own sign-in answers 403 `two_factor_enrolment_required`.',
              }),
              organisationRequires: Type.Boolean({
                description:
                  'Whether the organisation this session works in requires two-factor of its members.',
              }),
            }),
            'The person’s two-factor sign-in.',
          ),
        },
      },
    },
    async (req) => {
      const s = sessionPrincipal(req);
      const [st, requires] = await Promise.all([
        twoFactor.status(deps.db, s.personId),
        twoFactor.isRequiredBy(deps.db, s.userId),
      ]);
      return { success: true as const, ...st, organisationRequires: requires };
    },
  );
