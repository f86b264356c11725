import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as twoFactor from '../../two-factor.js';
import { type AccountsDeps, OK } from '../account.js';
import { PROOF_TEXT, Proof, SESSION } from './two-factor.js';

const examples: OperationExamples = {
  requests: { default: { value: { code: EX.totpCode } } },
  responses: { '200': { success: true } },
};

export const disableTwoFactor: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/two-factor/disable',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'disableTwoFactor',
        tags: ['dashboard'],
        summary: 'Turn two-factor sign-in off',
        description: `${PROOF_TEXT} Deletes the secret and the recovery codes. Not on: 409 \`two_factor_not_enabled\`. In an organisation that requires two-factor the person is then sent to enrolment again.`,
        body: Proof,
        response: {
          200: answer(OK, 'Two-factor is off.'),
          400: Type.Ref('Error'),
          401: Type.Ref('Error'),
          409: Type.Ref('Error'),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      await twoFactor.disable(deps, sessionPrincipal(req).personId, req.body);
      return { success: true as const };
    },
  );
