// The dashboard's waitlist screen: settings (waitlist and the attendee page's policy) and
// the queue, with removal.
import type { FastifyInstance } from 'fastify';
import { can } from '../layout.js';
import { badRequest } from '../../lib/errors.js';
import * as events from '../../modules/events/events.service.js';
import * as waitlist from '../../modules/waitlist/waitlist.service.js';
import { PAGE, type IdParams, type PageContext } from '../page-context.js';
import { waitlistScreen } from '../views/waitlist.js';

export function waitlistPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org, presentEvent, eventPath } = ctx;

  app.get<IdParams>('/dashboard/events/:id/waitlist', PAGE, async (req, reply) =>
    show(req, reply, 'events', 'Waitlist', async (v) => {
      const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
      const event = await presentEvent(row);
      const page = await waitlist.listEntries(deps.db, v.org, row.id, { limit: 1000, open: false });
      return {
        title: event.title,
        body: waitlistScreen(
          v.csrf,
          event,
          event.waitlist,
          event.selfService,
          page.items,
          can(v, 'events.manage', event.id),
        ),
      };
    }),
  );

  app.post<IdParams>('/dashboard/events/:id/waitlist/settings', PAGE, async (req, reply) => {
    const f = form(req);
    const kind = f.text('refund', 'Refund', 10);
    if (kind !== 'full' && kind !== 'none' && kind !== 'fee')
      throw badRequest('invalid_field', 'refund must be full, none or fee');
    await events.patchEvent(deps.eventDeps, org(req), req.params.id, {
      waitlist: {
        enabled: f.checked('waitlistEnabled'),
        offerMinutes: f.integer('offerMinutes', 'Offer minutes', 60),
      },
      selfService: {
        transfer: f.checked('transfer'),
        cancel: f.checked('cancel'),
        cutoffHours: f.integer('cutoffHours', 'Cutoff hours', 24),
        refund: kind === 'fee' ? { feePercent: f.number('feePercent', 'Fee percent') } : kind,
      },
    });
    return done(req, reply, eventPath(req.params.id, '/waitlist'), 'Saved.');
  });

  app.post<{ Params: { id: string; entryId: string } }>(
    '/dashboard/events/:id/waitlist/:entryId/remove',
    PAGE,
    async (req, reply) => {
      const removed = await waitlist.removeEntry(
        deps.waitlistDeps,
        org(req),
        req.params.id,
        req.params.entryId,
      );
      return done(req, reply, eventPath(req.params.id, '/waitlist'), `${removed.name} is off the waitlist.`);
    },
  );
}
