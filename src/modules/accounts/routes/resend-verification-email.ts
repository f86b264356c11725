import { Type } from 'typebox';
import { sessionPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as accounts from '../accounts.service.js';
import { type AccountsDeps, SESSION } from './account.js';

const examples: OperationExamples = { responses: { '202': { success: true, emailVerified: false } } };

export const resendVerificationEmail: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/verify/resend',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'resendVerificationEmail',
        tags: ['dashboard'],
        summary: 'Send a new verification mail',
        description: `Queues a new verification mail to the account's address (earlier links stay valid until they expire). One email address gets at most \`VERIFY_MAIL_LIMIT_PER_HOUR\` verification mails an hour (default 5), the sign-up's own included (429 \`too_many_attempts\` with \`Retry-After\` beyond); 409 \`email_already_verified\` when there is nothing to verify.`,
        response: {
          202: answer(
            Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(false) }),
            'A new verification mail is queued (or the address is already verified).',
          ),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      await accounts.resendVerification(deps, sessionPrincipal(req).personId);
      return reply.code(202).send({ success: true as const, emailVerified: false as const });
    },
  );
