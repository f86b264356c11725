import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ANY_KEY, FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { badRequest } from '../../lib/errors.js';
import { rupeesToPaise } from '../../lib/money.js';
import { parseJsonKeepingEveryKey } from '../../http/json-body.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';
import { EventParams, PromoCode, RegAnswer, RegParams, Registration, RegisterAnswer, RegisterBody, Step2Answer } from './registrations.schemas.js';
import { presentOne, presentRegistration, type Row } from './registrations.present.js';
import * as events from '../events/events.service.js';
import * as actions from './actions.service.js';
import * as promos from './promo.service.js';
import { confirmStep2, register, type RegisterDeps } from './register.service.js';
import * as registrations from './registrations.service.js';
import { channelsFor } from '../whatsapp/whatsapp.service.js';
import { addressKey } from '../../http/client-address.js';

const E = Type.Ref('Error');

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
            'Refusals (a refusal about one input names it in `field`: `name`, `email`, `teamMembers[i].email`, `customFields.<name>`, `promoCode`, `membershipId`, `ticketType`, `subEventId`): 400 invalid input (`invalid_phone`, `phone_required` for whatsappOptIn without a phone, `track_required` without `subEventId` on an event with tracks that does not sell the whole event — see the event’s `wholeEventOption`), `promo_code_invalid` for a promo code that is unknown, out of date or used up (one code and one sentence for all three), an email that provably cannot receive mail (`undeliverable_email`); 402 `payment_not_verified` for a payment id that is unknown, not captured, for another order or amount, or bound to another registration (the registration stays pending); 403 `members_only` (full key: the email holds no membership in good standing) or `membership_required` (checkout key: a members-only tier needs `membershipId`, a membership in good standing with this email); 409 `sold_out` when the seats are gone (a payment already taken is refunded and the registration ends cancelled); 409 `event_not_published` for a live draft; 409 `payments_not_configured` when the service takes no live payments (its message names no setting: buyers may read it); 502 when the gateway fails (nothing changes).',
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
          memberProof: body.memberProof,
          ticketType: body.ticketType,
          subEventId: body.subEventId,
          billing: body.billing,
          waitlistOffer: body.waitlistOffer,
        }, { clientAddress: addressKey(req.ip) });
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
    action('cancel', 'Cancel a registration', 'Frees its seats; a paid one is refunded in full. A paid one is claimed first (status `refunding`), then refunded at the gateway with an idempotency key derived from the booking and the change: of any number of concurrent changes to one booking exactly one acts, the others answer 409 `registration_changed` and move no money. The gateway refusing answers 502 `gateway_refused` and changes nothing; a gateway that does not answer gives 502 `gateway_error` and the booking stays `refunding` until the reconciliation sweep, asking again with the same key, completes it.', (p, e, r) =>
      actions.end(reg, p, e, r, 'cancelled'),
    );
    app.post(
      '/api/v1/events/:id/registrations/:registrationId/refund',
      {
        config: { auth: FULL_ONLY },
        // No body is a refund in full, as before partial refunds existed.
        preValidation: async (req) => {
          req.body ??= {};
        },
        schema: {
          tags: ['registrations'],
          summary: 'Refund a paid registration, in full or in part',
          description: [
            'Without `amount`: refunds what is left of the payment at the gateway, marks the registration refunded and frees its seats. With `amount` (rupees) and a `reason`: gives back that part; the registration stays confirmed and its ticket still admits (an `amount` equal to all that is left is a refund in full). Never more than was captured: 409 `refund_exceeds_capture` beyond what is left (`amount - refunded` of the registration), also when another refund took it meanwhile. Where the booking has a tax invoice or bill of supply, each refund issues a credit note for the part refunded. The buyer is mailed the amount and when to expect it.',
            '409 `nothing_to_refund` for a free or unpaid one, `already_ended` for one cancelled or refunded. A paid one is claimed first (status `refunding`), then refunded at the gateway with an idempotency key derived from the booking, the change and what was refunded before: of any number of concurrent changes to one booking exactly one acts, the others answer 409 `registration_changed` (or `refund_exceeds_capture`) and move no money. The gateway refusing answers 502 `gateway_refused` and changes nothing; a gateway that does not answer gives 502 `gateway_error` and the booking stays `refunding` until the reconciliation sweep, asking again with the same key, completes it.',
          ].join('\n\n'),
          params: RegParams,
          body: Type.Optional(
            Type.Object(
              {
                amount: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Rupees to give back (at most two decimals); omitted: all that is left.' })),
                reason: Type.Optional(Type.String({ maxLength: 300, description: 'Why; required with `amount`. The buyer’s mail and the credit note carry it.' })),
              },
              { additionalProperties: false },
            ),
          ),
          response: { 200: RegAnswer, 400: E, 404: E, 409: E, 502: E },
        },
      },
      async (req) => {
        const p = keyPrincipal(req);
        const body = req.body ?? {};
        const row =
          body.amount === undefined
            ? await actions.end(reg, p, req.params.id, req.params.registrationId, 'refunded')
            : await actions.refundPartOf(reg, p, req.params.id, req.params.registrationId, { amountPaise: rupeesToPaise(body.amount, 'amount'), reason: body.reason ?? '' });
        return { success: true as const, data: await presentOne(deps.db, row) };
      },
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
