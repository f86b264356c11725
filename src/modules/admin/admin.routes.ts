import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import { sessionPrincipal } from '../../http/auth.js';
import type { MembershipDeps } from '../memberships/memberships.service.js';
import type { EventDeps } from '../events/events.service.js';
import type { JobRunner } from '../../jobs/queue.js';
import * as publishing from '../accounts/publishing.js';
import { DeclineReason, ReviewedRequest, PublishingRequest } from '../accounts/publishing.schemas.js';
import * as events from '../events/events.service.js';
import * as memberships from '../memberships/memberships.service.js';
import { Membership } from '../memberships/memberships.schemas.js';
import { listJobs, retryJob } from '../../jobs/dead-jobs.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';

const Job = Type.Object({
  id: Type.String(),
  topic: Type.String({ description: 'What the job does: ticket.email, ticket.whatsapp, broadcast.mail, webhook.deliver, payment.refund, payout.send' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('dead')]),
  attempts: Type.Integer({ description: 'Attempts made, including any whose worker stopped before finishing.' }),
  maxAttempts: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no limit; the retry window decides.' }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  runAt: Type.String({ format: 'date-time', description: 'When the next attempt is due (pending jobs).' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  retryUntil: Type.String({ format: 'date-time', description: 'A failure after this parks the job as dead.' }),
});

// Platform staff only: organiser access, an event's ticket mail, members added by hand.
export const adminRoutes =
  (deps: { db: Kysely<Database>; clock: Clock; ids: Ids; membershipDeps: MembershipDeps; eventDeps: EventDeps; jobs: JobRunner }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/admin/api/jobs',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Background jobs by status, newest first (dead jobs by default)',
          description:
            'A failing job (ticket or broadcast mail, refund, payout) is retried with back-off doubling from 1 second to at most 1 hour for at least 72 hours after it was queued, then parked as `dead` and listed here; a job whose worker stopped counts as an attempt. Webhook deliveries are sent once (best effort) and are dead after one failed attempt. `count` is the number of jobs in that status; pages with `limit` (default 100, at most 1,000) and `startingAfter=<nextCursor>`. Payloads are not shown.',
          querystring: Type.Object(
            {
              status: Type.Optional(Type.Union([Type.Literal('dead'), Type.Literal('pending'), Type.Literal('done')], { description: 'Default `dead`.' })),
              limit: PageQuery.limit,
              startingAfter: Type.Optional(Type.String({ maxLength: 600, description: 'The `nextCursor` of the previous page.' })),
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Job), count: Type.Integer(), ...PageFields }), 400: Type.Ref('Error') },
        },
      },
      async (req) => {
        const page = await listJobs(deps.db, { status: req.query.status ?? 'dead', limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        return { success: true as const, ...page };
      },
    );

    app.post(
      '/admin/api/jobs/:id/retry',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Put a dead job back in the queue now',
          description: 'The job runs again at once, with its attempts counted afresh and a new 72-hour retry window. 409 `job_not_dead` for a job that is pending or done; 404 `job_not_found` for no such job.',
          params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Job }), 404: Type.Ref('Error'), 409: Type.Ref('Error') },
        },
      },
      async (req) => {
        const data = await retryJob(deps.db, deps.clock, req.params.id);
        req.log.info({ staff: req.principal?.userId, jobId: data.id, topic: data.topic }, 'dead job retried');
        deps.jobs.kick();
        return { success: true as const, data };
      },
    );

    app.post(
      '/admin/api/accounts/:userId/organiser-access',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Grant or remove organiser access (publishing) for an account',
          params: Type.Object({ userId: Type.String({ maxLength: 100 }) }),
          body: Type.Object({ canPublish: Type.Boolean() }, { additionalProperties: false }),
          response: {
            200: Type.Object({ success: Type.Literal(true), data: Type.Object({ userId: Type.String(), canPublish: Type.Boolean() }) }),
            404: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        const user = await publishing.setOrganiserAccess(deps, sessionPrincipal(req), req.params.userId, req.body.canPublish);
        req.log.info({ staff: req.principal?.userId, userId: user.id, canPublish: user.can_publish }, 'organiser access changed');
        return { success: true as const, data: { userId: user.id, canPublish: user.can_publish } };
      },
    );

    app.get(
      '/admin/api/publishing-requests',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Requests for publishing access, with the facts of each account',
          description:
            'Oldest first (the queue to work through); `status` defaults to `pending`. Each request carries what the organiser wrote and the account’s facts: email and whether it is verified, name, phone, sign-up time, whether it may publish, and its events in each mode. Pages of `limit` (default 100, at most 1,000) with `startingAfter=<nextCursor>`; `count` is the total in that status.',
          querystring: Type.Object(
            {
              status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('granted'), Type.Literal('declined')], { description: 'Default `pending`.' })),
              ...PageQuery,
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(ReviewedRequest), count: Type.Integer(), ...PageFields }), 400: Type.Ref('Error') },
        },
      },
      async (req) => {
        const page = await publishing.listRequests(deps.db, { status: req.query.status ?? 'pending', limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        const data = await Promise.all(page.items.map(async (r) => ({ ...r, account: { ...r.account, events: await events.eventCountsByMode(deps.db, r.account.userId) } })));
        return { success: true as const, data, count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );

    const decided = { 200: Type.Object({ success: Type.Literal(true), data: PublishingRequest }), 404: Type.Ref('Error'), 409: Type.Ref('Error') };
    app.post(
      '/admin/api/publishing-requests/:id/grant',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Grant a request for publishing access',
          description: 'The account may publish live events at once (as with organiser-access); the organiser is mailed. 409 `publishing_request_decided` for a request decided already.',
          params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
          response: decided,
        },
      },
      async (req) => {
        const staff = req.principal!.userId;
        const row = await publishing.decideRequest({ ...deps, jobs: deps.jobs }, sessionPrincipal(req), req.params.id, { grant: true });
        req.log.info({ staff, requestId: row.id, userId: row.user_id }, 'publishing access granted');
        return { success: true as const, data: publishing.presentRequest(row) };
      },
    );

    app.post(
      '/admin/api/publishing-requests/:id/decline',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Decline a request for publishing access, with a reason',
          description: 'The organiser is mailed the reason and may ask again. 409 `publishing_request_decided` for a request decided already.',
          params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
          body: Type.Object({ reason: DeclineReason }, { additionalProperties: false }),
          response: decided,
        },
      },
      async (req) => {
        const staff = req.principal!.userId;
        const row = await publishing.decideRequest({ ...deps, jobs: deps.jobs }, sessionPrincipal(req), req.params.id, { grant: false, reason: req.body.reason });
        req.log.info({ staff, requestId: row.id, userId: row.user_id }, 'publishing access declined');
        return { success: true as const, data: publishing.presentRequest(row) };
      },
    );

    app.post(
      '/admin/api/events/:eventId/ticket-emails',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Switch the service’s own ticket email for one event',
          description: 'With `enabled: false` no ticket mail is queued or sent for the event (mails already queued are dropped when their turn comes). It does not change the platform fee.',
          params: Type.Object({ eventId: Type.String({ maxLength: 100 }) }),
          body: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
          response: {
            200: Type.Object({ success: Type.Literal(true), data: Type.Object({ eventId: Type.String(), ticketEmailsEnabled: Type.Boolean() }) }),
            404: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        const data = await events.setTicketEmails(deps.eventDeps, req.params.eventId, req.body.enabled);
        req.log.info({ staff: req.principal?.userId, eventId: data.eventId, enabled: data.ticketEmailsEnabled }, 'ticket emails switched');
        return { success: true as const, data };
      },
    );

    app.post(
      '/admin/api/memberships',
      {
        config: { auth: { kind: 'staff' } },
        schema: {
          tags: ['admin'],
          summary: 'Add a member by hand (source: manual)',
          description: 'On the plan’s account and mode, in good standing until `validUntil`. The same email on the same plan is updated rather than duplicated. The member is mailed a confirmation with the plan, the period and the membership id members-only tiers ask for (test mode keeps it at GET /api/v1/sandbox/emails).',
          body: Type.Object(
            {
              planId: Type.String({ maxLength: 100 }),
              name: Type.String({ minLength: 1, maxLength: 200 }),
              email: Type.String({ minLength: 3, maxLength: 254 }),
              validUntil: Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time.' }),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ success: Type.Literal(true), data: Membership }), 404: Type.Ref('Error') },
        },
      },
      async (req, reply) => {
        const { membership, kind } = await memberships.addManualMember(deps.membershipDeps, req.body);
        return reply.code(201).send({ success: true as const, data: await memberships.presentNow(deps, membership, kind) });
      },
    );
  };

