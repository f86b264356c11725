import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as passwords from '../password-changes.js';
import { type AccountsDeps, NEW_PASSWORD, PUBLIC, RESET_TOKEN } from './account.js';

const examples: OperationExamples = {
  requests: { default: { value: { token: EX.resetToken, password: EX.newPassword } } },
  responses: { '200': { success: true, emailVerified: true } },
};

export const resetPassword: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/password/reset',
    {
      config: { auth: PUBLIC, examples },
      schema: {
        operationId: 'resetPassword',
        tags: ['dashboard'],
        summary: 'Set a new password with the token of the reset link',
        description:
          "Sets the password, marks the address verified (the mailbox proved it), lifts a sign-in lock, ends every session of the account (idTokens issued before are refused with 401 `session_ended`; dashboard sessions are deleted; device cookies lose their standing) and mails a notice. The token works once, for 60 minutes, and using it ends the account's other reset links. API keys are not revoked: an owner taking back an account someone else created should review its keys. 400 `invalid_reset_token` (unknown, used or expired; the sentence says which), `weak_password`.",
        body: Type.Object({ token: RESET_TOKEN, password: NEW_PASSWORD }, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(true) }),
            'The password is changed and every older session ends.',
          ),
          400: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      await passwords.resetPassword(deps, req.body);
      return { success: true as const, emailVerified: true as const };
    },
  );
