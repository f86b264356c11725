import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { addressKey } from '../../../http/client-address.js';
import * as accounts from '../accounts.service.js';
import { type AccountsDeps, PUBLIC, Session, sessionExample } from './account.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: { email: EX.organiserEmail, password: EX.password, name: 'Asha Rao', phone: '+919812345678' },
    },
  },
  responses: { '201': sessionExample },
};

export const signUp: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/signup',
    {
      config: { auth: PUBLIC, examples },
      schema: {
        operationId: 'signUp',
        tags: ['dashboard'],
        summary: 'Create an account',
        description:
          'A new account has `isOrganizer: true` and `canPublish: false`. Emails are case-insensitive. A verification mail with a link `{BASE_URL}/auth/verify?token=…` (valid 48 hours, single use) is sent to the address; until the owner confirms it, signed in to this account (see `GET /auth/verify`), the account has `emailVerified: false`. Test keys work at once. One client address (an IPv6 client by its /64) may sign up `SIGNUP_LIMIT_PER_HOUR` times an hour (default 10), then 429 `too_many_signups` with `Retry-After`; one email address gets at most `VERIFY_MAIL_LIMIT_PER_HOUR` verification mails an hour (default 5), this one and resends together.',
        body: Type.Object(
          {
            email: Type.String({ maxLength: 254 }),
            password: Type.String({ minLength: 10, maxLength: 1024 }),
            name: Type.String({ minLength: 1, maxLength: 200 }),
            phone: Type.Optional(Type.String({ maxLength: 32 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(Session, 'The account was created; the session token is for the dashboard API.'),
          409: Type.Ref('Error'),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await accounts.signup(deps, req.body, { clientAddress: addressKey(req.ip) })),
  );
