// The hosted page's proof of membership for a members-only tier: a code mailed to the
// member's address (docs/decisions/28-a-persons-day.md), asked for and checked by the page's script.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { addressKey } from '../../http/client-address.js';
import {
  MEMBER_CODE_MINUTES,
  MEMBER_CODE_TRIES,
  MEMBER_PROOF_MINUTES,
  requestMemberCode,
  verifyMemberCode,
} from '../memberships/member-codes.js';
import * as service from './checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from './page-context.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'The address the booking is for: the member’s address.',
});

export function memberCodeRoutes(app: App, ctx: CheckoutContext): void {
  requestCodeRoute(app, ctx);
  verifyCodeRoute(app, ctx);
}

function requestCodeRoute(app: App, ctx: CheckoutContext): void {
  const { deps } = ctx;

  app.post(
    '/e/:slug/member-code',
    {
      config: { auth: { kind: 'public' } },
      schema: {
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
        body: Type.Object({ ...Access, email: Email }, { additionalProperties: false }),
        response: {
          202: Type.Object(
            {
              sent: Type.Literal(true),
              expiresInMinutes: Type.Integer({ description: 'How long a mailed code works.' }),
            },
            { title: 'MemberCodeAsked' },
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
}

function verifyCodeRoute(app: App, ctx: CheckoutContext): void {
  const { deps } = ctx;

  app.post(
    '/e/:slug/member-code/verify',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'Check a members-only code; answers the proof register accepts',
        description: [
          `Checks the newest code asked for \`email\` on the event’s account and mode (compared in constant time). A right code is used up and answers \`proof\`: send it as \`memberProof\` with register (\`POST /e/{slug}/register\`, or \`POST /api/v1/events/{id}/register\` with a checkout key) for the same email, in place of a pasted \`membershipId\`. A proof is good for ${MEMBER_PROOF_MINUTES} minutes on any event of the account in that mode; register still checks that the email holds a membership in good standing.`,
          `Refusals, with \`field: "code"\`: 400 \`member_code_wrong\` (with \`triesLeft\`), 400 \`member_code_expired\` (lapsed after ${MEMBER_CODE_MINUTES} minutes, already used, or none asked for), 403 \`member_code_tries_used\` after ${MEMBER_CODE_TRIES} wrong tries. An address that holds no membership is answered exactly as a member’s with a wrong code: it was mailed nothing to enter.`,
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object(
          {
            ...Access,
            email: Email,
            code: Type.String({ minLength: 1, maxLength: 20, description: 'The six digits from the mail.' }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            {
              proof: Type.String({ description: 'Send as `memberProof` with register, for this email.' }),
              expiresAt: Type.String({
                format: 'date-time',
                description: 'Until when register accepts the proof.',
              }),
            },
            { title: 'MemberProof' },
          ),
          400: E,
          403: E,
          404: E,
        },
      },
    },
    async (req) => {
      const { key, origin, offer, preview, email, code } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      return verifyMemberCode(
        { db: deps.db, clock: deps.clock, secretsKey: deps.config.secretsKey },
        { accountId: access.event.account_id, mode: access.event.mode, email, code },
      );
    },
  );
}
