// The registrations API's schemas: the answers to an event's questions (also taken by the
// hosted page's JSON call), a registration as the API shows it (also the dashboard's), and the
// requests and answers of registrations.routes.ts. Kept out of the routes file so other
// modules can use them.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { Billing, BillingInput } from '../gst/gst.schemas.js';
import { Channels } from '../whatsapp/channels.schema.js';
import { MAX_ANSWER_LENGTH } from './answers.js';
import { BOOKING_STATUSES } from './lifecycle/booking-lifecycle.js';

/** Answers keyed by question name; any name, `__proto__` and `constructor` included. */
export const CustomFieldAnswers = Type.Record(
  Type.String({ maxLength: 50 }),
  Type.Union([Type.String({ maxLength: MAX_ANSWER_LENGTH }), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    maxProperties: 50,
    description: `Answers keyed by the event’s customFields names (at most 50; text at most ${MAX_ANSWER_LENGTH} characters). Any name works, \`constructor\` and \`__proto__\` included.`,
  },
);

/** A booking's status (lifecycle/booking-lifecycle.ts): the table's states. */
export const BookingStatus = Type.Union(
  BOOKING_STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      'pending (awaiting payment or approval), confirmed, refunding (a refund claimed and being made at the gateway: it ends cancelled or refunded, or confirmed again when the gateway refuses it), cancelled, refunded. See docs/architecture/booking-lifecycle.md.',
  },
);

/** A booking to be paid outside the gateway (docs/decisions/24-payment-outside-the-gateway.md). */
export const AwaitingPayment = Type.Object(
  {
    method: Type.String({ description: 'bank_transfer, upi_to_organiser or cash_at_venue.' }),
    reference: Type.String({
      description:
        'What the buyer quotes when paying: `TKT-` and six characters without 0/O or 1/I, unique in the account.',
    }),
    payBy: Type.String({
      format: 'date-time',
      description:
        'When an unpaid booking is cancelled and its seats freed (test mode: by the account’s sandbox clock).',
    }),
  },
  { title: 'AwaitingPayment' },
);

export const Registration = Type.Object({
  id: Type.String({ description: 'The registration id; also the QR payload until a transfer.' }),
  eventId: Type.String(),
  status: BookingStatus,
  pendingReason: Nullable(
    Type.Union([Type.Literal('payment'), Type.Literal('approval'), Type.Literal('offline_payment')], {
      description:
        'Why a pending registration waits: a payment at the gateway, the organiser’s approval, or a payment outside the gateway (`awaitingPayment` says how, the reference and by when).',
    }),
  ),
  awaitingPayment: Nullable(AwaitingPayment),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String({ description: 'E.164, as normalised at registration.' })),
  whatsappOptIn: Type.Boolean({ description: 'The buyer asked for the ticket over WhatsApp at `phone`.' }),
  channels: Channels,
  ticketType: Type.String({ description: 'A tier name, or General for the base price.' }),
  subEventId: Nullable(Type.String({ description: 'Track index as a decimal string.' })),
  quantity: Type.Integer({ description: 'Seats held: 1 + team members.' }),
  amount: Type.Number({ description: 'Rupees paid, after any promo code.' }),
  refunded: Type.Number({
    description: 'Rupees given back so far: partial refunds, a cancellation’s refund, a refund in full.',
  }),
  kept: Type.Number({
    description:
      'Rupees of the payment the organiser keeps: `amount - refunded` of a paid booking (a cancellation under a fee policy keeps the fee), 0 for a free or unpaid one.',
  }),
  currency: Type.String(),
  platformFee: Type.Number({
    description: 'Rupees; recorded at confirmation (0 in test mode and for free tickets).',
  }),
  gatewayFee: Type.Number({ description: 'Rupees; recorded at confirmation.' }),
  customFields: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Answers keyed by question name.',
  }),
  teamMembers: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The member’s own ticket id (their QR).' }),
      name: Type.String(),
      email: Type.String(),
      checkedIn: Type.Boolean(),
    }),
  ),
  seats: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The seat’s id in the event’s seating plan.' }),
      section: Type.String(),
      row: Type.String(),
      number: Type.Integer(),
      label: Type.String({ description: 'What a person reads: “Row C, seat 12”.' }),
      attendeeId: Nullable(
        Type.String({
          description: 'The person it is for: the booking’s id for the primary, else a team member’s.',
        }),
      ),
    }),
    {
      description:
        'A seated event’s seats (docs/guides/reserved-seating.md), one per person, in seat order; held while the booking is pending, sold once confirmed, freed when it ends (then empty). Empty for an event without a seating plan.',
    },
  ),
  promoCode: Nullable(Type.String()),
  billing: Billing,
  ticketCode: Nullable(Type.String({ description: 'Set by a transfer: the QR payload from then on.' })),
  checkedIn: Type.Boolean(),
  checkedInAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  confirmedAt: Nullable(Type.String({ format: 'date-time' })),
});

export const RegisterBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    phone: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          'E.164 (`+919812345678`) or a 10-digit Indian mobile number (given +91); spaces, hyphens, dots and brackets ignored. Stored in E.164; anything else is 400 `invalid_phone`. Empty means none.',
      }),
    ),
    whatsappOptIn: Type.Optional(
      Type.Boolean({
        description:
          'The buyer agrees to get the ticket over WhatsApp at `phone` (the consent is stored with the booking; ask for it in words that name the business and WhatsApp). Needs `phone` (400 `phone_required`). When the service has WhatsApp configured, a confirmed live booking then also gets its primary ticket as a WhatsApp template message (the QR as header image; name, event and date as parameters), sent by a durable job with the mail’s retry rules; its delivery shows in `channels`. Test mode sends none, as it sends no mail.',
      }),
    ),
    customFields: Type.Optional(CustomFieldAnswers),
    teamMembers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            email: Type.String({ minLength: 3, maxLength: 254 }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 99,
          description: 'Team events only (maxTeamSize ≥ 2). Each member gets a ticket with its own id.',
        },
      ),
    ),
    promoCode: Type.Optional(Type.String({ maxLength: 40 })),
    membershipId: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'For a membersOnly tier booked with a checkout key: the id of a membership in good standing with this email on this account and mode (members find it in their membership confirmation mail); without it 403 `membership_required`. A full key needs none (the organiser’s server vouches for the email).',
      }),
    ),
    memberProof: Type.Optional(
      Type.String({
        maxLength: 800,
        description:
          'For a membersOnly tier booked with a checkout key, in place of membershipId: the `proof` that `POST /e/{slug}/member-code/verify` answered for a code mailed to this email (good for an hour, for this account and mode). The email must still hold a membership in good standing; otherwise 403 `membership_required`.',
      }),
    ),
    ticketType: Type.Optional(
      Type.String({
        maxLength: 80,
        description: 'A tier name from specialPrices; omitted means General at the base price.',
      }),
    ),
    subEventId: Type.Optional(
      Type.String({
        maxLength: 10,
        description: 'A track index as a decimal string: books that track at its price and capacity.',
      }),
    ),
    billing: Type.Optional(BillingInput),
    waitlistOffer: Type.Optional(
      Type.String({
        maxLength: 120,
        description:
          'The token of a waitlist offer (the `offer` of the offer mail’s link): books the one seat the offer holds, for its track and tier, even while sold out. 409 `offer_not_valid` once it lapsed or was used; 400 `offer_mismatch` for another choice or with team members.',
      }),
    ),
    admissionToken: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'A checkout key, while the event’s waiting room is on (`onSale.waitingRoom.enabled`): the `admissionToken` its queue gave this email (`GET /e/{slug}/queue/status`); without a valid one, 403 `admission_required` (`field: "admissionToken"`). Full keys and a `waitlistOffer`’s holder are not asked.',
      }),
    ),
    holdToken: Type.Optional(
      Type.String({
        maxLength: 120,
        description:
          'A seated event only, and required there: the `holdToken` of `POST /api/v1/events/{id}/seats/hold`. The booking takes the held seats, one per person (the primary the first, team members in order), and their category is its tier (`ticketType` may be left out; another is 400 `seat_hold_mismatch`, as is a hold of more or fewer seats than people). 400 `seat_hold_required` without it; 409 `seat_hold_lapsed` when the hold has lapsed, was let go or was booked; 409 `event_not_seated` on an event without a plan. A paid booking keeps the seats through its checkout window; confirmation sells them; cancelling, refunding or expiring frees them.',
      }),
    ),
    paymentMethod: Type.Optional(
      Type.Union(
        [
          Type.Literal('gateway'),
          Type.Literal('bank_transfer'),
          Type.Literal('upi_to_organiser'),
          Type.Literal('cash_at_venue'),
        ],
        {
          description:
            'How a paid booking is paid: `gateway` (the default: a Razorpay order) or one of the event’s enabled `offlinePayment.methods`, which makes it pending with `awaitingPayment` until the organiser marks it paid (400 `payment_method_not_offered` for a method the event does not take, or with `waitlistOffer`). Ignored for a free booking. Checkout keys may choose it too.',
        },
      ),
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

export const RegisterAnswer = Type.Union([
  Type.Object(
    {
      success: Type.Literal(true),
      registrationId: Type.String(),
      status: Type.Union([Type.Literal('confirmed'), Type.Literal('pending')], {
        description: '`pending` when the event requires approval.',
      }),
      ticketIds: Type.Array(Type.String(), {
        description: 'One per person, the primary’s (the registration id) first.',
      }),
    },
    {
      title: 'FreeRegistration',
      description: 'Free: confirmed in one call (or pending approval). No orderId.',
    },
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
  Type.Object(
    {
      success: Type.Literal(true),
      registrationId: Type.String(),
      status: Type.Literal('pending'),
      amount: Type.Integer({ description: 'Paise due.' }),
      currency: Type.String(),
      awaitingPayment: AwaitingPayment,
    },
    {
      title: 'AwaitingOfflinePayment',
      description:
        'Paid outside the gateway: pending until the organiser marks it paid, or cancelled at payBy.',
    },
  ),
]);

export const Step2Answer = Type.Object(
  {
    success: Type.Literal(true),
    registrationId: Type.String(),
    status: Type.Literal('confirmed'),
    orderId: Type.String(),
    paymentId: Type.String(),
  },
  {
    title: 'Confirmation',
    description:
      'The only truth about a paid registration. Repeating step 2 with the same ids answers the same.',
  },
);

/** An error answer (the document's `Error`). */
export const E = Type.Ref('Error');
export const EventParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const RegParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  registrationId: Type.String({ maxLength: 100 }),
});
export const RegAnswer = Type.Object({ success: Type.Literal(true), data: Registration });

export const PromoCode = Type.Object({
  id: Type.String(),
  code: Type.String(),
  discountPercent: Nullable(Type.Integer()),
  discountAmount: Nullable(Type.Number({ description: 'Rupees off the booking total.' })),
  validFrom: Nullable(Type.String({ format: 'date-time' })),
  validUntil: Nullable(Type.String({ format: 'date-time' })),
  maxUses: Nullable(Type.Integer()),
  uses: Type.Integer({ description: 'Confirmed bookings that used the code.' }),
  usesReserved: Type.Integer({
    description:
      'Uses held by bookings still waiting for payment or approval. `uses + usesReserved` never exceeds maxUses; a reservation is released when its booking is cancelled, rejected or expires unpaid.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
