import { Type } from 'typebox';
import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import type { EventDeps } from '../events.deps.js';
import { Event } from '../event-answers.schemas.js';
import * as events from '../events.service.js';

const examples: OperationExamples = {
  params: { limit: '20' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: EX.eventId,
          slug: 'free-meetup',
          status: 'draft',
          mode: 'test',
          title: 'Free meetup',
          description: 'x',
          startDate: '2027-02-01',
          date: '2027-02-01',
          endDate: null,
          location: null,
          capacity: 0,
          taken: 0,
          remaining: null,
          price: 0,
          currency: 'INR',
          maxTeamSize: 1,
          requiresApproval: false,
          customFields: [],
          specialPrices: [],
          tracks: [],
          ticketEmailsEnabled: true,
          taxCategory: 'standard',
          supplierGstin: null,
          sac: null,
          venueState: null,
          waitlist: { enabled: false, offerMinutes: 60 },
          selfService: { transfer: true, cancel: true, cutoffHours: 24, refund: 'full' },
          wholeEventOption: true,
          seatingPlanId: null,
          offlinePayment: {
            enabled: false,
            methods: [],
            instructions: '',
            payWithinDays: 3,
            upiId: null,
            upiName: null,
          },
          onSale: {
            opensAt: null,
            waitingRoom: { enabled: false, admitPerMinute: 120, sessionMinutes: 10 },
            perBuyerLimit: null,
          },
          createdAt: '2026-11-25T07:51:24.908Z',
          updatedAt: '2026-11-25T07:51:24.908Z',
        },
      ],
      count: 2,
      hasMore: false,
      nextCursor: null,
    },
  },
};

export const listEvents: Operation<EventDeps> = (app, deps) =>
  app.get(
    '/api/v1/events',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'listEvents',
        tags: ['events'],
        summary: "This account's events in the key's mode, one page at a time",
        description:
          'Newest start date first; events without a start date last. At most `limit` events (default 100, at most 1,000); `hasMore` and `nextCursor` tell whether more follow, read them with `startingAfter=<nextCursor>`. `count` is the total. A checkout key reads only published events (and, in test mode, the account’s draft test events too).',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Array(Event),
              count: Type.Integer({ description: 'Events in the whole list.' }),
              ...PageFields,
            }),
            'A page of events.',
          ),
        },
      },
    },
    async (req) => {
      const page = await events.listEventsPage(deps.db, keyPrincipal(req), {
        limit: parseLimit(req.query.limit),
        startingAfter: req.query.startingAfter,
      });
      return {
        success: true as const,
        data: page.items,
        count: page.count,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      };
    },
  );
