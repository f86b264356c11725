// What the events API answers: an event, its tracks, its availability and its analytics.
// (What it accepts is in events.schemas.ts.)
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { SelfService, Waitlist } from './events.schemas.js';
import { OfflinePayment } from './offline-payment.schemas.js';
import { OnSale } from './on-sale.schemas.js';

export const Track = Type.Object({
  index: Type.Integer({
    description:
      'Zero-based position; positional, not stable (removing a track moves the later ones down). Use it as subEventId (a decimal string). People read it plus one: the dashboard calls index 0 “Track 1”.',
  }),
  title: Type.String(),
  price: Type.Number(),
  capacity: Type.Integer(),
  date: Nullable(Type.String({ description: 'The track’s date, or the event’s when none was set.' })),
  endDate: Nullable(Type.String({ description: 'When the track ends; null when not given.' })),
  startsAt: Nullable(
    Type.String({
      description:
        'When the session starts, a date-time with offset: the track’s own, else the event’s start (a track without a date of its own runs as the event does). null when the session is given as whole days (a bare `date`) or no date is known. What the ticket, its mail, calendars, wallets and the self-service cutoff of a booking on this track use.',
    }),
  ),
  endsAt: Nullable(
    Type.String({
      description:
        'When the session ends, a date-time with offset (the event’s end for a track without a date of its own); null when not given or given as a day.',
    }),
  ),
  taken: Type.Integer(),
  remaining: Nullable(Type.Integer()),
  waitlist: Nullable(Waitlist),
  seatingPlanId: Nullable(
    Type.String({
      description:
        'Reserved seating: the seating plan this track’s seats are sold from (`GET /api/v1/events/{id}/seats?subEventId=`); null: unseated.',
    }),
  ),
});

export const Event = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  title: Type.String(),
  description: Type.String(),
  startDate: Nullable(Type.String()),
  date: Nullable(Type.String({ description: 'Echo of startDate; never an input.' })),
  endDate: Nullable(Type.String()),
  location: Nullable(Type.String()),
  capacity: Type.Integer({ description: '0 means unlimited.' }),
  taken: Type.Integer({ description: 'Seats held by confirmed registrations.' }),
  remaining: Nullable(Type.Integer({ description: 'null when capacity is unlimited.' })),
  price: Type.Number({ description: 'Rupees.' }),
  currency: Type.Literal('INR'),
  maxTeamSize: Type.Integer(),
  requiresApproval: Type.Boolean(),
  customFields: Type.Array(
    Type.Object({
      name: Type.String(),
      label: Type.String(),
      type: Type.String(),
      required: Type.Boolean(),
      options: Nullable(Type.Array(Type.String())),
    }),
  ),
  specialPrices: Type.Array(
    Type.Object({
      name: Type.String(),
      price: Type.Number(),
      capacity: Type.Integer(),
      membersOnly: Type.Boolean(),
      availableFrom: Nullable(Type.String()),
      availableUntil: Nullable(Type.String()),
      sac: Nullable(Type.String()),
    }),
  ),
  tracks: Type.Array(Track),
  ticketEmailsEnabled: Type.Boolean(),
  taxCategory: Type.String({ description: 'standard, admission_exempt_upto_500, premium_sporting or none.' }),
  supplierGstin: Nullable(Type.String()),
  sac: Nullable(Type.String()),
  venueState: Nullable(Type.String()),
  waitlist: Waitlist,
  selfService: SelfService,
  offlinePayment: OfflinePayment,
  onSale: OnSale,
  wholeEventOption: Type.Boolean({
    description:
      'With tracks: whether the whole event is sold too, at the base price. Without tracks the event itself is sold.',
  }),
  seatingPlanId: Nullable(
    Type.String({
      description:
        'Reserved seating: the seating plan its seats are sold from (see `GET /api/v1/events/{id}/seats`); null: unseated.',
    }),
  ),

  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const Availability = Type.Object({
  capacity: Type.Integer({
    description: 'The event’s (or, with subEventId, the track’s) capacity; 0 unlimited.',
  }),
  taken: Type.Integer(),
  remaining: Nullable(
    Type.Integer({
      description:
        'Seats a registration can still take; null when unlimited. A track seat is also an event seat.',
    }),
  ),
  soldOut: Type.Boolean(),
  tiers: Type.Array(
    Type.Object({
      name: Type.String(),
      price: Type.Number(),
      capacity: Type.Integer(),
      taken: Type.Integer(),
      remaining: Nullable(Type.Integer()),
      soldOut: Type.Boolean(),
      membersOnly: Type.Boolean(),
      onSale: Type.Boolean({ description: 'Within availableFrom/availableUntil.' }),
    }),
  ),
  waitlist: Type.Object(
    {
      enabled: Type.Boolean(),
      offerMinutes: Type.Integer(),
      waiting: Type.Integer({
        description:
          'People waiting for the event (with subEventId, for that track), not counting those holding an offer.',
      }),
    },
    { description: 'The waitlist that applies here (the track’s own, else the event’s).' },
  ),
});

export const Analytics = Type.Object({
  eventId: Type.String(),
  eventTitle: Type.String(),
  totalRegistrations: Type.Integer({ description: 'Every registration (booking), whatever its status.' }),
  confirmedCount: Type.Integer(),
  pendingCount: Type.Integer(),
  cancelledCount: Type.Integer(),
  refundedCount: Type.Integer(),
  checkedInCount: Type.Integer({ description: 'Confirmed bookings checked in at the door.' }),
  totalRevenue: Type.Number({ description: 'Gross of confirmed registrations, rupees.' }),
  capacity: Type.Integer(),
  seatsTaken: Type.Integer({
    description: 'Seats held by confirmed bookings (a team booking holds several).',
  }),
  fillRate: Nullable(
    Type.Number({ description: 'seatsTaken / capacity, 0 to 1; null when capacity is unlimited.' }),
  ),
});
