import { Type } from 'typebox';
import { addressKey } from '../../../http/client-address.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { deviceSetCookie, readDeviceCookie } from '../devices.js';
import { completeTwoFactor } from '../sign-in.js';
import { type AccountsDeps, PUBLIC, Session, sessionExample } from './account.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        challenge: EX.twoFactorChallenge,
        code: EX.totpCode,
      },
    },
  },
  responses: { '200': sessionExample },
};

export const logInTwoFactor: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/login/two-factor',
    {
      config: { auth: PUBLIC, examples },
      schema: {
        operationId: 'logInTwoFactor',
        tags: ['dashboard'],
        summary: 'Finish signing in with a two-factor code or a recovery code',
        description: [
          'The second step after `POST /auth/login` answered `twoFactorRequired`: the `challenge` (valid 5 minutes) with the 6-digit `code` of the authenticator app (one 30-second step either side is accepted) or one of the `recoveryCode`s (each works once, also under concurrent use).',
          'A code is taken once: a code of the same or an earlier time step than the last one taken is refused. A wrong, reused or used-up code answers 401 `invalid_two_factor_code` and counts as a failed sign-in on the same limits as a wrong password (429 `too_many_attempts`, and past the account-wide count 403 `password_reset_required`). An expired or forged challenge, or one issued before the sessions were ended: 401 `invalid_two_factor_challenge`.',
          'Success answers the session and sets the device cookie, as `POST /auth/login` does.',
        ].join('\n\n'),
        body: Type.Object(
          {
            challenge: Type.String({ maxLength: 2000 }),
            code: Type.Optional(Type.String({ maxLength: 6, pattern: '^[0-9]{6}$' })),
            recoveryCode: Type.Optional(Type.String({ maxLength: 40 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(Session, 'A new session token.'),
          401: Type.Ref('Error'),
          403: Type.Ref('Error'),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const { device, ...session } = await completeTwoFactor(
        deps,
        req.body,
        addressKey(req.ip),
        readDeviceCookie(req.headers.cookie),
      );
      reply.header('set-cookie', deviceSetCookie(device));
      return session;
    },
  );
