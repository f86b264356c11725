import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { OfflinePaymentInput } from './offline-payment.schemas.js';
import { OnSaleInput } from './on-sale.schemas.js';

const DateText = Type.String({
  maxLength: 40,
  description: 'A date `YYYY-MM-DD` or an ISO 8601 date-time with offset, e.g. `2026-12-05T18:30:00+05:30`.',
});
const TrackEnd = Type.String({
  maxLength: 40,
  description:
    'When the track ends, on or after its `date` (null clears it): a date `YYYY-MM-DD` or an ISO 8601 date-time with offset. The same as `endsAt`.',
});
const TrackDate = Type.String({
  maxLength: 40,
  description:
    'The track’s start (null: the event’s): a date `YYYY-MM-DD` (the session is that whole day) or an ISO 8601 date-time with offset (the same as `startsAt`).',
});
const StartsAt = Type.String({
  maxLength: 40,
  description:
    'When the session starts: an ISO 8601 date-time with offset, e.g. `2026-12-21T18:30:00+05:30` (null: the event’s start). Stored as the track’s `date`; sending both with different values answers 400 `conflicting_fields`.',
});
const EndsAt = Type.String({
  maxLength: 40,
  description:
    'When the session ends: an ISO 8601 date-time with offset, after `startsAt` (null clears it). Stored as the track’s `endDate`.',
});
const Rupees = Type.Number({ minimum: 0, description: 'Rupees, at most two decimal places.' });
const Capacity = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Seats; 0 means unlimited.' });

export const TierInput = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 80,
      description: 'Sent as `ticketType` when registering. "General" is reserved for the base price.',
    }),
    price: Rupees,
    capacity: Type.Optional(Capacity),
    membersOnly: Type.Optional(
      Type.Boolean({
        description: 'Only for holders of a membership in good standing on this account and mode.',
      }),
    ),
    availableFrom: Type.Optional(Nullable(DateText)),
    availableUntil: Type.Optional(Nullable(DateText)),
    sac: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 6,
          description:
            'GST: the SAC of this tier’s tickets (4 or 6 digits beginning with 99); null: the event’s.',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const CustomFieldInput = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 50,
      description:
        'Key of the answer in a registration’s customFields: any text without control characters (`constructor`, `__proto__` and the like behave like any other name).',
    }),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    type: Type.Optional(
      Type.Union([
        Type.Literal('text'),
        Type.Literal('number'),
        Type.Literal('email'),
        Type.Literal('select'),
        Type.Literal('checkbox'),
      ]),
    ),
    required: Type.Optional(Type.Boolean()),
    options: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

export const WaitlistInput = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Takes names when sold out (default false).' })),
    offerMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_080,
        description: 'How long an offer holds its seat (default 60).',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'When sold out, people may wait; a seat that comes free is offered to the first in line and held for offerMinutes.',
  },
);

export const Waitlist = Type.Object({ enabled: Type.Boolean(), offerMinutes: Type.Integer() });

export const SelfServiceInput = Type.Object(
  {
    transfer: Type.Optional(
      Type.Boolean({
        description:
          'The attendee may transfer the ticket to another person from their own page (default false).',
      }),
    ),
    cancel: Type.Optional(
      Type.Boolean({ description: 'The attendee may cancel from their own page (default false).' }),
    ),
    cutoffHours: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 8_760,
        description: 'Both close this many hours before the event starts (default 24).',
      }),
    ),
    refund: Type.Optional(
      Type.Union(
        [
          Type.Literal('full'),
          Type.Literal('none'),
          Type.Object(
            {
              feePercent: Type.Number({
                minimum: 0,
                maximum: 100,
                description: 'At most two decimals; the fee is rounded half up to the paisa.',
              }),
            },
            { additionalProperties: false },
          ),
        ],
        {
          description:
            'What a cancellation from the attendee’s page refunds: all of it (default), nothing, or all but a fee.',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The attendee’s own page (/t/{token}): what it may change and until when. Fields left out keep their value.',
  },
);

export const SelfService = Type.Object({
  transfer: Type.Boolean(),
  cancel: Type.Boolean(),
  cutoffHours: Type.Integer(),
  refund: Type.Union([
    Type.Literal('full'),
    Type.Literal('none'),
    Type.Object({ feePercent: Type.Number() }),
  ]),
});

const TrackPlan = Nullable(
  Type.String({
    maxLength: 100,
    description:
      'Reserved seating for this session: one of the account’s seating plans, its seats sold for this track alone (the same plan on two tracks is two sittings, each seat sold once in each); null: unseated. Either the event has a plan (`seatingPlanId`, and no tracks) or every track has one (two tracks may share a plan): 400 `invalid_seating_plan` otherwise, and a seated event with tracks does not sell the whole event (`wholeEventOption` off). Each category is sold as the tier of the same name; a tier’s capacity is its category’s seats over all the tracks, and a track’s capacity its plan’s seats that are not blocked (less its house seats). Seats are held with `POST /api/v1/events/{id}/seats/hold` and `subEventId`. While a seat of a track is booked or held, that track keeps its plan (409 `seating_plan_in_use`).',
  }),
);

export const TrackInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    price: Type.Optional(Rupees),
    capacity: Type.Optional(Capacity),
    date: Type.Optional(Nullable(TrackDate)),
    endDate: Type.Optional(Nullable(TrackEnd)),
    startsAt: Type.Optional(Nullable(StartsAt)),
    endsAt: Type.Optional(Nullable(EndsAt)),
    waitlist: Type.Optional(Nullable(WaitlistInput)),
    seatingPlanId: Type.Optional(TrackPlan),
  },
  { additionalProperties: false },
);

export const TrackPatch = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    price: Type.Optional(Rupees),
    capacity: Type.Optional(Capacity),
    date: Type.Optional(Nullable(TrackDate)),
    endDate: Type.Optional(Nullable(TrackEnd)),
    startsAt: Type.Optional(Nullable(StartsAt)),
    endsAt: Type.Optional(Nullable(EndsAt)),
    waitlist: Type.Optional(Nullable(WaitlistInput)),
    seatingPlanId: Type.Optional(TrackPlan),
  },
  { additionalProperties: false },
);

const eventFields = {
  title: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Shown publicly; the slug is derived from it.',
  }),
  description: Type.String({ maxLength: 20_000 }),
  startDate: DateText,
  endDate: Nullable(DateText),
  location: Nullable(Type.String({ maxLength: 500 })),
  capacity: Capacity,
  price: Type.Number({
    minimum: 0,
    description: 'Rupees, at most two decimals; 0 or omitted makes the event free.',
  }),
  sendTicketEmails: Type.Boolean({
    description:
      'Accepted and NOT stored: the service’s ticket email stays on (only platform staff can switch it off).',
  }),
  specialPrices: Type.Array(TierInput, { maxItems: 50, description: 'Ticket tiers.' }),
  maxTeamSize: Type.Integer({ minimum: 1, maximum: 100, description: '2 or more makes a team event.' }),
  requiresApproval: Type.Boolean({
    description: 'Free registrations wait as pending until the organiser approves.',
  }),
  customFields: Type.Array(CustomFieldInput, {
    maxItems: 50,
    description: 'Questions asked at registration.',
  }),
  tracks: Type.Array(TrackInput, {
    maxItems: 200,
    description: 'Initial tracks; later ones are appended with POST …/tracks.',
  }),
  date: Type.Unknown({ description: 'Not an input: sending it answers 400 naming startDate.' }),
  taxCategory: Type.Union(
    [
      Type.Literal('standard'),
      Type.Literal('admission_exempt_upto_500'),
      Type.Literal('premium_sporting'),
      Type.Literal('none'),
    ],
    {
      description:
        'GST on this event’s tickets (prices are tax-inclusive as charged): `standard` 18 % (conferences, workshops, meetups; the default); `admission_exempt_upto_500` the exemption for admission to a circus, dance, drama, ballet, award function, concert, pageant, musical performance, sporting event or planetarium at ₹500 or less per person (a bill of supply), above that the whole price at 18 %; `premium_sporting` 40 % (sporting events like the IPL, since 22 Sep 2025); `none` the service issues no GST document. Confirm with your tax adviser.',
    },
  ),
  supplierGstin: Nullable(
    Type.String({
      maxLength: 20,
      description:
        'GST: the GSTIN that supplies this event when it is not the account’s (a casual registration in the event’s state); its documents are numbered in series of their own and carry the legal name and address of the account’s GST settings (without settings, no documents are issued).',
    }),
  ),
  sac: Nullable(
    Type.String({
      maxLength: 6,
      description:
        'GST: the SAC of the tickets, 4 or 6 digits beginning with 99 (no official mapping exists; e.g. 999622 performing arts, 999652 sports, 998596 conferences); a tier may set its own. null: 9996.',
    }),
  ),
  venueState: Nullable(
    Type.String({
      maxLength: 2,
      description:
        'GST: the state code of the venue (29 Karnataka, 27 Maharashtra, …), the place of supply; null: the supplier’s own state.',
    }),
  ),
  waitlist: WaitlistInput,
  selfService: SelfServiceInput,
  offlinePayment: OfflinePaymentInput,
  onSale: OnSaleInput,
  wholeEventOption: Type.Boolean({
    description:
      'With tracks: whether the whole event is also sold as one option, at the base `price` (a booking without `subEventId`). Off: every booking names its track (`subEventId`), else 400 `track_required`. Omitted on creation through the API: true, as before the setting existed (a client that books without a track keeps working); the dashboard creates events with it off. Without tracks the event itself is what is sold, whatever this says.',
  }),
  seatingPlanId: Nullable(
    Type.String({
      maxLength: 100,
      description:
        'Reserved seating: one of the account’s seating plans (`/api/v1/seating-plans`); null: unseated. Each category of the plan is sold as the tier (`specialPrices`) of the same name, and every tier must name a category: 400 `invalid_seating_plan` otherwise. The event’s `capacity` and each tier’s `capacity` are then the plan’s seats that are not blocked (less the event’s house seats), whatever was sent, and follow the plan when it is edited. An event with tracks seats each track instead (the track’s `seatingPlanId`): 400 for both. Seats are held with `POST /api/v1/events/{id}/seats/hold` and booked with register’s `holdToken`. While any seat of the event is booked or held, its plan cannot change (409 `seating_plan_in_use`).',
    }),
  ),
};

export const EventCreate = Type.Object(
  {
    title: eventFields.title,
    description: eventFields.description,
    startDate: Type.Optional(eventFields.startDate),
    endDate: Type.Optional(eventFields.endDate),
    location: Type.Optional(eventFields.location),
    capacity: Type.Optional(eventFields.capacity),
    price: Type.Optional(eventFields.price),
    sendTicketEmails: Type.Optional(eventFields.sendTicketEmails),
    specialPrices: Type.Optional(eventFields.specialPrices),
    maxTeamSize: Type.Optional(eventFields.maxTeamSize),
    requiresApproval: Type.Optional(eventFields.requiresApproval),
    customFields: Type.Optional(eventFields.customFields),
    tracks: Type.Optional(eventFields.tracks),
    waitlist: Type.Optional(eventFields.waitlist),
    selfService: Type.Optional(eventFields.selfService),
    offlinePayment: Type.Optional(eventFields.offlinePayment),
    onSale: Type.Optional(eventFields.onSale),
    wholeEventOption: Type.Optional(eventFields.wholeEventOption),
    seatingPlanId: Type.Optional(eventFields.seatingPlanId),
    status: Type.Optional(
      Type.Union([Type.Literal('draft'), Type.Literal('published')], {
        description: 'Ignored: a new event is always a draft; publish with PATCH.',
      }),
    ),
    date: Type.Optional(eventFields.date),
    taxCategory: Type.Optional(eventFields.taxCategory),
    supplierGstin: Type.Optional(eventFields.supplierGstin),
    sac: Type.Optional(eventFields.sac),
    venueState: Type.Optional(eventFields.venueState),
  },
  {
    additionalProperties: false,
    description: '`startDate` is required (checked after the other fields so that `date` can be named).',
  },
);

export const EventPatch = Type.Object(
  {
    ...Type.Partial(EventCreate).properties,
    status: Type.Optional(
      Type.Union([Type.Literal('draft'), Type.Literal('published')], {
        description:
          'Publishing a live event needs canPublish (a test event does not) and, when it costs money, a service that takes live payments (409 `payments_not_configured`); unpublishing is never blocked.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Every creation field may change; fields left out keep their value.',
  },
);
