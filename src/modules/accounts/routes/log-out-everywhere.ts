import { sessionPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as passwords from '../password-changes.js';
import { type AccountsDeps, OK, SESSION } from './account.js';

const examples: OperationExamples = { responses: { '200': { success: true } } };

export const logOutEverywhere: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/logout-everywhere',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'logOutEverywhere',
        tags: ['dashboard'],
        summary: 'Sign out everywhere',
        description:
          'Ends every session of the account: every idToken issued so far (this one included) answers 401 `session_ended`, every dashboard session is deleted, and device cookies lose their standing.',
        response: { 200: answer(OK, 'Every session token issued so far is refused from now on.') },
      },
    },
    async (req) => {
      await passwords.logoutEverywhere(deps, sessionPrincipal(req).personId);
      return { success: true as const };
    },
  );
