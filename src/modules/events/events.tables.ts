// The events module's tables: their row types, and in EventsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, Json, Mode } from '../../db/columns.js';

/** The tables the events module owns. */
export interface EventsTables {
  events: EventsTable;
  seat_counters: SeatCountersTable;
}

export interface TierDoc {
  name: string;
  pricePaise: number;
  capacity: number;
  membersOnly: boolean;
  availableFrom: string | null;
  availableUntil: string | null;
  /** The SAC the organiser chose for this tier (GST, docs/decisions/17-the-organisers-office.md); null: the event's. */
  sac?: string | null;
}

/** A waitlist's settings (an event's, or a track's own). */
export interface WaitlistDoc {
  enabled: boolean;
  /** How long an offer holds its seat. */
  offerMinutes: number;
}

/** What an attendee may do from their own page, and until when (hours before the start). */
export interface SelfServiceDoc {
  transfer: boolean;
  cancel: boolean;
  cutoffHours: number;
  /** `full`, `none`, or the part of the price kept as a fee, in hundredths of a percent. */
  refund: 'full' | 'none' | { feeBasisPoints: number };
}

/** Payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md). */
export type OfflineMethod = 'bank_transfer' | 'upi_to_organiser' | 'cash_at_venue';
export interface OfflinePaymentDoc {
  enabled: boolean;
  methods: OfflineMethod[];
  instructions: string;
  payWithinDays: number;
  /** The organiser's UPI id that `upi_to_organiser` pays (null without that method). */
  upiId: string | null;
  /** The payee name a UPI app shows (null: the event's title). */
  upiName: string | null;
}

/** When the sale opens and how its waiting room admits buyers (docs/decisions/26-a-fair-waiting-room.md). */
export interface OnSaleDoc {
  /** When the sale opens (ISO date-time, UTC); null: open now. */
  opensAt: string | null;
  waitingRoom: { enabled: boolean; admitPerMinute: number; sessionMinutes: number };
  /** Tickets per email and per phone across the event's orders; stored, not enforced yet. */
  perBuyerLimit: number | null;
}

export interface TrackDoc {
  title: string;
  pricePaise: number;
  capacity: number;
  date: string | null;
  /** When the track ends (absent or null: not given). */
  endDate?: string | null;
  /** The track's own waitlist; absent: the event's applies. */
  waitlist?: WaitlistDoc | null;
  /** Reserved seating: the account's plan this track's seats are sold from (absent or null: unseated). */
  seatingPlanId?: string | null;
}

export interface CustomFieldDoc {
  name: string;
  label: string;
  type: 'text' | 'number' | 'email' | 'select' | 'checkbox';
  required: boolean;
  options: string[] | null;
}

export type EventStatus = 'draft' | 'published';

export interface EventsTable {
  id: string;
  account_id: string;
  mode: Mode;
  slug: string;
  status: EventStatus;
  title: string;
  description: string;
  start_date: string | null;
  start_at: Timestamp | null;
  end_date: string | null;
  location: string | null;
  capacity: number;
  price_paise: number;
  currency: string;
  max_team_size: number;
  requires_approval: boolean;
  custom_fields: Json<CustomFieldDoc[]>;
  special_prices: Json<TierDoc[]>;
  tracks: Json<TrackDoc[]>;
  ticket_emails_enabled: Generated<boolean>;
  waitlist: ColumnType<WaitlistDoc | null, string | null | undefined, string | null>;
  self_service: ColumnType<SelfServiceDoc | null, string | null | undefined, string | null>;
  /** Payment outside the gateway; null: off. */
  offline_payment: ColumnType<OfflinePaymentDoc | null, string | null | undefined, string | null>;
  /** The sale's opening and its waiting room; null: none. */
  on_sale: ColumnType<OnSaleDoc | null, string | null | undefined, string | null>;
  /** With tracks: whether the whole event is also sold, at the base price (docs/decisions/28-a-persons-day.md). */
  whole_event_option: ColumnType<boolean, boolean | undefined, boolean>;
  /** Reserved seating (docs/decisions/23-reserved-seating.md): the account's plan its seats come from; null: unseated. */
  seating_plan_id: ColumnType<string | null, string | null | undefined, string | null>;

  created_at: Timestamp;
  updated_at: Timestamp;
  /** GST (docs/decisions/17-the-organisers-office.md): how admission to this event is taxed. */
  tax_category: ColumnType<TaxCategory, TaxCategory | undefined, TaxCategory>;
  /** The GSTIN that supplies this event when it is not the account's (a casual registration in the event's state). */
  supplier_gstin: ColumnType<string | null, string | null | undefined, string | null>;
  /** The SAC the organiser chose for the event's tickets (a tier may choose its own). */
  sac: ColumnType<string | null, string | null | undefined, string | null>;
  /** The GST state code of the venue: the place of supply. */
  venue_state: ColumnType<string | null, string | null | undefined, string | null>;
}

export type TaxCategory = 'standard' | 'admission_exempt_upto_500' | 'premium_sporting' | 'none';

export interface SeatCountersTable {
  event_id: string;
  scope: string;
  capacity: number;
  taken: Generated<number>;
}
