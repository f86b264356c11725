import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { EventDeps } from '../events.deps.js';
import { EventPatch } from '../events.schemas.js';
import * as events from '../events.service.js';
import { IdParams, EventAnswer, ownershipErrors, present } from './event.js';

const examples: OperationExamples = { requests: { default: { value: { location: 'Hall B, Pune', capacity: 250, status: 'published' } } }, responses: {
      '200': {
        success: true,
        data: {
          id: EX.eventId,
          slug: EX.slug,
          status: 'published',
          mode: 'test',
          title: 'Pune Tech Summit 2027',
          description: 'A day of talks on building for India: payments, scale and the tools we use.',
          startDate: '2027-01-16T10:00:00+05:30',
          date: '2027-01-16T10:00:00+05:30',
          endDate: '2027-01-16T17:30:00+05:30',
          location: 'Hall B, Pune',
          capacity: 250,
          taken: 0,
          remaining: 250,
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

export const updateEvent: Operation<EventDeps> = (app, deps) =>
  app.patch(
    '/api/v1/events/:id',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'updateEvent',
        tags: ['events'],
        summary: 'Change any creation field, or publish / unpublish with status',
        description:
          'Fields left out keep their value; `null` clears endDate or location. Publishing a **test** event needs nothing more (test events are never public). Publishing a **live** event needs canPublish (403 `organiser_access_required` otherwise; ask for it with `POST /dashboard/api/publishing-access`). A live event that costs money (a base, tier or track price above 0) is refused with 409 `payments_not_configured` while the service takes no live payments (its Razorpay keys are not set), when it is published or when a published one is made paid; free events publish meanwhile.',
        params: IdParams,
        body: EventPatch,
        response: { 200: answer(EventAnswer, 'The event as changed.'), ...ownershipErrors },
      },
    },
    async (req) => ({ success: true as const, data: await present(deps, await events.patchEvent(deps, keyPrincipal(req), req.params.id, req.body)) }),
  );
