import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import * as accounts from '../accounts/accounts.service.js';
import * as events from '../events/events.service.js';
import * as memberships from '../memberships/memberships.service.js';
import { Membership } from '../memberships/memberships.routes.js';

// Platform staff only: organiser access, an event's ticket mail, members added by hand.
export const adminRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'membershipDeps' | 'eventDeps'>): FastifyPluginAsyncTypebox =>
  async (app) => {
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
        const user = await accounts.setOrganiserAccess(deps.db, req.params.userId, req.body.canPublish);
        req.log.info({ staff: req.principal?.userId, userId: user.id, canPublish: user.can_publish }, 'organiser access changed');
        return { success: true as const, data: { userId: user.id, canPublish: user.can_publish } };
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
          description: 'On the plan’s account and mode, in good standing until `validUntil`. The same email on the same plan is updated rather than duplicated.',
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
