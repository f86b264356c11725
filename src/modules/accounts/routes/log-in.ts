import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { addressKey } from '../../../http/client-address.js';
import * as accounts from '../accounts.service.js';
import { login } from '../sign-in.js';
import { deviceSetCookie, readDeviceCookie } from '../devices.js';
import { type AccountsDeps, PUBLIC, Session, sessionExample, TwoFactorChallenge } from './account.js';

const examples: OperationExamples = {
  requests: { default: { value: { email: EX.organiserEmail, password: EX.password } } },
  responses: { '200': sessionExample },
};

export const logIn: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/auth/login',
    {
      config: { auth: PUBLIC, examples },
      schema: {
        operationId: 'logIn',
        tags: ['dashboard'],
        summary: 'Log in and get a session token',
        description: [
          'A wrong password and an unknown email answer the same 401 `invalid_credentials` (both run one password check).',
          `Failed sign-ins are counted per (account, client address): after ${accounts.LOGIN_PAIR_LIMIT.limit} in a fixed 15-minute window that address gets 429 \`too_many_attempts\` with \`Retry-After\` for that account, whatever the password; other addresses are not affected. A client address is also limited to ${accounts.LOGIN_ADDRESS_LIMIT.limit} failures over all accounts.`,
          'A successful sign-in sets the device cookie `svc_device` (HttpOnly, Secure, SameSite=Lax, a year; signed, nothing stored server-side). A browser that sends it back for the same account is counted on its own (account, device) bucket of the same size, and is not limited by anyone else\'s failures — neither per address nor the account-wide lock below. A password reset or "sign out everywhere" ends its standing.',
          'A person with two-factor sign-in on gets no session yet: the answer is `{ twoFactorRequired: true, challenge, expiresAt }`, and `POST /auth/login/two-factor` with the challenge and a code (or a recovery code) answers the session. The password attempt is not counted as a failure; a wrong code is.',
          `Past ${accounts.LOGIN_ACCOUNT_LOCK.limit} failures for one account from all addresses in 15 minutes, sign-in to it is locked until its password is reset: 403 \`password_reset_required\` (an unknown email answers the same while its counter is over), and a reset link is mailed to the owner once. The reset clears the account's failure count with the lock, so the owner signs in at once and only a fresh run of failures locks it again.`,
        ].join('\n\n'),
        body: Type.Object(
          { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Union([Session, TwoFactorChallenge]),
            'A new session token, or, for a person with two-factor on, the challenge for the code.',
          ),
          401: Type.Ref('Error'),
          403: Type.Ref('Error'),
          429: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const r = await login(deps, req.body, addressKey(req.ip), readDeviceCookie(req.headers.cookie));
      if ('twoFactorRequired' in r) return r;
      const { device, ...session } = r;
      reply.header('set-cookie', deviceSetCookie(device));
      return session;
    },
  );
