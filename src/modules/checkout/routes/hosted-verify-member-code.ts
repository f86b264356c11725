// The hosted page's proof of membership for a members-only tier: the mailed code checked,
// answering the proof register accepts (docs/decisions/28-a-persons-day.md).
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import {
  MEMBER_CODE_MINUTES,
  MEMBER_CODE_TRIES,
  MEMBER_PROOF_MINUTES,
  verifyMemberCode,
} from '../../memberships/member-codes.js';
import * as service from '../checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';
import { MemberEmail } from './member-email.js';

const examples: OperationExamples = {
  requests: { default: { value: { key: EX.checkoutKey, email: 'rohan@example.in', code: '482913' } } },
  responses: {
    '200': {
      proof:
        'mpf_eyJhIjoidXNyXzEiLCJtIjoidGVzdCIsImUiOiJyb2hhbkBleGFtcGxlLmluIiwieCI6MTc5NjAwMDAwMDAwMH0.Xq3v9kS2m1bN7cYtR4wPz8uLhJ0aEiDgF5oK6nQsT2U',
      expiresAt: '2026-12-01T11:00:00.000Z',
    },
  },
};

export const hostedVerifyMemberCode: Operation<CheckoutContext> = (app, { deps }) =>
  app.post(
    '/e/:slug/member-code/verify',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedVerifyMemberCode',
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
            email: MemberEmail,
            code: Type.String({ minLength: 1, maxLength: 20, description: 'The six digits from the mail.' }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object(
              {
                proof: Type.String({ description: 'Send as `memberProof` with register, for this email.' }),
                expiresAt: Type.String({
                  format: 'date-time',
                  description: 'Until when register accepts the proof.',
                }),
              },
              { title: 'MemberProof' },
            ),
            'The code was right: the proof register takes as `memberProof`.',
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
