// The hosted page's JSON calls: registering, confirming a payment, an order's status and
// the sandbox's checkout stand-in for test events.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BookingStatus, CustomFieldAnswers } from '../registrations/registrations.schemas.js';
import * as service from './checkout.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from './page-context.js';
import { addressKey } from '../../http/client-address.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

export function pageCallRoutes(app: App, ctx: CheckoutContext): void {
  const { deps } = ctx;
  const TicketToken = Type.String({
    description:
      'The buyer’s own ticket token: `GET /e/{slug}/tickets/{ticket}` answers the ticket once the booking is confirmed.',
  });
  const TeamMember = Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 200 }),
      email: Type.String({ minLength: 3, maxLength: 254 }),
    },
    { additionalProperties: false },
  );
  app.post(
    '/e/:slug/register',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'Register from the hosted page',
        description: [
          'The page’s own call: the same registration as `POST /api/v1/events/{id}/register` step 1 (or a free booking). Answers the status, the order to open the gateway’s checkout with, and — for a confirmed or payable booking — `ticket`, the buyer’s own ticket token for the confirmation screen (`GET /e/{slug}/tickets/{ticket}`); never an id or anyone’s personal data. The page never passes the token to the embedding page.',
          PAGE_AUTH,
          CALL_AUTH,
          'Refusals are those of register, and a refusal about one input names it in `field` (`name`, `email`, `teamMembers[1].email`, `customFields.<name>`, `promoCode`, `membershipId`, `ticketType`, `subEventId`), so the page shows it at that field: 400 (invalid input, `invalid_phone`, `phone_required`, `promo_code_invalid`, `undeliverable_email`), 403 `membership_required` (a members-only tier without a valid memberProof — the page asks for a mailed code — or membershipId), 409 `sold_out` / `tier_not_on_sale` / `event_not_published` / `payments_not_configured` (the service takes no live payments; a message for the buyer that names no setting), 429 `too_many_pending` (3 bookings of this event already wait for payment for this email, or 20 from this client address; each is payable for `CHECKOUT_WINDOW_MINUTES` and then lapses), 502 gateway failure.',
        ].join('\n\n'),
        params: Slug,
        body: Type.Object(
          {
            ...Access,
            name: Type.String({ minLength: 1, maxLength: 200 }),
            email: Type.String({ minLength: 3, maxLength: 254 }),
            phone: Type.Optional(Type.String({ maxLength: 32 })),
            whatsappOptIn: Type.Optional(
              Type.Boolean({
                description:
                  'The buyer ticked “send my ticket on WhatsApp”: as `whatsappOptIn` of register (needs `phone`, 400 `phone_required`).',
              }),
            ),
            customFields: Type.Optional(CustomFieldAnswers),
            teamMembers: Type.Optional(Type.Array(TeamMember, { maxItems: 99 })),
            promoCode: Type.Optional(Type.String({ maxLength: 40 })),
            membershipId: Type.Optional(
              Type.String({
                maxLength: 100,
                description:
                  'A members-only tier, without memberProof: the id of a membership in good standing with this email (403 `membership_required` otherwise).',
              }),
            ),
            memberProof: Type.Optional(
              Type.String({
                maxLength: 800,
                description:
                  'A members-only tier: the `proof` of `POST /e/{slug}/member-code/verify` for this email, in place of membershipId (403 `membership_required` once lapsed, for another email, or when the membership is no longer in good standing).',
              }),
            ),
            ticketType: Type.Optional(Type.String({ maxLength: 80 })),
            subEventId: Type.Optional(Type.String({ maxLength: 10 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Union([
            Type.Object({ status: Type.Literal('confirmed'), ticket: TicketToken }, { title: 'PageBooked' }),
            Type.Object(
              { status: Type.Literal('pending') },
              { title: 'PageAwaitingApproval', description: 'Awaiting the organiser’s approval.' },
            ),
            Type.Object(
              {
                status: Type.Literal('payment_required'),
                orderId: Type.String(),
                amount: Type.Integer({ description: 'Paise.' }),
                currency: Type.String(),
                key: Type.String({ description: 'The gateway’s public key.' }),
                ticket: TicketToken,
              },
              {
                title: 'PageOrder',
                description:
                  'Open the gateway’s checkout with key and orderId; the booking is pending until paid.',
              },
            ),
          ]),
          402: E,
          403: E,
          404: E,
          409: E,
          502: E,
          503: E,
        },
      },
    },
    async (req, reply) => {
      const { key, origin, offer, preview, ...input } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      return reply
        .code(201)
        .send(
          await service.registerFromPage(
            deps,
            access,
            { ...input, waitlistOffer: offer },
            { clientAddress: addressKey(req.ip) },
          ),
        );
    },
  );

  const Handler = {
    razorpay_order_id: Type.String({ maxLength: 100 }),
    razorpay_payment_id: Type.String({ maxLength: 100 }),
    razorpay_signature: Type.String({ maxLength: 200 }),
  };
  app.post(
    '/e/:slug/payment',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'Confirm a paid booking with the gateway checkout’s handler fields',
        description: [
          'The three fields Razorpay’s checkout hands its handler. The booking is found by the order id; the signature must be the HMAC-SHA256 of `<stored order id>|<payment id>` under the key secret (402 `payment_not_verified` otherwise, and nothing changes). Then the payment is verified at the gateway and bound exactly as register step 2 does, with the same refusals (402, 409 `sold_out` with a refund, 502).',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object({ ...Access, ...Handler }, { additionalProperties: false }),
        response: {
          200: Type.Object({ status: Type.Literal('confirmed') }),
          402: E,
          403: E,
          404: E,
          409: E,
          502: E,
          503: E,
        },
      },
    },
    async (req) => {
      const { key, origin, offer, preview, ...handler } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      return service.confirmFromPage(deps, access, handler);
    },
  );

  app.get(
    '/e/:slug/orders/:orderId',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'Where a booking from the hosted page stands, by its order',
        description: [
          'The page asks while the buyer pays in another tab, or after the gateway’s notification confirmed a booking whose checkout was interrupted. Only the status.',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Type.Object({ slug: Slug.properties.slug, orderId: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object(Access),
        response: {
          200: Type.Object({ status: BookingStatus }),
          403: E,
          404: E,
        },
      },
    },
    async (req) =>
      service.orderStatus(
        deps,
        await service.openPageCall(
          deps,
          req.params.slug,
          req.query.key,
          req.query.origin,
          callSource(req),
          req.query.offer,
          req.query.preview,
        ),
        req.params.orderId,
      ),
  );

  app.post(
    '/e/:slug/sandbox-checkout',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['checkout'],
        summary: 'Test events: the sandbox’s stand-in for the gateway’s checkout',
        description: [
          'Pays (`success`) or fails (`failure`) the booking’s sandbox order and answers what Razorpay’s checkout hands its handler, signed with the sandbox’s own secret; the page then confirms through `POST /e/{slug}/payment` like a live one. Test events only (404 otherwise).',
          PAGE_AUTH,
          CALL_AUTH,
        ].join('\n\n'),
        params: Slug,
        body: Type.Object(
          {
            ...Access,
            orderId: Type.String({ maxLength: 100 }),
            outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Union([
            Type.Object(Handler, { title: 'SandboxHandlerFields' }),
            Type.Object({ failed: Type.Literal(true) }, { title: 'SandboxPaymentFailed' }),
          ]),
          403: E,
          404: E,
        },
      },
    },
    async (req) => {
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        req.body.key,
        req.body.origin,
        callSource(req),
        req.body.offer,
        req.body.preview,
      );
      return service.sandboxCheckout(deps, access, req.body.orderId, req.body.outcome);
    },
  );
}
