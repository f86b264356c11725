import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as twoFactor from '../../two-factor.js';
import type { AccountsDeps } from '../account.js';
import { CODE, EXAMPLE_CODES, RecoveryCodes, SESSION } from './two-factor.js';

const examples: OperationExamples = {
  requests: { default: { value: { code: EX.totpCode } } },
  responses: { '200': { success: true, recoveryCodes: EXAMPLE_CODES } },
};

export const confirmTwoFactorEnrolment: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/two-factor/confirm',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'confirmTwoFactorEnrolment',
        tags: ['dashboard'],
        summary: 'Finish setting up two-factor sign-in with a first code',
        description:
          'A valid code of the secret from `POST /dashboard/api/two-factor/enrol` (one 30-second step either side is accepted) turns two-factor on and answers ten recovery codes, shown this once. Wrong code: 401 `invalid_two_factor_code`; not started: 409 `two_factor_enrolment_not_started`; already on: 409 `two_factor_already_enabled`.',
        body: Type.Object({ code: CODE }, { additionalProperties: false }),
        response: {
          200: answer(RecoveryCodes, 'Two-factor is on; the recovery codes.'),
          401: Type.Ref('Error'),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const r = await twoFactor.confirmEnrolment(deps, sessionPrincipal(req).personId, req.body.code);
      return { success: true as const, ...r };
    },
  );
