import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely, Selectable } from 'kysely';
import { Type } from 'typebox';
import { Nullable } from '../../shared/schemas.js';
import type { Database, RegistrationsTable } from '../../db/database.js';
import { ANY_KEY, FULL_ONLY, keyPrincipal } from '../../shared/auth.js';
import { badRequest } from '../../shared/errors.js';
import { parseJsonKeepingEveryKey } from '../../shared/json-body.js';
import { PageFields, PageQuery, parseLimit } from '../../shared/paging.js';
import { CustomFieldAnswers } from './registrations.schemas.js';
import { paiseToRupees } from '../../shared/money.js';
import * as events from '../events/events.service.js';
import { Billing, BillingInput } from '../gst/gst.schemas.js';
import * as actions from './actions.service.js';
import * as promos from './promo.service.js';
import { confirmStep2, register, type RegisterDeps } from './register.service.js';
import * as registrations from './registrations.service.js';
import { Channels } from '../whatsapp/channels.schema.js';
import { channelsFor, type Channel } from '../whatsapp/whatsapp.service.js';


export const Registration = Type.Object({
  id: Type.String({ description: 'The registration id; also the QR payload until a transfer.' }),
  eventId: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('cancelled'), Type.Literal('refunded')]),
  pendingReason: Nullable(Type.Union([Type.Literal('payment'), Type.Literal('approval')], { description: 'Why a pending registration waits.' })),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String({ description: 'E.164, as normalised at registration.' })),
  whatsappOptIn: Type.Boolean({ description: 'The buyer asked for the ticket over WhatsApp at `phone`.' }),
  channels: Channels,
  ticketType: Type.String({ description: 'A tier name, or General for the base price.' }),
  subEventId: Nullable(Type.String({ description: 'Track index as a decimal string.' })),
  quantity: Type.Integer({ description: 'Seats held: 1 + team members.' }),
  amount: Type.Number({ description: 'Rupees, after any promo code.' }),
  currency: Type.String(),
  platformFee: Type.Number({ description: 'Rupees; recorded at confirmation (0 in test mode and for free tickets).' }),
  gatewayFee: Type.Number({ description: 'Rupees; recorded at confirmation.' }),
  customFields: Type.Record(Type.String(), Type.Unknown(), { description: 'Answers keyed by question name.' }),
  teamMembers: Type.Array(
    Type.Object({ id: Type.String({ description: 'The member’s own ticket id (their QR).' }), name: Type.String(), email: Type.String(), checkedIn: Type.Boolean() }),
  ),
  promoCode: Nullable(Type.String()),
  billing: Billing,
  ticketCode: Nullable(Type.String({ description: 'Set by a transfer: the QR payload from then on.' })),
  checkedIn: Type.Boolean(),
  checkedInAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  confirmedAt: Nullable(Type.String({ format: 'date-time' })),
});

type Row = Selectable<RegistrationsTable>;
type AttendeeRow = Pick<registrations.AttendeeRow, 'id' | 'idx' | 'name' | 'email' | 'checked_in_at'>;

export function presentRegistration(r: Row, attendees: readonly AttendeeRow[], channels: readonly Channel[] = []) {
  const primary = attendees.find((a) => a.idx === 0);
  return {
    id: r.id,
    eventId: r.event_id,
    status: r.status,
    pendingReason: r.pending_reason,
    name: r.name,
    email: r.email,
    phone: r.phone,
    whatsappOptIn: r.whatsapp_opt_in,
    channels: [...channels],
    ticketType: r.ticket_type,
    subEventId: r.sub_event_id === null ? null : String(r.sub_event_id),
    quantity: r.quantity,
    amount: paiseToRupees(Number(r.amount_paise)),
    currency: r.currency,
    platformFee: paiseToRupees(Number(r.platform_fee_paise)),
    gatewayFee: paiseToRupees(Number(r.gateway_fee_paise)),
    customFields: r.custom_fields,
    teamMembers: attendees.filter((a) => a.idx > 0).map((a) => ({ id: a.id, name: a.name, email: a.email, checkedIn: a.checked_in_at !== null })),
    promoCode: r.promo_code,
    billing: !r.billing ? null : { gstin: r.billing.gstin, name: r.billing.name, address: r.billing.address, state: r.billing.stateCode },
    ticketCode: r.ticket_code,
    checkedIn: (primary?.checked_in_at ?? null) !== null,
    checkedInAt: primary?.checked_in_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    confirmedAt: r.confirmed_at?.toISOString() ?? null,
  };
}

async function presentOne(db: Kysely<Database>, r: Row) {
  const [people, channels] = await Promise.all([registrations.attendeesOf(db, [r.id]), channelsFor(db, [r.id])]);
  return presentRegistration(r, people.get(r.id) ?? [], channels.get(r.id));
}

const RegisterBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    phone: Type.Optional(Type.String({ maxLength: 32, description: 'E.164 (`+919812345678`) or a 10-digit Indian mobile number (given +91); spaces, hyphens, dots and brackets ignored. Stored in E.164; anything else is 400 `invalid_phone`. Empty means none.' })),
    whatsappOptIn: Type.Optional(
      Type.Boolean({
        description: 'The buyer agrees to get the ticket over WhatsApp at `phone` (the consent is stored with the booking; ask for it in words that name the business and WhatsApp). Needs `phone` (400 `phone_required`). When the service has WhatsApp configured, a confirmed live booking then also gets its primary ticket as a WhatsApp template message (the QR as header image; name, event and date as parameters), sent by a durable job with the mail’s retry rules; its delivery shows in `channels`. Test mode sends none, as it sends no mail.',
      }),
    ),
    customFields: Type.Optional(CustomFieldAnswers),
    teamMembers: Type.Optional(
      Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), email: Type.String({ minLength: 3, maxLength: 254 }) }, { additionalProperties: false }), {
        maxItems: 99,
        description: 'Team events only (maxTeamSize ≥ 2). Each member gets a ticket with its own id.',
      }),
    ),
    promoCode: Type.Optional(Type.String({ maxLength: 40 })),
    membershipId: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'For a membersOnly tier booked with a checkout key: the id of a membership in good standing with this email on this account and mode (members find it in their membership confirmation mail); without it 403 `membership_required`. A full key needs none (the organiser’s server vouches for the email).',
      }),
    ),
    ticketType: Type.Optional(Type.String({ maxLength: 80, description: 'A tier name from specialPrices; omitted means General at the base price.' })),
    subEventId: Type.Optional(Type.String({ maxLength: 10, description: 'A track index as a decimal string: books that track at its price and capacity.' })),
    billing: Type.Optional(BillingInput),
    waitlistOffer: Type.Optional(
      Type.String({
        maxLength: 120,
        description:
          'The token of a waitlist offer (the `offer` of the offer mail’s link): books the one seat the offer holds, for its track and tier, even while sold out. 409 `offer_not_valid` once it lapsed or was used; 400 `offer_mismatch` for another choice or with team members.',
      }),
    ),
    registrationId: Type.Optional(Type.String({ maxLength: 100, description: 'Step 2 only.' })),
    orderId: Type.Optional(Type.String({ maxLength: 100, description: 'Step 2 only.' })),
    paymentId: Type.Optional(Type.String({ maxLength: 100, description: 'Step 2 only.' })),
  },
  {
    additionalProperties: false,
    description:
      'Free event, or paid step 1: name and email (required) and the optional fields. Paid step 2: exactly registrationId, orderId and paymentId; any other field (such as signature) is refused with 400.',
  },
);

const RegisterAnswer = Type.Union([
  Type.Object(
    {
      success: Type.Literal(true),
      registrationId: Type.String(),
      status: Type.Union([Type.Literal('confirmed'), Type.Literal('pending')], { description: '`pending` when the event requires approval.' }),
      ticketIds: Type.Array(Type.String(), { description: 'One per person, the primary’s (the registration id) first.' }),
    },
    { title: 'FreeRegistration', description: 'Free: confirmed in one call (or pending approval). No orderId.' },
  ),
  Type.Object(
    {
      success: Type.Literal(true),
      registrationId: Type.String(),
      orderId: Type.String(),
      amount: Type.Integer({ description: 'Paise; pass unchanged to the gateway checkout.' }),
      currency: Type.String(),
      key: Type.String({ description: 'The gateway’s public key, safe in a browser.' }),
    },
    { title: 'PaymentOrder', description: 'Paid step 1: open the gateway checkout with key and orderId.' },
  ),
]);

const Step2Answer = Type.Object(
  {
    success: Type.Literal(true),
    registrationId: Type.String(),
    status: Type.Literal('confirmed'),
    orderId: Type.String(),
    paymentId: Type.String(),
  },
  { title: 'Confirmation', description: 'The only truth about a paid registration. Repeating step 2 with the same ids answers the same.' },
);

const EventParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const RegParams = Type.Object({ id: Type.String({ maxLength: 100 }), registrationId: Type.String({ maxLength: 100 }) });
const RegAnswer = Type.Object({ success: Type.Literal(true), data: Registration });
const E = Type.Ref('Error');

const PromoCode = Type.Object({
  id: Type.String(),
  code: Type.String(),
  discountPercent: Nullable(Type.Integer()),
  discountAmount: Nullable(Type.Number({ description: 'Rupees off the booking total.' })),
  validFrom: Nullable(Type.String({ format: 'date-time' })),
  validUntil: Nullable(Type.String({ format: 'date-time' })),
  maxUses: Nullable(Type.Integer()),
  uses: Type.Integer({ description: 'Confirmed bookings that used the code.' }),
  usesReserved: Type.Integer({
    description: 'Uses held by bookings still waiting for payment or approval. `uses + usesReserved` never exceeds maxUses; a reservation is released when its booking is cancelled, rejected or expires unpaid.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const registrationsRoutes =
  (deps: RegisterDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const reg = deps;
    // Answers are keyed by names organisers choose; keep every key as it was sent.
    parseJsonKeepingEveryKey(app);

    app.post(
      '/api/v1/events/:id/register',
      {
        config: { auth: ANY_KEY },
        schema: {
          tags: ['registrations'],
          summary: 'Register: free in one call, paid in two steps around the gateway checkout',
          description: [
            'Free (or discounted to 0): 201 `{ success, registrationId, status }`, no orderId. Paid step 1: 201 `{ orderId, registrationId, amount, currency, key }` and a pending registration with the answers intact. Paid step 2: exactly `{ registrationId, orderId, paymentId }` → 200 confirmation; the payment is verified at the gateway and bound to the order and the registration.',
            'Each person on a confirmed booking is mailed a ticket: the date in words in the event’s time zone (`EVENT_TIME_ZONE`, India Standard Time by default), what was paid (or `free`) and, for the payer, a receipt line, the QR code of the bare ticket id, an `event.ics` calendar file (UID = the ticket id) and the link to the attendee’s own page.',
            'Refusals (a refusal about one input names it in `field`: `name`, `email`, `teamMembers[i].email`, `customFields.<name>`, `promoCode`, `membershipId`, `ticketType`, `subEventId`): 400 invalid input (`invalid_phone`, `phone_required` for whatsappOptIn without a phone), `promo_code_invalid` for a promo code that is unknown, out of date or used up (one code and one sentence for all three), an email that provably cannot receive mail (`undeliverable_email`); 402 `payment_not_verified` for a payment id that is unknown, not captured, for another order or amount, or bound to another registration (the registration stays pending); 403 `members_only` (full key: the email holds no membership in good standing) or `membership_required` (checkout key: a members-only tier needs `membershipId`, a membership in good standing with this email); 409 `sold_out` when the seats are gone (a payment already taken is refunded and the registration ends cancelled); 409 `event_not_published` for a live draft; 409 `payments_not_configured` when the service takes no live payments (its message names no setting: buyers may read it); 502 when the gateway fails (nothing changes).',
            'Unpaid bookings hold nothing for long: a paid booking is payable for `CHECKOUT_WINDOW_MINUTES` (default 30) after step 1, then the reconciliation sweep cancels it and releases its promo code’s use (a payment that still arrives is refunded in full). At most 3 bookings of an event wait for payment per email, and — for a checkout key — 20 per client address (as the service sees it, after `TRUST_PROXY`); step 1 beyond that answers 429 `too_many_pending`, before any gateway order.',
            'Test keys may register on draft test events; live events must be published.',
          ].join('\n\n'),
          params: EventParams,
          body: RegisterBody,
          response: { 200: Step2Answer, 201: RegisterAnswer, 402: E, 404: E, 409: E, 502: E, 503: E },
        },
      },
      async (req, reply) => {
        const p = keyPrincipal(req);
        const body = req.body;
        const step2Fields = ['registrationId', 'orderId', 'paymentId'] as const;
        if (step2Fields.some((f) => body[f] !== undefined)) {
          const extra = Object.keys(body).filter((k) => !(step2Fields as readonly string[]).includes(k));
          if (extra.length > 0) throw badRequest('invalid_request', `step 2 takes exactly registrationId, orderId and paymentId; remove ${extra.join(', ')}`);
          const missing = step2Fields.filter((f) => body[f] === undefined);
          if (missing.length > 0) throw badRequest('invalid_request', `step 2 is missing ${missing.join(', ')}`);
          const c = await confirmStep2(reg, p, req.params.id, { registrationId: body.registrationId!, orderId: body.orderId!, paymentId: body.paymentId! });
          return reply.code(200).send({ success: true as const, ...c });
        }
        if (body.name === undefined) throw badRequest('invalid_request', 'body is missing required field "name"');
        if (body.email === undefined) throw badRequest('invalid_request', 'body is missing required field "email"');
        const r = await register(reg, p, req.params.id, {
          name: body.name,
          email: body.email,
          phone: body.phone,
          whatsappOptIn: body.whatsappOptIn,
          customFields: body.customFields,
          teamMembers: body.teamMembers,
          promoCode: body.promoCode,
          membershipId: body.membershipId,
          ticketType: body.ticketType,
          subEventId: body.subEventId,
          billing: body.billing,
          waitlistOffer: body.waitlistOffer,
        }, { clientAddress: req.ip });
        if (r.kind === 'free') return reply.code(201).send({ success: true as const, registrationId: r.registrationId, status: r.status, ticketIds: r.ticketIds });
        return reply.code(201).send({ success: true as const, registrationId: r.registrationId, orderId: r.orderId, amount: r.amount, currency: r.currency, key: r.key });
      },
    );

    app.get(
      '/api/v1/events/:id/registrations',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['registrations'],
          summary: 'The event’s registrations, one page at a time (personal data: full keys only)',
          description:
            'Oldest first. At most `limit` registrations (default 100, at most 1,000); `hasMore` and `nextCursor` tell whether more follow, read them with `startingAfter=<nextCursor>`. `count` is the event’s total.',
          params: EventParams,
          querystring: Type.Object(PageQuery, { additionalProperties: false }),
          response: {
            200: Type.Object({ success: Type.Literal(true), data: Type.Array(Registration), count: Type.Integer({ description: 'Registrations of the event in all.' }), ...PageFields }),
            404: E,
          },
        },
      },
      async (req) => {
        const row = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
        const page = await registrations.listRegistrationsPage(deps.db, row.id, { limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        const channels = await channelsFor(deps.db, page.items.map((r) => r.id));
        const data = page.items.map((r) => presentRegistration(r, page.people.get(r.id) ?? [], channels.get(r.id)));
        return { success: true as const, data, count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );

    app.get(
      '/api/v1/events/:id/registrations/:registrationId',
      {
        config: { auth: FULL_ONLY },
        schema: { tags: ['registrations'], summary: 'One registration', params: RegParams, response: { 200: RegAnswer, 404: E } },
      },
      async (req) => ({
        success: true as const,
        data: await presentOne(deps.db, await actions.loadOwnedRegistration(deps.db, keyPrincipal(req), req.params.id, req.params.registrationId)),
      }),
    );

    const action = (
      path: string,
      summary: string,
      description: string,
      run: (p: ReturnType<typeof keyPrincipal>, eventId: string, registrationId: string) => Promise<Row>,
    ) =>
      app.post(
        `/api/v1/events/:id/registrations/:registrationId/${path}`,
        {
          config: { auth: FULL_ONLY },
          schema: { tags: ['registrations'], summary, description, params: RegParams, response: { 200: RegAnswer, 404: E, 409: E, 502: E } },
        },
        async (req) => ({ success: true as const, data: await presentOne(deps.db, await run(keyPrincipal(req), req.params.id, req.params.registrationId)) }),
      );

    action('approve', 'Approve a registration awaiting approval', 'Confirms it and claims its seats (409 `sold_out` when none are left; it then stays pending). Approving a confirmed one changes nothing.', (p, e, r) => actions.approve(reg, p, e, r));
    action('reject', 'Reject a registration awaiting approval', 'It ends cancelled.', (p, e, r) => actions.reject(reg, p, e, r));
    action('cancel', 'Cancel a registration', 'Frees its seats; a paid one is refunded in full at the gateway first (502 and no change when the gateway fails).', (p, e, r) =>
      actions.end(reg, p, e, r, 'cancelled'),
    );
    action('refund', 'Refund a paid registration in full', 'Refunds at the gateway, marks it refunded and frees its seats. 409 `nothing_to_refund` for a free or unpaid one.', (p, e, r) =>
      actions.end(reg, p, e, r, 'refunded'),
    );

    app.post(
      '/api/v1/events/:id/registrations/:registrationId/transfer',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['registrations'],
          summary: 'Transfer a confirmed ticket to someone else',
          description: 'Issues a new `ticketCode` (the QR payload from then on) and emails the new holder; the old QR is refused at the door with `reason: transferred`.',
          params: RegParams,
          body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), email: Type.String({ minLength: 3, maxLength: 254 }) }, { additionalProperties: false }),
          response: { 200: RegAnswer, 404: E, 409: E },
        },
      },
      async (req) => ({
        success: true as const,
        data: await presentOne(deps.db, await actions.transfer(reg, keyPrincipal(req), req.params.id, req.params.registrationId, req.body)),
      }),
    );

    app.get(
      '/api/v1/events/:id/promo-codes',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['registrations'],
          summary: 'The event’s promo codes, one page at a time',
          description: 'Oldest first; at most `limit` codes (default 100, at most 1,000) with `hasMore` and `nextCursor`; `startingAfter=<nextCursor>` reads on. `count` is the total.',
          params: EventParams,
          querystring: Type.Object(PageQuery, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(PromoCode), count: Type.Integer(), ...PageFields }), 404: E },
        },
      },
      async (req) => {
        const row = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
        const page = await promos.listPromosPage(deps.db, row.id, { limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        return { success: true as const, data: page.items.map(promos.presentPromo), count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );

    app.post(
      '/api/v1/events/:id/promo-codes',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['registrations'],
          summary: 'Create a promo code',
          description:
            'Exactly one of discountPercent (1–100) or discountAmount (rupees off the booking total). Codes are case-insensitive. A booking with the code reserves a use when it is made (paid step 1, a free booking, one awaiting approval) and the reservation becomes a use when it is confirmed, so nobody who paid the discounted price is refused later and `uses` never exceeds maxUses under any concurrency; a booking cancelled, rejected or expired unpaid gives its reservation back. A code that is unknown, out of date or used up (uses plus reservations at maxUses) is refused at registration with 400. A discount that makes the price 0 confirms like a free event.',
          params: EventParams,
          body: Type.Object(
            {
              code: Type.String({ minLength: 2, maxLength: 40 }),
              discountPercent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
              discountAmount: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
              validFrom: Type.Optional(Type.String({ maxLength: 40 })),
              validUntil: Type.Optional(Type.String({ maxLength: 40 })),
              maxUses: Type.Optional(Type.Integer({ minimum: 1 })),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ success: Type.Literal(true), data: PromoCode }), 404: E, 409: E },
        },
      },
      async (req, reply) => {
        const row = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
        return reply.code(201).send({ success: true as const, data: promos.presentPromo(await promos.createPromo(deps, row.id, req.body)) });
      },
    );
  };
