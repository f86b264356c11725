import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { appError } from '../../../lib/errors.js';
import * as accounts from '../accounts.service.js';
import { type AccountsDeps, TOKEN } from './account.js';

const examples: OperationExamples = {
  requests: { default: { value: { token: EX.verificationToken } } },
  responses: { '200': { success: true, emailVerified: true } },
};

export const verifyEmail: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/verify',
    {
      config: { auth: { kind: 'session', refusal: 'session_required' }, examples },
      schema: {
        operationId: 'verifyEmail',
        tags: ['dashboard'],
        summary: 'Verify the email address with the token of the verification mail',
        description:
          "Marks the address verified, only with a session of the account the token was issued to: `Authorization: Bearer <idToken>` of that account (the dashboard confirms through its own form, with the session cookie and the form's CSRF token). Without one, or with another account's session: 401 `session_required`, and nothing changes. 400 `invalid_verification_token` (unknown), `verification_token_expired` (older than 48 hours) or `verification_token_used` (a token works once).",
        body: Type.Object({ token: TOKEN }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(true) }),
            'The email address is verified.',
          ),
          400: Type.Ref('Error'),
          401: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const outcome = await accounts.verifyEmail(deps, req.body.token, sessionPrincipal(req).personId);
      if (!outcome.ok) throw appError(outcome.code, outcome.message);
      return { success: true as const, emailVerified: true as const };
    },
  );
