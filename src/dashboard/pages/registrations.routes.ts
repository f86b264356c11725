// The dashboard's registrations of an event (search, detail, actions) and its broadcast.
import { seatsOf } from '../../modules/seat-holds/booked-seats.service.js';
import { actorOfKey } from '../../modules/audit/audit.service.js';
import type { FastifyInstance } from 'fastify';
import type { KeyPrincipal } from '../../http/auth.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { broadcast } from '../../modules/broadcast/broadcast.service.js';
import * as events from '../../modules/events/events.service.js';
import * as gst from '../../modules/gst/documents.service.js';
import { registrationHistory } from '../../modules/registrations/history.js';
import * as actions from '../../modules/registrations/actions.service.js';
import { presentRegistration } from '../../modules/registrations/registrations.present.js';
import * as registrations from '../../modules/registrations/registrations.service.js';
import { Form } from '../form.js';
import * as registrationViews from '../views/registrations.js';
import { canOf } from '../layout.js';
import { PAGE, PAGE_SIZE, type IdParams, type PageContext, type RegParams } from '../page-context.js';

export function registrationPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org, presentEvent, eventPath } = ctx;

  // ------------------------------------------------------------ registrations

  app.get<
    IdParams & {
      Querystring: {
        q?: string;
        status?: string;
        after?: string;
        track?: string;
        tier?: string;
        checkin?: string;
      };
    }
  >('/dashboard/events/:id/registrations', PAGE, async (req, reply) =>
    show(req, reply, 'events', 'Registrations', async (v) => {
      const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
      const q = (req.query.q ?? '').slice(0, 200);
      const status = ['pending', 'confirmed', 'cancelled', 'refunded'].includes(req.query.status ?? '')
        ? (req.query.status as 'pending')
        : undefined;
      const after = decodeCursor(req.query.after);
      // Filters outside the event's own choices are ignored, as an unknown status is.
      const trackText = req.query.track ?? '';
      const subEventId =
        trackText === 'none'
          ? null
          : /^\d{1,6}$/.test(trackText) && row.tracks[Number(trackText)]
            ? Number(trackText)
            : undefined;
      const tierText = req.query.tier ?? '';
      const ticketType =
        tierText === 'General' || row.special_prices.some((t) => t.name === tierText) ? tierText : undefined;
      const checkedIn = req.query.checkin === 'in' ? true : req.query.checkin === 'out' ? false : undefined;
      const rows = await registrations.searchRegistrations(deps.db, row.id, {
        q,
        status,
        ticketType,
        subEventId,
        checkedIn,
        limit: PAGE_SIZE,
        after,
      });
      const pageRows = rows.slice(0, PAGE_SIZE);
      const attendees = await registrations.attendeesOf(
        deps.db,
        pageRows.map((r) => r.id),
      );
      const last = pageRows[pageRows.length - 1];
      const event = await presentEvent(row);
      const page = registrationViews.registrationsPage(
        event,
        pageRows.map((r) => presentRegistration(r, attendees.get(r.id) ?? [])),
        {
          q,
          status: status ?? '',
          track: subEventId === null ? 'none' : subEventId === undefined ? '' : String(subEventId),
          tier: ticketType ?? '',
          checkin: checkedIn === undefined ? '' : checkedIn ? 'in' : 'out',
        },
        {
          next: rows.length > PAGE_SIZE && last ? encodeCursor(last.created_at, last.id) : null,
          first: after === undefined,
        },
        canOf(v),
      );
      return { title: `${event.title}: registrations`, body: page };
    }),
  );

  app.get<RegParams>('/dashboard/events/:id/registrations/:rid', PAGE, async (req, reply) =>
    show(req, reply, 'events', 'Registration', async (v) => {
      const reg = await actions.loadOwnedRegistration(deps.db, v.org, req.params.id, req.params.rid);
      const event = await presentEvent((await events.findEvent(deps.db, reg.event_id))!);
      const [people, history, documents, seats] = await Promise.all([
        registrations.attendeesOf(deps.db, [reg.id]),
        registrationHistory(deps.db, reg),
        gst.documentRefsOf(deps.db, reg.id),
        seatsOf(deps.db, [reg.id]),
      ]);
      const attendees = people.get(reg.id) ?? [];
      const shown = presentRegistration(reg, attendees, [], seats.get(reg.id));
      return {
        title: `${event.title}: registration`,
        body: registrationViews.registrationDetail(v.csrf, event, shown, { history, documents }, canOf(v)),
      };
    }),
  );

  // A booking's tax invoice, bill of supply or credit note as a PDF, for the organiser who owns it.
  app.get<RegParams & { Params: { number: string } }>(
    '/dashboard/events/:id/registrations/:rid/documents/:number',
    PAGE,
    async (req, reply) => {
      const reg = await actions.loadOwnedRegistration(deps.db, org(req), req.params.id, req.params.rid);
      const file = await gst.documentPdfOf(deps.db, reg.id, req.params.number.slice(0, 40));
      if (!file) throw notFound('no such document for this registration', 'document_not_found');
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(file.pdf);
    },
  );

  const ACTIONS: Record<
    string,
    { run: (p: KeyPrincipal, e: string, r: string) => Promise<unknown>; said: string }
  > = {
    approve: { run: (p, e, r) => actions.approve(deps.registerDeps, p, e, r), said: 'Approved.' },
    reject: { run: (p, e, r) => actions.reject(deps.registerDeps, p, e, r), said: 'Rejected.' },
    cancel: {
      run: (p, e, r) => actions.end(deps.registerDeps, p, e, r, 'cancelled'),
      said: 'Cancelled; a paid booking was refunded in full.',
    },
    refund: {
      run: (p, e, r) => actions.end(deps.registerDeps, p, e, r, 'refunded'),
      said: 'Refunded in full; the seats are free again.',
    },
  };

  app.post<RegParams & { Params: { action: string } }>(
    '/dashboard/events/:id/registrations/:rid/:action',
    PAGE,
    async (req, reply) => {
      const path = eventPath(req.params.id, `/registrations/${encodeURIComponent(req.params.rid)}`);
      if (req.params.action === 'transfer') {
        const f = form(req);
        await actions.transfer(deps.registerDeps, org(req), req.params.id, req.params.rid, {
          name: f.required('name', 'Name', 200),
          email: f.required('email', 'Email', 254),
        });
        return done(
          req,
          reply,
          path,
          'Transferred: the new holder gets a fresh ticket and the old QR code is refused at the door.',
        );
      }
      // Own keys only: `constructor` or `toString` in the path is no action (it was a 500).
      const action = Object.hasOwn(ACTIONS, req.params.action) ? ACTIONS[req.params.action] : undefined;
      if (!action) throw notFound('no such action', 'not_found');
      await action.run(org(req), req.params.id, req.params.rid);
      return done(req, reply, path, action.said);
    },
  );

  // ------------------------------------------------------------ broadcast

  app.get<IdParams>('/dashboard/events/:id/broadcast', PAGE, async (req, reply) =>
    show(req, reply, 'events', 'Broadcast', async (v) => {
      const event = await presentEvent(await events.loadOwnedEvent(deps.db, v.org, req.params.id));
      return {
        title: `${event.title}: broadcast`,
        body: registrationViews.broadcastPage(
          v.csrf,
          event,
          { subject: '', message: '', audience: 'confirmed', subEventId: '' },
          null,
        ),
      };
    }),
  );

  const broadcastInput = (f: Form) => {
    const audience = f.text('audience', 'Audience', 20) || 'confirmed';
    if (!['confirmed', 'checked_in', 'not_checked_in', 'pending', 'all'].includes(audience))
      throw badRequest('invalid_audience', 'unknown audience');
    return {
      subject: f.required('subject', 'Subject', 200),
      message: f.required('message', 'Message', 20_000),
      audience,
      subEventId: f.text('subEventId', 'Track', 10),
    };
  };
  const broadcastDeps = { ...deps, maxRecipients: deps.config.broadcastMaxRecipients };

  app.post<IdParams>('/dashboard/events/:id/broadcast', PAGE, async (req, reply) =>
    show(req, reply, 'events', 'Broadcast', async (v) => {
      const row = await events.loadOwnedEvent(deps.db, v.org, req.params.id);
      const input = broadcastInput(form(req));
      const preview = await broadcast(broadcastDeps, row, {
        ...input,
        audience: input.audience as 'confirmed',
        subEventId: input.subEventId || undefined,
        dryRun: true,
      });
      if (!preview.dryRun) throw new Error('a preview sent mail');
      const event = await presentEvent(row);
      return {
        title: `${event.title}: broadcast`,
        body: registrationViews.broadcastPage(v.csrf, event, input, preview),
      };
    }),
  );

  app.post<IdParams>('/dashboard/events/:id/broadcast/send', PAGE, async (req, reply) => {
    const f = form(req);
    const row = await events.loadOwnedEvent(deps.db, org(req), req.params.id);
    const input = broadcastInput(f);
    const r = await broadcast(
      broadcastDeps,
      row,
      {
        ...input,
        audience: input.audience as 'confirmed',
        subEventId: input.subEventId || undefined,
        dryRun: false,
        confirmedRecipientCount: f.integer('confirmedRecipientCount', 'Recipient count'),
      },
      actorOfKey(org(req)),
    );
    if (r.dryRun) throw new Error('a send answered a preview');
    return done(
      req,
      reply,
      eventPath(req.params.id, '/broadcast'),
      `Broadcast “${input.subject}” handed to the mail service.`,
      {
        progress: { done: r.sent, failed: r.failed, total: r.recipientCount },
      },
    );
  });
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (!cursor || cursor.length > 300) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : undefined;
}
