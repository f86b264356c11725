import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageQuery, parseLimit } from '../../../http/paging.js';
import { nowFor } from '../../accounts/account-clock.js';
import * as memberships from '../memberships.service.js';
import { Membership } from '../memberships.schemas.js';
import { EXAMPLE_MEMBERSHIP } from './membership-example.js';
import { E, type MembershipsDeps, PageOf, StartingAfter } from './membership.js';

const examples: OperationExamples = {
  params: { planId: EX.planId },
  responses: {
    '200': { success: true, data: [{ ...EXAMPLE_MEMBERSHIP }], count: 1, hasMore: false, nextCursor: null },
  },
};

export const listMembers: Operation<MembershipsDeps> = (app, deps) =>
  app.get(
    '/api/v1/memberships/members',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listMembers',
        tags: ['memberships'],
        summary: 'Members, with standing computed now',
        description:
          'Pass `email` (and optionally `planId`) to check one person’s `goodStanding`. Full keys only. Oldest first, in pages: `limit` (default 100, at most 1,000), then `startingAfter=<nextCursor>` while `hasMore`; `count` is the total matching the filter.',
        querystring: Type.Object({
          planId: Type.Optional(Type.String({ maxLength: 100 })),
          email: Type.Optional(Type.String({ maxLength: 254 })),
          limit: PageQuery.limit,
          startingAfter: StartingAfter,
        }),
        response: { 200: answer(PageOf(Membership), 'A page of members with their standing.'), 400: E },
      },
    },
    async (req) => {
      const p = keyPrincipal(req);
      const page = await memberships.pageMembers(deps.db, p, req.query, {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      const now = await nowFor(deps, p.userId, p.mode);
      const data = page.items.map((r) => memberships.presentMembership(r, r.plan_kind, now));
      return {
        success: true as const,
        data,
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
