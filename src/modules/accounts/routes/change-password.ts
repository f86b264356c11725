import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as accounts from '../accounts.service.js';
import * as passwords from '../password-changes.js';
import { type AccountsDeps, NEW_PASSWORD, SESSION, Session } from './account.js';

const examples: OperationExamples = {
  requests: { default: { value: { currentPassword: EX.newPassword, newPassword: EX.changedPassword } } },
  responses: {
    '200': {
      userId: EX.userId,
      idToken:
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlcCI6Miwic3ViIjoidXNyX1lxaHJsVmlMbE9Oa1VPbE8iLCJpc3MiOiJ0aWNrZXRpbmctc2VydmljZSIsImF1ZCI6ImRhc2hib2FyZCIsImlhdCI6MTc5NTU5MzA4NCwiZXhwIjoxNzk1NjM2Mjg0fQ.3yWEjOQb75IJ3FJFXg-Na0ueuDL3xg7V3YsJpw8hEkI',
      expiresAt: '2026-11-25T19:51:24.000Z',
      emailVerified: true,
    },
  },
};

export const changePassword: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/password/change',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'changePassword',
        tags: ['dashboard'],
        summary: 'Change the password (signed in)',
        description: `Checks \`currentPassword\` (403 \`wrong_password\`; after ${accounts.CHANGE_LIMIT.limit} wrong ones in 15 minutes 429 \`too_many_attempts\`), sets \`newPassword\`, ends every other session of the account (earlier idTokens answer 401 \`session_ended\`, dashboard sessions are deleted) and mails a notice. Answers a new session for the caller.`,
        body: Type.Object(
          { currentPassword: Type.String({ maxLength: 1024 }), newPassword: NEW_PASSWORD },
          { additionalProperties: false },
        ),
        response: {
          200: answer(Session, 'The password is changed; this new session token replaces the old ones.'),
          400: Type.Ref('Error'),
          403: Type.Ref('Error'),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req) => passwords.changePassword(deps, sessionPrincipal(req).personId, req.body),
  );
