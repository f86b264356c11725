import { Type } from 'typebox';
import { addressKey } from '../../../http/client-address.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { CustomFieldAnswers, RegisterBody } from '../../registrations/registrations.schemas.js';
import { assertAdmitted } from '../../waiting-room/admission-check.js';
import * as service from '../checkout.service.js';
import * as bookings from '../page-bookings.service.js';
import { Access, CALL_AUTH, callSource, E, PAGE_AUTH, Slug, type CheckoutContext } from '../page-context.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: {
        key: EX.checkoutKey,
        name: 'Rohan Das',
        email: 'rohan@example.in',
        customFields: { company: 'Acme' },
      },
    },
  },
  responses: {
    '201': {
      status: 'payment_required',
      orderId: EX.orderId,
      amount: 49900,
      currency: 'INR',
      key: 'rzp_test_sandbox',
      ticket: 'reg_JNxgg7P0eTWYfL6DBPvVTA.lRt-b3JkTyekK91q6qgDtP',
    },
  },
};

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

const Body = Type.Object(
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
    paymentMethod: RegisterBody.properties.paymentMethod,
    subEventId: Type.Optional(Type.String({ maxLength: 10 })),
    admissionToken: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'While the event’s waiting room is on (`onSale.waitingRoom.enabled`): the `admissionToken` its queue gave this email (`GET /e/{slug}/queue/status`); without a valid one, 403 `admission_required`.',
      }),
    ),
    holdToken: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'A seated event: the token of the seats held from the page’s seat map (`POST /e/{slug}/seats/hold`), one seat per person (the buyer and each team member), all of one category, which is the tier. Required for a seated event (400 `seat_hold_required`); 409 `seat_hold_lapsed` when the hold lapsed, was let go or was booked already; 400 `seat_hold_mismatch` when the seats and the people differ in number.',
      }),
    ),
  },
  { additionalProperties: false },
);

const Booked = answer(
  Type.Union([
    Type.Object({ status: Type.Literal('confirmed'), ticket: TicketToken }, { title: 'PageBooked' }),
    Type.Object(
      { status: Type.Literal('pending') },
      { title: 'PageAwaitingApproval', description: 'Awaiting the organiser’s approval.' },
    ),
    Type.Object(
      {
        status: Type.Literal('awaiting_payment'),
        amount: Type.Integer({ description: 'Paise: what the buyer pays the organiser.' }),
        currency: Type.String(),
        awaitingPayment: Type.Object({
          method: Type.Union([
            Type.Literal('bank_transfer'),
            Type.Literal('upi_to_organiser'),
            Type.Literal('cash_at_venue'),
          ]),
          reference: Type.String({ description: 'The reference the buyer quotes with the payment.' }),
          payBy: Type.String({ format: 'date-time' }),
          payByText: Type.String({ description: '`payBy` for people, in the event’s time zone.' }),
        }),
        instructions: Type.String({
          description: 'The organiser’s instructions (`offlinePayment.instructions`).',
        }),
        upi: Type.Union(
          [
            Type.Object({
              link: Type.String({ description: 'The `upi://pay` link, which opens a UPI app.' }),
              qr: Type.String({ description: 'A `data:image/png` QR code of the link.' }),
            }),
            Type.Null(),
          ],
          { description: '`upi_to_organiser` only, else null.' },
        ),
      },
      {
        title: 'PageAwaitingPayment',
        description:
          'Booked with an offline `paymentMethod`: pending, its seats held until `payBy`, until the organiser marks it paid (docs/decisions/24-payment-outside-the-gateway.md).',
      },
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
        description: 'Open the gateway’s checkout with key and orderId; the booking is pending until paid.',
      },
    ),
  ]),
  'Booked, awaiting approval, awaiting a payment outside the gateway (how to pay), or pending payment with the gateway checkout’s fields.',
);

export const hostedRegister: Operation<CheckoutContext> = (app, { deps }) =>
  app.post(
    '/e/:slug/register',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'hostedRegister',
        tags: ['checkout'],
        summary: 'Register from the hosted page',
        description: [
          'The page’s own call: the same registration as `POST /api/v1/events/{id}/register` step 1 (or a free booking). Answers the status, the order to open the gateway’s checkout with (or, with an offline `paymentMethod`, the amount, reference, pay-by time, the organiser’s instructions and for `upi_to_organiser` the UPI link and its QR code), and — for a confirmed or payable booking — `ticket`, the buyer’s own ticket token for the confirmation screen (`GET /e/{slug}/tickets/{ticket}`); never an id or anyone’s personal data. The page never passes the token to the embedding page.',
          PAGE_AUTH,
          CALL_AUTH,
          'Refusals are those of register (400 `payment_method_not_offered` for a method the event does not take), and a refusal about one input names it in `field` (`name`, `email`, `teamMembers[1].email`, `customFields.<name>`, `promoCode`, `membershipId`, `ticketType`, `subEventId`, `holdToken`, `paymentMethod`), so the page shows it at that field: 400 (invalid input, `invalid_phone`, `phone_required`, `promo_code_invalid`, `undeliverable_email`, `seat_hold_required`, `seat_hold_mismatch`), 403 `admission_required` (the event’s waiting room is on and `admissionToken` is missing, lapsed, or for another event or email; the organiser’s own full-key calls and a waitlist `offer`’s holder are not asked), 403 `membership_required` (a members-only tier without a valid memberProof — the page asks for a mailed code — or membershipId), 409 `per_buyer_limit_reached` (the event’s `onSale.perBuyerLimit`, counted by email and phone across the buyer’s confirmed and pending bookings, with `limit`) / `sold_out` / `seat_hold_lapsed` / `tier_not_on_sale` / `event_not_published` / `payments_not_configured` (the service takes no live payments; a message for the buyer that names no setting), 429 `too_many_pending` (3 bookings of this event already wait for payment for this email, or 20 from this client address; each is payable for `CHECKOUT_WINDOW_MINUTES` and then lapses), 502 gateway failure.',
        ].join('\n\n'),
        params: Slug,
        body: Body,
        response: {
          201: Booked,
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
      const { key, origin, offer, preview, admissionToken, ...input } = req.body;
      const access = await service.openPageCall(
        deps,
        req.params.slug,
        key,
        origin,
        callSource(req),
        offer,
        preview,
      );
      // A waitlist offer's holder is not asked: the offer is their turn (register checks it is valid).
      if (offer === undefined)
        assertAdmitted(deps.config.secretsKey, access.event, admissionToken, input.email, deps.clock.now());
      return reply
        .code(201)
        .send(
          await bookings.registerFromPage(
            deps,
            access,
            { ...input, waitlistOffer: offer },
            { clientAddress: addressKey(req.ip) },
          ),
        );
    },
  );
