// The dashboard's event pages: the list, creating, the overview and the setup page (its forms:
// event-setup.routes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardFlash } from '../../db/database.js';
import { sessionPrincipal } from '../../http/auth.js';
import { may } from '../../http/permissions.js';
import { badRequest } from '../../lib/errors.js';
import { previewToken } from '../../lib/preview-token.js';
import * as accounts from '../../modules/accounts/accounts.service.js';
import * as publishing from '../../modules/accounts/publishing.js';
import { listChoices, listLabel, listOfScope, scopeOfChoice } from '../../modules/checkin/door-list.js';
import * as doorPassesService from '../../modules/checkin/door.service.js';
import * as events from '../../modules/events/events.service.js';
import { listPlans } from '../../modules/seating/seating-plans.js';
import * as promos from '../../modules/registrations/promo.service.js';
import * as registrations from '../../modules/registrations/registrations.service.js';
import { barChart, dailyBars, slotBars } from '../charts.js';
import { Form } from '../form.js';
import * as eventViews from '../views/events.js';
import { doorFragment, overview } from '../views/event-overview.js';
import { setup } from '../views/event-setup.js';
import { can } from '../layout.js';
import { backTo, PAGE, type IdParams, type PageContext } from '../page-context.js';

export function eventPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, html, show, done, form, org, presentEvent, eventPath } = ctx;

  // ------------------------------------------------------------ events

  app.get<{ Querystring: { page?: string } }>('/dashboard/events', PAGE, async (req, reply) => {
    // Every member lands here; a door member, who reads no event, is sent on to the door.
    const s = sessionPrincipal(req);
    const member = s.role === undefined ? undefined : { role: s.role, eventIds: null };
    if (!may(member, 'read') && may(member, 'door')) return reply.redirect('/dashboard/door', 303);
    const asked = req.query.page;
    const page = asked === undefined ? 1 : /^[1-9]\d{0,8}$/.test(asked) ? Number(asked) : Number.NaN;
    return show(req, reply, 'events', 'Events', async (v) => {
      // A page at a time; a member limited to listed events sees those only
      // (docs/decisions/25-organiser-teams-and-roles.md).
      const list = await events.listEventsNumbered(deps.db, v.org, {
        page,
        size: eventViews.EVENTS_PAGE_SIZE,
        ids: v.s.eventIds ?? null,
      });
      return eventViews.eventsList(list.items, can(v, 'events.manage'), list);
    });
  });

  app.get('/dashboard/events/new', PAGE, async (req, reply) =>
    show(req, reply, 'events', 'Create an event', (v) =>
      eventViews.eventForm(v.csrf, '/dashboard/events', null, 'Create draft'),
    ),
  );

  app.post('/dashboard/events', PAGE, async (req, reply) => {
    const row = await events.createEvent(deps.eventDeps, org(req), eventInput(form(req), true));
    return done(
      req,
      reply,
      eventPath(row.id),
      'Draft created. Add tracks, tiers and questions under Setup, then publish.',
    );
  });

  /** The event's overview; `shown` is a message for this answer only (a door link shown once). */
  const overviewPage = (req: FastifyRequest, reply: FastifyReply, id: string, shown?: DashboardFlash) =>
    show(
      req,
      reply,
      'events',
      'Event',
      async (v) => {
        const row = await events.loadOwnedEvent(deps.db, v.org, id);
        const [
          event,
          availability,
          analytics,
          door,
          sales,
          arrivals,
          user,
          doorPasses,
          requests,
          trackAvailability,
        ] = await Promise.all([
          presentEvent(row),
          events.availability(deps.eventDeps, row),
          events.analytics(deps.eventDeps, row),
          registrations.doorProgress(deps.db, row.id),
          registrations.salesOverTime(deps.db, row.id),
          registrations.arrivalsPer15Minutes(deps.db, row.id),
          accounts.getUser(deps.db, v.s.userId),
          doorPassesService.listPasses(deps.db, v.org, row.id),
          publishing.requestsOf(deps.db, v.s.userId),
          Promise.all(row.tracks.map((_, i) => events.availability(deps.eventDeps, row, String(i)))),
        ]);
        const page = overview(v.csrf, {
          may: {
            manage: can(v, 'events.manage', row.id),
            door: can(v, 'door', row.id),
            testInbox: can(v, 'read'),
          },
          event,
          availability,
          analytics,
          door,
          doorPasses: doorPasses.map((p) => ({
            ...p,
            admitsFor: listLabel(listOfScope(p.scope), row.tracks, deps.config.eventTimeZone),
          })),
          doorLists: listChoices(
            { tracks: row.tracks, startDate: row.start_date, endDate: row.end_date },
            deps.config.eventTimeZone,
          ),
          salesChart: barChart('sales', 'Tickets sold per day', dailyBars(sales), 'tickets'),
          arrivalsChart: barChart(
            'arrivals',
            'Check-in arrivals per 15 minutes',
            slotBars(arrivals),
            'people',
          ),
          canPublish: user.can_publish,
          latestRequest: requests[0] ? publishing.presentRequest(requests[0]) : null,
          livePayments: deps.eventDeps.livePayments,
          trackAvailability,
          baseUrl: deps.config.baseUrl,
          previewUrl:
            row.mode === 'test' || row.status !== 'published'
              ? `/e/${encodeURIComponent(row.slug)}?preview=${encodeURIComponent(previewToken(deps.config.secretsKey, row.id, row.account_id, deps.clock.now()))}`
              : null,
        });
        return { title: event.title, body: page };
      },
      shown,
    );

  app.get<IdParams>('/dashboard/events/:id', PAGE, async (req, reply) =>
    overviewPage(req, reply, req.params.id),
  );

  app.get<IdParams>('/dashboard/events/:id/door', PAGE, async (req, reply) => {
    const row = await events.loadOwnedEvent(deps.db, org(req), req.params.id);
    return html(reply, doorFragment(await registrations.doorProgress(deps.db, row.id)).value);
  });

  app.post<IdParams>('/dashboard/events/:id/door-passes', PAGE, async (req, reply) => {
    const f = form(req);
    const scope = scopeOfChoice(f.optional('scope', 'Admits for', 20) ?? 'event');
    if (scope === undefined)
      throw badRequest('invalid_field', 'Admits for: choose the whole event, a session or a day', {
        field: 'scope',
      });
    const created = await doorPassesService.createPass(deps, org(req), req.params.id, {
      label: f.required('label', 'Label', 80),
      scope,
    });
    // Shown in this answer only, never through the stored flash: the link is the pass.
    reply.header('cache-control', 'no-store');
    return overviewPage(req, reply, req.params.id, {
      kind: 'secret',
      text: `Door link for ${created.label} created. Open it on the door phone; it is shown only now:`,
      secret: created.url,
    });
  });

  app.post<{ Params: { id: string; passId: string } }>(
    '/dashboard/events/:id/door-passes/:passId/revoke',
    PAGE,
    async (req, reply) => {
      const revoked = await doorPassesService.revokePass(deps, org(req), req.params.id, req.params.passId);
      return done(req, reply, eventPath(req.params.id), `Door link ${revoked.label} revoked.`);
    },
  );

  app.get<IdParams>('/dashboard/events/:id/setup', PAGE, async (req, reply) =>
    show(req, reply, 'events', 'Event setup', async (v) => {
      const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
      const event = await presentEvent(row);
      return {
        title: event.title,
        body: setup(
          v.csrf,
          event,
          (await promos.listPromos(deps.db, row.id)).map(promos.presentPromo),
          events.priceTable(row),
          (await listPlans(deps.db, row.account_id, { limit: 200 })).items.map((p) => ({
            id: p.id,
            name: p.name,
            seats: p.seat_count,
          })),
          can(v, 'seating.manage'),
        ),
      };
    }),
  );

  app.post<IdParams>('/dashboard/events/:id', PAGE, async (req, reply) => {
    await events.patchEvent(deps.eventDeps, org(req), req.params.id, eventInput(form(req), false));
    return done(req, reply, eventPath(req.params.id, '/setup'), 'Saved.');
  });

  app.post<IdParams>('/dashboard/events/:id/publish', PAGE, async (req, reply) => {
    const status = form(req).text('status', 'Status', 20);
    if (status !== 'published' && status !== 'draft')
      throw badRequest('invalid_status', 'status must be published or draft');
    await events.patchEvent(deps.eventDeps, org(req), req.params.id, { status });
    return done(
      req,
      reply,
      eventPath(req.params.id),
      status === 'published' ? 'Published.' : 'Back to draft: the event is off sale.',
    );
  });

  app.post('/dashboard/publishing-access', PAGE, async (req, reply) => {
    const row = await publishing.requestPublishing(
      deps,
      sessionPrincipal(req).userId,
      form(req).required('message', 'The note', publishing.MESSAGE_MAX),
    );
    req.log.info({ userId: row.user_id, requestId: row.id }, 'publishing access requested');
    return done(
      req,
      reply,
      backTo(req) ?? '/dashboard/events',
      'Publishing access requested. Platform staff will mail you their answer; test events publish without it meanwhile.',
    );
  });

  app.post<IdParams>('/dashboard/events/:id/delete', PAGE, async (req, reply) => {
    const p = org(req);
    await events.loadOwnedEvent(deps.db, p, req.params.id);
    await events.deleteEvent(deps.eventDeps, sessionPrincipal(req), req.params.id, false);
    return done(req, reply, '/dashboard/events', 'Event deleted.');
  });
}

function eventInput(f: Form, creating: boolean): events.EventInput {
  const endDate = f.instant('endDate', 'End');
  return {
    title: f.required('title', 'Title', 200),
    description: f.text('description', 'Description', 20_000),
    startDate: f.instant('startDate', 'Start') ?? (creating ? '' : undefined)!,
    endDate: endDate ?? null,
    location: f.optional('location', 'Location', 500) ?? null,
    capacity: f.integer('capacity', 'Capacity', 0),
    price: f.number('price', 'Price', 0),
    maxTeamSize: Math.max(1, f.integer('maxTeamSize', 'Team size', 1)),
    requiresApproval: f.checked('requiresApproval'),
    // Off unless ticked, new events included: the base price is sold as the whole event only when asked for.
    wholeEventOption: f.checked('wholeEventOption'),
    ...taxInput(f),
  };
}

const TAX_CATEGORIES = ['standard', 'admission_exempt_upto_500', 'premium_sporting', 'none'] as const;

/** The event form's GST fields; empty means unset. */
function taxInput(f: Form): Pick<events.EventInput, 'taxCategory' | 'venueState' | 'sac' | 'supplierGstin'> {
  const category = f.text('taxCategory', 'Tax category', 40) || 'standard';
  const taxCategory = TAX_CATEGORIES.find((c) => c === category);
  if (taxCategory === undefined) throw badRequest('invalid_field', 'Tax category is not one of the choices');
  return {
    taxCategory,
    venueState: f.optional('venueState', 'Venue state', 2) ?? null,
    sac: f.optional('sac', 'SAC', 6) ?? null,
    supplierGstin: f.optional('supplierGstin', 'Supplier GSTIN', 20) ?? null,
  };
}
