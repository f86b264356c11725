import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as accounts from '../accounts.service.js';
import * as passwords from '../password-changes.js';
import { type AccountsDeps, OK, PUBLIC } from './account.js';

const examples: OperationExamples = {
  requests: { default: { value: { email: EX.organiserEmail } } },
  responses: { '202': { success: true } },
};

export const requestPasswordReset: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/password/forgot',
    {
      config: { auth: PUBLIC, examples },
      schema: {
        operationId: 'requestPasswordReset',
        tags: ['dashboard'],
        summary: 'Ask for a password reset link',
        description: `Always answers 202 the same way, whether or not an account has the address. For an existing account a mail with \`{BASE_URL}/auth/password/reset?token=…\` is sent (single use, valid 60 minutes, stored only as a hash); at most ${accounts.RESET_MAIL_LIMIT.limit} such mails an hour per account (more requests are answered alike and send nothing). 400 \`invalid_email\` only for text that is not an address at all.`,
        body: Type.Object({ email: Type.String({ maxLength: 254 }) }, { additionalProperties: false }),
        response: {
          202: answer(
            OK,
            'Accepted; a link is mailed if the address has an account (the answer never says whether it has).',
          ),
          400: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      await passwords.forgotPassword(deps, req.body.email);
      return reply.code(202).send({ success: true as const });
    },
  );
