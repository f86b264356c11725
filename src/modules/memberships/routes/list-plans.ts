import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageQuery, parseLimit } from '../../../http/paging.js';
import { pagePlans, presentPlan } from '../plans.service.js';
import { EXAMPLE_PLAN } from './membership-example.js';
import { E, type MembershipsDeps, PageOf, Plan, StartingAfter } from './membership.js';

const examples: OperationExamples = {
  responses: {
    '200': { success: true, data: [{ ...EXAMPLE_PLAN }], count: 1, hasMore: false, nextCursor: null },
  },
};

export const listPlans: Operation<MembershipsDeps> = (app, deps) =>
  app.get(
    '/api/v1/memberships/plans',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listPlans',
        tags: ['memberships'],
        summary: 'Plans of this account in the key’s mode',
        description:
          'Oldest first, in pages: `limit` (default 100, at most 1,000), then `startingAfter=<nextCursor>` while `hasMore`. `count` is the total.',
        querystring: Type.Object(
          { limit: PageQuery.limit, startingAfter: StartingAfter },
          { additionalProperties: false },
        ),
        response: { 200: answer(PageOf(Plan), 'A page of plans.'), 400: E },
      },
    },
    async (req) => {
      const page = await pagePlans(deps.db, keyPrincipal(req), {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      return {
        success: true as const,
        data: page.items.map(presentPlan),
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
