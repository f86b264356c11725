// What an organiser sends for an event, a tier, a question or a track, checked and
// turned into the stored shape. Pure: throws AppError on bad input.
import type {
  CustomFieldDoc,
  OfflinePaymentDoc,
  OnSaleDoc,
  SelfServiceDoc,
  TaxCategory,
  TierDoc,
  TrackDoc,
  WaitlistDoc,
} from '../../db/database.js';
import { endsOnOrAfter, parseEventDate } from '../../lib/dates.js';
import { badRequest } from '../../lib/errors.js';
import { GSTIN_PROBLEM_TEXT, gstinProblem, isStateCode, normaliseGstin } from '../../lib/gstin.js';
import { rupeesToPaise } from '../../lib/money.js';
import {
  validateSelfService,
  validateWaitlist,
  type SelfServiceInput,
  type WaitlistInput,
} from './policies.js';
import { type OfflinePaymentInput, validateOfflinePayment } from './offline-payment.js';
import { type OnSaleInput, validateOnSale } from './on-sale.js';

export interface TierInput {
  name: string;
  price: number;
  capacity?: number;
  membersOnly?: boolean;
  availableFrom?: string | null;
  availableUntil?: string | null;
  sac?: string | null;
}

export interface CustomFieldInput {
  name: string;
  label?: string;
  type?: CustomFieldDoc['type'];
  required?: boolean;
  options?: string[];
}

export interface TrackInput {
  title?: string;
  price?: number;
  capacity?: number;
  date?: string | null;
  /** When it ends: on or after `date` (or the event's start when `date` is unset). */
  endDate?: string | null;
  /** When the session starts: a date-time with offset, stored as `date` (null: the event's start). */
  startsAt?: string | null;
  /** When the session ends: a date-time with offset after the start, stored as `endDate`. */
  endsAt?: string | null;
  /** The track's own waitlist; null: the event's applies. */
  waitlist?: WaitlistInput | null;
  /** Reserved seating: the account's plan this track's seats are sold from; null: unseated. */
  seatingPlanId?: string | null;
}

export interface EventInput {
  title?: string;
  description?: string;
  startDate?: string | null;
  endDate?: string | null;
  location?: string | null;
  capacity?: number;
  price?: number;
  sendTicketEmails?: boolean;
  specialPrices?: TierInput[];
  maxTeamSize?: number;
  requiresApproval?: boolean;
  customFields?: CustomFieldInput[];
  tracks?: TrackInput[];
  waitlist?: WaitlistInput;
  selfService?: SelfServiceInput;
  offlinePayment?: OfflinePaymentInput;
  onSale?: OnSaleInput;
  wholeEventOption?: boolean;
  /** Reserved seating: the account's seating plan to sell this event's seats from; null: unseated. */
  seatingPlanId?: string | null;
  /** Reserved seating for every track at once, from one plan (null: unseats them): the dashboard's one choice. */
  everyTrackPlanId?: string | null;
  status?: 'draft' | 'published';
  date?: unknown;
  taxCategory?: TaxCategory;
  supplierGstin?: string | null;
  sac?: string | null;
  venueState?: string | null;
}
// ---------------------------------------------------------------- validation

export function refuseDateField(input: EventInput): void {
  if (input.date !== undefined) {
    throw badRequest('use_start_date', '`date` is not an input field: send the event date as startDate');
  }
}

function text(value: string, field: string, max: number, allowEmpty = false): string {
  const v = value.trim();
  if (!allowEmpty && v === '') throw badRequest('invalid_field', `${field} must not be empty`);
  if (v.length > max) throw badRequest('invalid_field', `${field} must be at most ${max} characters`);
  return v;
}

function optionalInstant(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null) return null;
  return parseEventDate(value, field).instant.toISOString();
}

// ---------------------------------------------------------------- GST (docs/decisions/17-the-organisers-office.md)

/** A SAC: services codes begin with 99; 4 digits (the heading) or 6. */
const SAC = /^99[0-9]{2}([0-9]{2})?$/;

export function optionalSac(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null) return null;
  const v = value.trim();
  if (!SAC.test(v))
    throw badRequest(
      'invalid_sac',
      `${field} must be a SAC of 4 or 6 digits beginning with 99, such as 999622`,
    );
  return v;
}

function optionalGstin(value: string | null, field: string): string | null {
  if (value === null) return null;
  const g = normaliseGstin(value);
  const problem = gstinProblem(g);
  if (problem !== null) throw badRequest('invalid_gstin', `${field} ${GSTIN_PROBLEM_TEXT[problem]}`);
  return g;
}

function optionalState(value: string | null, field: string): string | null {
  if (value === null) return null;
  if (!isStateCode(value.trim()))
    throw badRequest('invalid_state', `${field} must be a two-digit GST state code such as 29 (Karnataka)`);
  return value.trim();
}

export function validateTiers(tiers: TierInput[]): TierDoc[] {
  const seen = new Set<string>();
  return tiers.map((t, i) => {
    const name = text(t.name, `specialPrices[${i}].name`, 80);
    const key = name.toLowerCase();
    if (key === 'general')
      throw badRequest('invalid_tier', `specialPrices[${i}].name "General" is reserved for the base price`);
    if (seen.has(key)) throw badRequest('invalid_tier', `specialPrices[${i}].name "${name}" is used twice`);
    seen.add(key);
    const doc: TierDoc = {
      name,
      pricePaise: rupeesToPaise(t.price, `specialPrices[${i}].price`),
      capacity: t.capacity ?? 0,
      membersOnly: t.membersOnly ?? false,
      availableFrom: optionalInstant(t.availableFrom, `specialPrices[${i}].availableFrom`),
      availableUntil: optionalInstant(t.availableUntil, `specialPrices[${i}].availableUntil`),
      sac: optionalSac(t.sac, `specialPrices[${i}].sac`),
    };
    if (doc.availableFrom && doc.availableUntil && doc.availableUntil < doc.availableFrom) {
      throw badRequest('invalid_tier', `specialPrices[${i}].availableUntil must be after availableFrom`);
    }
    return doc;
  });
}

const CONTROL = /[\u0000-\u001f\u007f]/;

export function validateCustomFields(fields: CustomFieldInput[]): CustomFieldDoc[] {
  const seen = new Set<string>();
  return fields.map((f, i) => {
    // Any name (`constructor` and `__proto__` included): answers are read by own keys only.
    if (f.name.length < 1 || f.name.length > 50 || CONTROL.test(f.name)) {
      throw badRequest(
        'invalid_custom_field',
        `customFields[${i}].name must be 1 to 50 characters without control characters`,
      );
    }
    if (seen.has(f.name))
      throw badRequest('invalid_custom_field', `customFields[${i}].name "${f.name}" is used twice`);
    seen.add(f.name);
    const type = f.type ?? 'text';
    let options: string[] | null = null;
    if (type === 'select') {
      if (!f.options || f.options.length === 0)
        throw badRequest('invalid_custom_field', `customFields[${i}] is a select and needs options`);
      options = f.options.map((o, j) => text(o, `customFields[${i}].options[${j}]`, 200));
      if (new Set(options).size !== options.length)
        throw badRequest('invalid_custom_field', `customFields[${i}].options has duplicates`);
    } else if (f.options !== undefined) {
      throw badRequest('invalid_custom_field', `customFields[${i}].options is only for type select`);
    }
    return {
      name: f.name,
      label: f.label === undefined ? f.name : text(f.label, `customFields[${i}].label`, 200),
      type,
      required: f.required ?? false,
      options,
    };
  });
}

/**
 * One of a track's times from either of its names: `startsAt`/`endsAt` (a date-time with
 * offset) or `date`/`endDate` (also a bare day, which makes the session whole days). Both
 * given and different: 400 `conflicting_fields`. Undefined: not sent.
 */
function trackTime(
  plain: string | null | undefined,
  timed: string | null | undefined,
  names: [string, string],
): string | null | undefined {
  if (timed !== undefined && timed !== null) {
    const t = parseEventDate(timed, names[1]);
    if (t.dateOnly)
      throw badRequest(
        'invalid_date',
        `${names[1]} must be a date-time with offset, such as 2026-12-20T18:30:00+05:30 (a bare day goes in ${names[0]})`,
      );
    if (plain !== undefined && plain !== null && plain.trim() !== t.text)
      throw badRequest(
        'conflicting_fields',
        `${names[0]} and ${names[1]} say different things: send one of them`,
      );
    return t.text;
  }
  if (plain !== undefined) return plain === null ? null : parseEventDate(plain, names[0]).text;
  return timed; // null clears, undefined keeps
}

export function validateTrack(t: TrackInput, where: string, base?: TrackDoc): TrackDoc {
  const title = t.title !== undefined ? text(t.title, `${where}title`, 200) : base?.title;
  if (title === undefined) throw badRequest('invalid_request', `${where}title is required`);
  const givenStart = trackTime(t.date, t.startsAt, [`${where}date`, `${where}startsAt`]);
  const givenEnd = trackTime(t.endDate, t.endsAt, [`${where}endDate`, `${where}endsAt`]);
  const date = givenStart === undefined ? (base?.date ?? null) : givenStart;
  const endDate = givenEnd === undefined ? (base?.endDate ?? null) : givenEnd;
  if (endDate !== null && date !== null) {
    const [start, end] = [parseEventDate(date, `${where}date`), parseEventDate(endDate, `${where}endDate`)];
    if (t.startsAt !== undefined || t.endsAt !== undefined) {
      // A session given by its times ends after it starts.
      if (
        !start.dateOnly && !end.dateOnly
          ? end.instant.getTime() <= start.instant.getTime()
          : !endsOnOrAfter(start, end)
      ) {
        throw badRequest('invalid_date', `${where}endsAt must be after ${where}startsAt`);
      }
    } else if (!endsOnOrAfter(start, end))
      throw badRequest('invalid_date', `${where}endDate must be on or after ${where}date`);
  }
  const waitlist =
    t.waitlist === undefined
      ? (base?.waitlist ?? null)
      : t.waitlist === null
        ? null
        : validateWaitlist(t.waitlist, base?.waitlist, `${where}waitlist`);
  const seatingPlanId = t.seatingPlanId === undefined ? (base?.seatingPlanId ?? null) : t.seatingPlanId;
  return {
    title,
    pricePaise: t.price !== undefined ? rupeesToPaise(t.price, `${where}price`) : (base?.pricePaise ?? 0),
    capacity: t.capacity ?? base?.capacity ?? 0,
    date,
    ...(endDate !== null ? { endDate } : {}),
    ...(waitlist ? { waitlist } : {}),
    ...(seatingPlanId ? { seatingPlanId } : {}),
  };
}

/** The fields of an event row that creation and PATCH both derive from input. */
export interface EventFields {
  title: string;
  description: string;
  start_date: string | null;
  start_at: Date | null;
  end_date: string | null;
  location: string | null;
  capacity: number;
  price_paise: number;
  max_team_size: number;
  requires_approval: boolean;
  custom_fields: CustomFieldDoc[];
  special_prices: TierDoc[];
  tracks: TrackDoc[];
  tax_category: TaxCategory;
  supplier_gstin: string | null;
  sac: string | null;
  venue_state: string | null;
  waitlist: WaitlistDoc | null;
  self_service: SelfServiceDoc | null;
  offline_payment: OfflinePaymentDoc | null;
  on_sale: OnSaleDoc | null;
  whole_event_option: boolean;
  seating_plan_id: string | null;
}

export function applyInput(base: EventFields, input: EventInput): EventFields {
  const out = { ...base };
  if (input.title !== undefined) out.title = text(input.title, 'title', 200);
  if (input.description !== undefined) out.description = text(input.description, 'description', 20_000, true);
  if (input.startDate !== undefined) {
    if (input.startDate === null) throw badRequest('invalid_date', 'startDate cannot be removed');
    const d = parseEventDate(input.startDate, 'startDate');
    out.start_date = d.text;
    out.start_at = d.instant;
  }
  if (input.endDate !== undefined)
    out.end_date = input.endDate === null ? null : parseEventDate(input.endDate, 'endDate').text;
  if (out.end_date !== null && out.start_date !== null) {
    if (
      !endsOnOrAfter(parseEventDate(out.start_date, 'startDate'), parseEventDate(out.end_date, 'endDate'))
    ) {
      throw badRequest('invalid_date', 'endDate must be on or after startDate');
    }
  }
  if (input.location !== undefined)
    out.location = input.location === null ? null : text(input.location, 'location', 500, true) || null;
  if (input.capacity !== undefined) out.capacity = input.capacity;
  if (input.price !== undefined) out.price_paise = rupeesToPaise(input.price, 'price');
  if (input.maxTeamSize !== undefined) out.max_team_size = input.maxTeamSize;
  if (input.requiresApproval !== undefined) out.requires_approval = input.requiresApproval;
  if (input.customFields !== undefined) out.custom_fields = validateCustomFields(input.customFields);
  if (input.specialPrices !== undefined) out.special_prices = validateTiers(input.specialPrices);
  if (input.tracks !== undefined) out.tracks = input.tracks.map((t, i) => validateTrack(t, `tracks[${i}].`));
  if (input.taxCategory !== undefined) out.tax_category = input.taxCategory;
  if (input.supplierGstin !== undefined)
    out.supplier_gstin = optionalGstin(input.supplierGstin, 'supplierGstin');
  if (input.sac !== undefined) out.sac = optionalSac(input.sac, 'sac');
  if (input.venueState !== undefined) out.venue_state = optionalState(input.venueState, 'venueState');
  if (input.waitlist !== undefined) out.waitlist = validateWaitlist(input.waitlist, base.waitlist);
  if (input.selfService !== undefined)
    out.self_service = validateSelfService(input.selfService, base.self_service);
  if (input.offlinePayment !== undefined)
    out.offline_payment = validateOfflinePayment(input.offlinePayment, base.offline_payment);
  if (input.onSale !== undefined) out.on_sale = validateOnSale(input.onSale, base.on_sale);
  if (input.wholeEventOption !== undefined) out.whole_event_option = input.wholeEventOption;
  if (input.seatingPlanId !== undefined) out.seating_plan_id = input.seatingPlanId;
  const every = input.everyTrackPlanId;
  if (every !== undefined)
    out.tracks = out.tracks.map(({ seatingPlanId: _, ...t }) => (every ? { ...t, seatingPlanId: every } : t));
  return out;
}

export function parseTrackIndex(value: string, field = 'index'): number {
  if (!/^\d{1,6}$/.test(value))
    throw badRequest('invalid_track_index', `${field} must be a track index: 0, 1, 2 …`);
  return Number(value);
}
