import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import type { OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as twoFactor from '../../two-factor.js';
import type { AccountsDeps } from '../account.js';
import { SESSION } from './two-factor.js';

const examples: OperationExamples = {
  requests: { default: { value: { required: true } } },
  responses: { '200': { success: true, required: true } },
};

export const setTwoFactorRequirement: Operation<AccountsDeps> = (app, deps) =>
  app.put(
    '/dashboard/api/two-factor/requirement',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'setTwoFactorRequirement',
        tags: ['dashboard'],
        summary: 'Require two-factor sign-in of the organisation’s members',
        description:
          'Owners and admins (others: 403 `role_forbidden`). While required, a member without two-factor reaches only their own sign-in routes (two-factor, password, sign-out, choosing an organisation), in this organisation and in any other they belong to; everything else answers 403 `two_factor_enrolment_required` and the dashboard sends them to its two-factor page. Turning it on needs the caller’s own two-factor first (409 `two_factor_not_enabled`). A change is recorded in the live-mode audit log (`organisation.two_factor_requirement`).',
        body: Type.Object({ required: Type.Boolean() }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), required: Type.Boolean() }),
            'The setting now.',
          ),
          403: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const s = sessionPrincipal(req);
      await twoFactor.setRequired(deps, s, req.body.required);
      return { success: true as const, required: req.body.required };
    },
  );
