import { Type } from 'typebox';
import { sessionPrincipal } from '../../../../http/auth.js';
import { EX, type OperationExamples } from '../../../../http/examples.js';
import { answer, type Operation } from '../../../../http/operation.js';
import * as twoFactor from '../../two-factor.js';
import type { AccountsDeps } from '../account.js';
import { EXAMPLE_SECRET, SESSION } from './two-factor.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      secret: EXAMPLE_SECRET,
      otpauthUri: `otpauth://totp/Ticketing:${encodeURIComponent(EX.organiserEmail)}?secret=${EXAMPLE_SECRET}&issuer=Ticketing&algorithm=SHA1&digits=6&period=30`,
    },
  },
};

export const startTwoFactorEnrolment: Operation<AccountsDeps> = (app, deps) =>
  app.post(
    '/dashboard/api/two-factor/enrol',
    {
      config: { auth: SESSION, examples },
      schema: {
        operationId: 'startTwoFactorEnrolment',
        tags: ['dashboard'],
        summary: 'Start setting up two-factor sign-in',
        description:
          'Makes a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30-second steps) and answers it once, as text and as an `otpauth://` URI for a QR code; it is kept sealed (AES-256-GCM under `SECRETS_KEY`), never readable. Nothing changes at sign-in until `POST /dashboard/api/two-factor/confirm` takes a valid code; starting again replaces a secret not yet confirmed. Already on: 409 `two_factor_already_enabled`.',
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              secret: Type.String({ description: 'Base32, for typing into an authenticator app.' }),
              otpauthUri: Type.String({
                description: 'The same secret as an otpauth:// URI, for a QR code.',
              }),
            }),
            'The new secret, shown this once.',
          ),
          409: Type.Ref('Error'),
        },
      },
    },
    async (req) => {
      const s = sessionPrincipal(req);
      const r = await twoFactor.startEnrolment(deps, { id: s.personId, email: s.email });
      return { success: true as const, ...r };
    },
  );
