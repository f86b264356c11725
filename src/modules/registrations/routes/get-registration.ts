import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as actions from '../actions.service.js';
import type { RegisterDeps } from '../register.service.js';
import { presentOne } from '../registrations.present.js';
import { E, RegAnswer, RegParams } from '../registrations.schemas.js';

const examples: OperationExamples = { responses: {
      '200': {
        success: true,
        data: {
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
          promoCode: null,
          billing: null,
          ticketCode: null,
          checkedIn: false,
          checkedInAt: null,
          createdAt: '2026-11-25T07:51:24.908Z',
          confirmedAt: '2026-11-25T07:51:24.908Z',
        },
      },
    } };

export const getRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/registrations/:registrationId',
    {
      config: { auth: FULL_ONLY, examples },
      schema: { operationId: 'getRegistration', tags: ['registrations'], summary: 'One registration', description: 'One registration of the event with its attendees, answers, payment state and check-ins.', params: RegParams, response: { 200: answer(RegAnswer, 'The registration.'), 404: E } },
    },
    async (req) => ({
      success: true as const,
      data: await presentOne(deps.db, await actions.loadOwnedRegistration(deps.db, keyPrincipal(req), req.params.id, req.params.registrationId)),
    }),
  );
