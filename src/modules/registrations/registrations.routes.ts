import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { FULL_ONLY, keyPrincipal } from '../../shared/auth.js';
import { paiseToRupees } from '../../shared/money.js';
import * as events from '../events/events.service.js';
import * as registrations from './registrations.service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const Registration = Type.Object({
  id: Type.String({ description: 'The registration id; also the QR payload.' }),
  eventId: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('cancelled'), Type.Literal('refunded')]),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String()),
  ticketType: Type.String({ description: 'A tier name, or General for the base price.' }),
  subEventId: Nullable(Type.String({ description: 'Track index as a decimal string.' })),
  quantity: Type.Integer({ description: 'Seats held: 1 + team members.' }),
  amount: Type.Number({ description: 'Rupees.' }),
  currency: Type.String(),
  platformFee: Type.Number(),
  gatewayFee: Type.Number(),
  customFields: Type.Record(Type.String(), Type.Unknown()),
  teamMembers: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String(), checkedIn: Type.Boolean() })),
  promoCode: Nullable(Type.String()),
  ticketCode: Nullable(Type.String()),
  checkedIn: Type.Boolean(),
  checkedInAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  confirmedAt: Nullable(Type.String({ format: 'date-time' })),
});

type Row = Awaited<ReturnType<typeof registrations.listRegistrations>>[number];

export function presentRegistration(r: Row) {
  return {
    id: r.id,
    eventId: r.event_id,
    status: r.status,
    name: r.name,
    email: r.email,
    phone: r.phone,
    ticketType: r.ticket_type,
    subEventId: r.sub_event_id === null ? null : String(r.sub_event_id),
    quantity: r.quantity,
    amount: paiseToRupees(Number(r.amount_paise)),
    currency: r.currency,
    platformFee: paiseToRupees(Number(r.platform_fee_paise)),
    gatewayFee: paiseToRupees(Number(r.gateway_fee_paise)),
    customFields: r.custom_fields,
    teamMembers: [],
    promoCode: r.promo_code,
    ticketCode: r.ticket_code,
    checkedIn: r.checked_in_at !== null,
    checkedInAt: r.checked_in_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    confirmedAt: r.confirmed_at?.toISOString() ?? null,
  };
}

export const registrationsRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/events/:id/registrations',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['registrations'],
          summary: 'The event’s registrations (personal data: full keys only)',
          params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
          response: {
            200: Type.Object({ success: Type.Literal(true), data: Type.Array(Registration), count: Type.Integer() }),
            404: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        const row = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
        const data = (await registrations.listRegistrations(deps.db, row.id)).map(presentRegistration);
        return { success: true as const, data, count: data.length };
      },
    );
  };
