import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { type AccountsDeps, PUBLIC, TOKEN } from './account.js';

const examples: OperationExamples = { params: { token: EX.verificationToken }, responses: {} };

export const openVerificationLink: Operation<AccountsDeps> = (app) =>
  app.get(
    '/auth/verify',
    {
      config: { auth: PUBLIC, examples },
      schema: {
        operationId: 'openVerificationLink',
        tags: ['dashboard'],
        summary:
          'Open the verification link (leads to the dashboard, which confirms for the signed-in owner)',
        description:
          "The link of the verification mail: 303 to `/dashboard/verify?token=…`. There, signed in to the account the token was issued to, the address is confirmed at once, with no further button; signed out, the dashboard asks to sign in and comes back to confirm. Opening the link without a session of that account changes nothing (mail scanners open links). Programs confirm with `POST /auth/verify` and the account's idToken.",
        querystring: Type.Object({ token: Type.Optional(TOKEN) }),
        response: {
          303: {
            description: 'To the dashboard’s confirmation, which needs the account’s session.',
            type: 'null',
          },
        } as never,
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const token = req.query.token ?? '';
      return reply.redirect(`/dashboard/verify?token=${encodeURIComponent(token)}`, 303);
    },
  );
