import { ANY_KEY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import * as events from '../events.service.js';
import { IdParams, EventAnswer, ownershipErrors, present } from './event.js';

const examples: OperationExamples = { responses: {
      '200': {
        success: true,
        data: {
          id: EX.eventId,
          slug: EX.slug,
          status: 'draft',
          mode: 'test',
          title: 'Pune Tech Summit 2027',
          description: 'A day of talks on building for India: payments, scale and the tools we use.',
          startDate: '2027-01-16T10:00:00+05:30',
          date: '2027-01-16T10:00:00+05:30',
          endDate: '2027-01-16T17:30:00+05:30',
          location: 'Hall A, Pune',
          capacity: 200,
          taken: 0,
          remaining: 200,
          price: 499,
          currency: 'INR',
          maxTeamSize: 4,
          requiresApproval: false,
          customFields: [{ name: 'company', label: 'Company', type: 'text', required: false, options: null }],
          specialPrices: [{ name: 'Student', price: 199, capacity: 50, membersOnly: false, availableFrom: null, availableUntil: null, sac: null }],
          tracks: [],
          ticketEmailsEnabled: true,
          taxCategory: 'standard',
          supplierGstin: null,
          sac: null,
          venueState: null,
          waitlist: { enabled: true, offerMinutes: 60 },
          selfService: { transfer: true, cancel: true, cutoffHours: 24, refund: 'full' },
          wholeEventOption: true,
          createdAt: '2026-11-25T07:51:24.908Z',
          updatedAt: '2026-11-25T07:51:24.908Z',
        },
      },
    } };

export const getEvent: Operation<EventDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id',
    {
      config: { auth: ANY_KEY, examples },
      schema: { operationId: 'getEvent', tags: ['events'], summary: 'One event with its tracks and seat counts', description: 'A checkout key reads only published events (in test mode also draft test events); a live draft answers it 404.', params: IdParams, response: { 200: answer(EventAnswer, 'The event.'), ...ownershipErrors } },
    },
    async (req) => ({ success: true as const, data: await present(deps, await events.loadReadableEvent(deps.db, keyPrincipal(req), req.params.id)) }),
  );
