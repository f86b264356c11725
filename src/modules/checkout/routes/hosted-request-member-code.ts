// The hosted page's proof of membership for a members-only tier: a code mailed to the
// member's address (docs/decisions/28-a-persons-day.md), asked for by the page's script.
import { Type } from 'typebox';
import { addressKey } from '../../../http/client-address.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { MEMBER_CODE_MINUTES, requestMemberCode } from '../../memberships/member-codes.js';
import * as service from '../checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';
import { MemberEmail } from './member-email.js';

const examples: OperationExamples = {
  requests: { default: { value: { key: EX.checkoutKey, email: 'rohan@example.in' } } },
  responses: { '202': { sent: true, expiresInMinutes: 10 } },
};

export const hostedRequestMemberCode: Operation<CheckoutContext> = (app, { deps }) =>
  app.post(
    '/e/:slug/member-code',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedRequestMemberCode',
        tags: ['checkout'],
        summary: 'Mail a members-only code to the buyer’s address',
        description: [
          `A members-only tier is proved with a code mailed to the member’s address. This asks for one: if the address holds a membership in good standing on the event’s account and mode, a six-digit code is mailed to it (a durable job; test events keep the mail at \`GET /api/v1/sandbox/emails\` and in the dashboard’s Test inbox). It works for ${MEMBER_CODE_MINUTES} minutes, once, and for the newest code asked for the address only; only its hash is stored.`,
          'The answer is the same `202 { sent: true }` for every address, member or not, so it reveals nothing about who is a member; an address without a membership simply gets no mail.',
          'Limits: 5 codes per address and 20 per client address each 15 minutes (429 `too_many_attempts` with `Retry-After`, whatever the address). 400 `invalid_email` for something that is not an address.',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object({ ...Access, email: MemberEmail }, { additionalProperties: false }),
        response: {
          202: answer(
            Type.Object(
              {
                sent: Type.Literal(true),
                expiresInMinutes: Type.Integer({ description: 'How long a mailed code works.' }),
              },
              { title: 'MemberCodeAsked' },
            ),
            'Asked: a member’s address gets a code by mail; the answer is the same for any address.',
          ),
          400: E,
          403: E,
          404: E,
          429: E,
        },
      },
    },
    async (req, reply) => {
      const { key, origin, offer, preview, email } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      await requestMemberCode(
        {
          db: deps.db,
          clock: deps.clock,
          ids: deps.ids,
          rateLimiter: deps.rateLimiter,
          secretsKey: deps.config.secretsKey,
          kickJobs: () => deps.membershipDeps.kickJobs(),
        },
        {
          accountId: access.event.account_id,
          mode: access.event.mode,
          email,
          clientAddress: addressKey(req.ip),
        },
      );
      return reply.code(202).send({ sent: true as const, expiresInMinutes: MEMBER_CODE_MINUTES });
    },
  );
