// The dashboard's memberships, developers (keys and webhook) and staff pages.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as publishing from '../../modules/accounts/publishing.js';
import { html } from '../html.js';
import { staffRequests } from '../views/publishing.js';
import type { DashboardFlash } from '../../db/database.js';
import { sessionPrincipal } from '../../http/auth.js';
import { badRequest, notFound } from '../../lib/errors.js';
import * as accounts from '../../modules/accounts/accounts.service.js';
import * as events from '../../modules/events/events.service.js';
import * as keys from '../../modules/keys/keys.service.js';
import * as memberships from '../../modules/memberships/memberships.service.js';
import * as plans from '../../modules/memberships/plans.service.js';
import { nowFor } from '../../modules/accounts/account-clock.js';
import * as webhooks from '../../modules/webhooks/webhooks.service.js';
import { canOf } from '../layout.js';
import { developersPage, membershipsPage, staffPage } from '../views/settings.js';
import { PAGE, STAFF_PAGE, type PageContext } from '../page-context.js';

export function membershipPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org } = ctx;

  // ------------------------------------------------------------ memberships

  app.get<{ Querystring: { planId?: string; email?: string } }>(
    '/dashboard/memberships',
    PAGE,
    async (req, reply) =>
      show(req, reply, 'memberships', 'Memberships', async (v) => {
        const filter = {
          planId: (req.query.planId ?? '').slice(0, 100),
          email: (req.query.email ?? '').slice(0, 254),
        };
        const planList = (await plans.listPlans(deps.db, v.org)).map(plans.presentPlan);
        const rows = await memberships.listMembers(deps.db, v.org, {
          planId: filter.planId || undefined,
          email: filter.email || undefined,
        });
        const now = await nowFor(deps, v.org.userId, v.org.mode);
        return membershipsPage(
          v.csrf,
          planList,
          rows.map((r) => memberships.presentMembership(r, r.plan_kind, now)),
          filter,
          canOf(v),
        );
      }),
  );

  app.post('/dashboard/memberships/plans', PAGE, async (req, reply) => {
    const f = form(req);
    const kind = f.text('kind', 'Kind', 20) === 'recurring' ? 'recurring' : 'fixed_term';
    const period = f.text('period', 'Period', 20);
    if (kind === 'recurring' && !['weekly', 'monthly', 'quarterly', 'yearly'].includes(period))
      throw badRequest('invalid_plan', 'period must be weekly, monthly, quarterly or yearly');
    const plan = await plans.createPlan(deps.membershipDeps, org(req), {
      name: f.required('name', 'Name', 80),
      amount: f.number('amount', 'Amount'),
      kind,
      ...(kind === 'fixed_term'
        ? { termMonths: f.integer('termMonths', 'Term') }
        : { period: period as 'monthly' }),
      description: f.optional('description', 'Description', 500),
    });
    return done(req, reply, '/dashboard/memberships', `Plan ${plan.name} created.`);
  });
}

export function developerPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org } = ctx;

  // ------------------------------------------------------------ developers

  const developers = (req: FastifyRequest, reply: FastifyReply, shown?: DashboardFlash) =>
    show(
      req,
      reply,
      'developers',
      'Developers',
      async (v) =>
        developersPage(
          v.csrf,
          v.mode,
          await keys.listKeys(deps.db, v.s.userId),
          await webhooks.getConfig(deps.db, v.s.userId, v.mode),
          await webhooks.listDeliveries(deps.db, v.s.userId, v.mode),
          v.emailVerified,
        ),
      shown,
    );
  /**
   * A new key or signing secret is shown in the answer to the form that made it (not
   * after a redirect through the stored flash), so it is never kept anywhere readable.
   */
  const showSecret = (req: FastifyRequest, reply: FastifyReply, text: string, secret: string) => {
    reply.header('cache-control', 'no-store');
    return developers(req, reply, { kind: 'secret', text, secret });
  };

  app.get('/dashboard/developers', PAGE, async (req, reply) => developers(req, reply));

  app.post('/dashboard/developers/keys', PAGE, async (req, reply) => {
    const f = form(req);
    const mode = f.text('mode', 'Mode', 10);
    const keyClass = f.text('class', 'Kind', 10);
    if ((mode !== 'test' && mode !== 'live') || (keyClass !== 'full' && keyClass !== 'checkout'))
      throw badRequest('invalid_request', 'mode must be test or live, and kind full or checkout');
    const { row, key } = await keys.createKey(deps, sessionPrincipal(req), {
      name: f.optional('name', 'Name', 100),
      mode,
      keyClass,
      allowedOrigin: f.optional('allowedOrigin', 'Allowed origin', 300),
    });
    return showSecret(req, reply, `Key “${row.name}” created. Copy it now: it is not shown again.`, key);
  });

  app.post<{ Params: { keyId: string } }>(
    '/dashboard/developers/keys/:keyId/revoke',
    PAGE,
    async (req, reply) => {
      const row = await keys.revokeKey(deps, sessionPrincipal(req), req.params.keyId);
      return done(
        req,
        reply,
        '/dashboard/developers',
        `Key “${row.name}” revoked: calls with it are refused.`,
      );
    },
  );

  app.post('/dashboard/developers/webhook', PAGE, async (req, reply) => {
    const f = form(req);
    const p = org(req);
    const r = await webhooks.putConfig(deps, p, {
      url: f.required('url', 'URL', 2000),
      enabled: f.checked('enabled'),
      events: f.all('events').slice(0, 10),
    });
    if (r.secret)
      return showSecret(
        req,
        reply,
        'Webhook set up. Copy the signing secret now: it is not shown again.',
        r.secret,
      );
    return done(req, reply, '/dashboard/developers', 'Webhook saved.');
  });

  app.post('/dashboard/developers/webhook/rotate', PAGE, async (req, reply) => {
    const p = org(req);
    const current = await webhooks.getConfig(deps.db, p.userId, p.mode);
    if (!current) throw notFound('there is no webhook to rotate', 'webhook_not_found');
    const r = await webhooks.putConfig(deps, p, { rotateSecret: true, enabled: current.enabled });
    return showSecret(
      req,
      reply,
      'New signing secret made; the old one no longer verifies. Copy it now: it is not shown again.',
      r.secret!,
    );
  });

  app.post('/dashboard/developers/webhook/delete', PAGE, async (req, reply) => {
    const p = org(req);
    await webhooks.deleteConfig(deps, p);
    return done(req, reply, '/dashboard/developers', 'Webhook removed.');
  });
}

export function staffPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form } = ctx;

  // ------------------------------------------------------------ staff

  app.get('/dashboard/staff', STAFF_PAGE, async (req, reply) =>
    show(req, reply, 'staff', 'Staff', async (v) => {
      const pending = await publishing.listRequests(deps.db, { status: 'pending', limit: 100 });
      const list = await Promise.all(
        pending.items.map(async (r) => ({
          ...r,
          account: { ...r.account, events: await events.eventCountsByMode(deps.db, r.account.userId) },
        })),
      );
      return html`${staffRequests(v.csrf, list, pending.count)}${staffPage(v.csrf)}`;
    }),
  );

  app.post<{ Params: { id: string; decision: string } }>(
    '/dashboard/staff/publishing-requests/:id/:decision',
    STAFF_PAGE,
    async (req, reply) => {
      const staff = sessionPrincipal(req);
      const decision = req.params.decision;
      if (decision !== 'grant' && decision !== 'decline') throw notFound('no such action', 'not_found');
      const row = await publishing.decideRequest(
        deps,
        staff,
        req.params.id,
        decision === 'grant'
          ? { grant: true }
          : { grant: false, reason: form(req).required('reason', 'Reason', publishing.REASON_MAX) },
      );
      req.log.info(
        { staff: staff.userId, requestId: row.id, userId: row.user_id, decision },
        'publishing request decided',
      );
      const who = (await accounts.findUser(deps.db, row.user_id))?.email ?? row.user_id;
      return done(
        req,
        reply,
        '/dashboard/staff',
        decision === 'grant'
          ? `${who} may now publish live events; they were mailed.`
          : `The request of ${who} was declined; they were mailed the reason.`,
      );
    },
  );

  app.post('/dashboard/staff/organiser-access', STAFF_PAGE, async (req, reply) => {
    const f = form(req);
    const who = f.required('account', 'Account', 254);
    const user = who.includes('@')
      ? await accounts.findUserByEmail(deps.db, who)
      : await accounts.findUser(deps.db, who);
    if (!user) throw notFound('no account with that email or id', 'account_not_found');
    const canPublish = f.text('canPublish', 'Publishing', 5) === 'true';
    await publishing.setOrganiserAccess(deps, sessionPrincipal(req), user.id, canPublish);
    req.log.info(
      { staff: sessionPrincipal(req).userId, userId: user.id, canPublish },
      'organiser access changed',
    );
    return done(
      req,
      reply,
      '/dashboard/staff',
      `${user.email} ${canPublish ? 'may now publish events' : 'may no longer publish events'}.`,
    );
  });

  app.post('/dashboard/staff/ticket-emails', STAFF_PAGE, async (req, reply) => {
    const f = form(req);
    const r = await events.setTicketEmails(
      deps.eventDeps,
      f.required('eventId', 'Event id', 100),
      f.text('enabled', 'Enabled', 5) === 'true',
    );
    req.log.info({ staff: sessionPrincipal(req).userId, ...r }, 'ticket emails switched');
    return done(
      req,
      reply,
      '/dashboard/staff',
      `Ticket emails for ${r.eventId} are ${r.ticketEmailsEnabled ? 'on' : 'off'}.`,
    );
  });

  app.post('/dashboard/staff/members', STAFF_PAGE, async (req, reply) => {
    const f = form(req);
    const { membership } = await memberships.addManualMember(deps.membershipDeps, {
      planId: f.required('planId', 'Plan id', 100),
      name: f.required('name', 'Name', 200),
      email: f.required('email', 'Email', 254),
      validUntil: f.required('validUntil', 'Valid until', 40),
    });
    return done(
      req,
      reply,
      '/dashboard/staff',
      `${membership.email} is a member until ${membership.valid_until?.toISOString().slice(0, 10)}.`,
    );
  });
}
