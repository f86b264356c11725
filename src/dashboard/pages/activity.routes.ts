// The dashboard's activity screen: the audit log of the dashboard's mode, through the same
// service function as GET /api/v1/audit-log.
import type { FastifyInstance } from 'fastify';
import * as accounts from '../../modules/accounts/accounts.service.js';
import * as audit from '../../modules/audit/audit.service.js';
import * as keys from '../../modules/keys/keys.service.js';
import { activityPage } from '../views/activity.js';
import { PAGE, PAGE_SIZE, type PageContext } from '../page-context.js';

type Query = { after?: string; targetType?: string; targetId?: string };

export function activityPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show } = ctx;
  app.get<{ Querystring: Query }>('/dashboard/activity', PAGE, async (req, reply) =>
    show(req, reply, 'activity', 'Activity', async (v) => {
      const text = (s: string | undefined, max: number) =>
        typeof s === 'string' && s.trim() !== '' ? s.trim().slice(0, max) : undefined;
      const filter = { targetType: text(req.query.targetType, 40), targetId: text(req.query.targetId, 100) };
      // The activity page is a report: it reads from the read pool (src/db/read-pool.ts).
      const page = await audit.listChanges(
        deps.reads.db,
        { keys: keys.prefixesOf, users: accounts.emailsOf },
        {
          accountId: v.s.userId,
          mode: v.mode,
          ...filter,
          startingAfter: text(req.query.after, 20),
          limit: PAGE_SIZE,
        },
      );
      return activityPage(v.mode, page.items, filter, {
        next: page.nextCursor,
        first: req.query.after === undefined,
      });
    }),
  );
}
