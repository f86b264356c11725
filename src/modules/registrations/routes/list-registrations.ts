import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import * as events from '../../events/events.service.js';
import { channelsFor } from '../../whatsapp/whatsapp.service.js';
import type { RegisterDeps } from '../register.service.js';
import { presentRegistration } from '../registrations.present.js';
import { seatsOf } from '../../seat-holds/booked-seats.service.js';
import { E, EventParams, Registration } from '../registrations.schemas.js';
import * as registrations from '../registrations.service.js';

const examples: OperationExamples = {
  params: { limit: '20' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: EX.registrationId,
          eventId: EX.eventId,
          status: 'confirmed',
          refunded: 0,
          kept: 499,
          pendingReason: null,
          name: 'Asha Rao',
          email: 'asha@example.in',
          phone: '+919812345678',
          whatsappOptIn: false,
          channels: [],
          ticketType: 'General',
          subEventId: null,
          quantity: 1,
          amount: 499,
          currency: 'INR',
          platformFee: 0,
          gatewayFee: 0,
          customFields: { company: 'Acme' },
          teamMembers: [],
          seats: [],
          awaitingPayment: null,
          promoCode: null,
          billing: null,
          ticketCode: null,
          checkedIn: false,
          checkedInAt: null,
          createdAt: '2026-11-25T07:51:24.908Z',
          confirmedAt: '2026-11-25T07:51:24.908Z',
        },
      ],
      count: 1,
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listRegistrations: Operation<RegisterDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/registrations',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listRegistrations',
        tags: ['registrations'],
        summary: 'The event’s registrations, one page at a time (personal data: full keys only)',
        description:
          'Oldest first. At most `limit` registrations (default 100, at most 1,000); `hasMore` and `nextCursor` tell whether more follow, read them with `startingAfter=<nextCursor>`. `count` is the event’s total.',
        params: EventParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Array(Registration),
              count: Type.Integer({ description: 'Registrations of the event in all.' }),
              ...PageFields,
            }),
            'A page of registrations.',
          ),
          404: E,
        },
      },
    },
    async (req) => {
      const row = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
      const page = await registrations.listRegistrationsPage(deps.db, row.id, {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      const ids = page.items.map((r) => r.id);
      const [channels, seats] = await Promise.all([channelsFor(deps.db, ids), seatsOf(deps.db, ids)]);
      const data = page.items.map((r) =>
        presentRegistration(r, page.people.get(r.id) ?? [], channels.get(r.id), seats.get(r.id)),
      );
      return {
        success: true as const,
        data,
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
