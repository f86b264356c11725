import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as twoFactor from '../../two-factor.js';
import type { AccountsDeps } from '../account.js';
import { EXAMPLE_CODES, PROOF_TEXT, Proof, RecoveryCodes, SESSION } from './two-factor.js';

const examples: OperationExamples = {
  requests: { default: { value: { code: EX.totpCode } } },
  responses: { '200': { success: true, recoveryCodes: EXAMPLE_CODES } },
};

export const regenerateRecoveryCodes: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/two-factor/recovery-codes',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'regenerateRecoveryCodes',
        tags: ['dashboard'],
        summary: 'Replace the recovery codes',
        description: `${PROOF_TEXT} Answers ten new recovery codes, shown this once; the earlier ones stop working. Not on: 409 \`two_factor_not_enabled\`.`,
        body: Proof,
        response: {
          200: answer(RecoveryCodes, 'The new recovery codes.'),
          400: Type.Ref('Error'),
          401: Type.Ref('Error'),
          409: Type.Ref('Error'),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const r = await twoFactor.regenerateRecoveryCodes(deps, sessionPrincipal(req).personId, req.body);
      return { success: true as const, ...r };
    },
  );
