// Events and tracks: the rules, HTTP-free. Money in paise inside; rupees only in
// `presentEvent` and the inputs' validation.
import type { Kysely } from 'kysely';
import type { CustomFieldDoc, Database, Mode, TierDoc, TrackDoc } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { assertOwned, type KeyPrincipal, type SessionPrincipal } from '../../shared/auth.js';
import type { Clock } from '../../shared/clock.js';
import { endsOnOrAfter, parseEventDate } from '../../shared/dates.js';
import { badRequest, conflict, forbidden, notFound } from '../../shared/errors.js';
import type { Ids } from '../../shared/ids.js';
import { paiseToRupees, rupeesToPaise } from '../../shared/money.js';
import * as accounts from '../accounts/accounts.service.js';
import * as registrations from '../registrations/registrations.service.js';
import { computeAvailability, remainingOf, tightest, type SeatUsage } from './availability.js';
import * as repo from './events.repo.js';
import * as seats from './seats.repo.js';
import type { EventRow } from './events.repo.js';

export type { EventRow };

export interface EventDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
}

export interface TierInput {
  name: string;
  price: number;
  capacity?: number;
  membersOnly?: boolean;
  availableFrom?: string | null;
  availableUntil?: string | null;
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
  status?: 'draft' | 'published';
  date?: unknown;
}

export const countEventsByStatus = (db: Kysely<Database>, accountId: string, mode: Mode) => repo.countByStatus(db, accountId, mode);

// ---------------------------------------------------------------- validation

function refuseDateField(input: EventInput): void {
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

export function validateTiers(tiers: TierInput[]): TierDoc[] {
  const seen = new Set<string>();
  return tiers.map((t, i) => {
    const name = text(t.name, `specialPrices[${i}].name`, 80);
    const key = name.toLowerCase();
    if (key === 'general') throw badRequest('invalid_tier', `specialPrices[${i}].name "General" is reserved for the base price`);
    if (seen.has(key)) throw badRequest('invalid_tier', `specialPrices[${i}].name "${name}" is used twice`);
    seen.add(key);
    const doc: TierDoc = {
      name,
      pricePaise: rupeesToPaise(t.price, `specialPrices[${i}].price`),
      capacity: t.capacity ?? 0,
      membersOnly: t.membersOnly ?? false,
      availableFrom: optionalInstant(t.availableFrom, `specialPrices[${i}].availableFrom`),
      availableUntil: optionalInstant(t.availableUntil, `specialPrices[${i}].availableUntil`),
    };
    if (doc.availableFrom && doc.availableUntil && doc.availableUntil < doc.availableFrom) {
      throw badRequest('invalid_tier', `specialPrices[${i}].availableUntil must be after availableFrom`);
    }
    return doc;
  });
}

export function validateCustomFields(fields: CustomFieldInput[]): CustomFieldDoc[] {
  const seen = new Set<string>();
  return fields.map((f, i) => {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,49}$/.test(f.name)) {
      throw badRequest('invalid_custom_field', `customFields[${i}].name must start with a letter and hold only letters, digits and _ (50 at most)`);
    }
    if (seen.has(f.name)) throw badRequest('invalid_custom_field', `customFields[${i}].name "${f.name}" is used twice`);
    seen.add(f.name);
    const type = f.type ?? 'text';
    let options: string[] | null = null;
    if (type === 'select') {
      if (!f.options || f.options.length === 0) throw badRequest('invalid_custom_field', `customFields[${i}] is a select and needs options`);
      options = f.options.map((o, j) => text(o, `customFields[${i}].options[${j}]`, 200));
      if (new Set(options).size !== options.length) throw badRequest('invalid_custom_field', `customFields[${i}].options has duplicates`);
    } else if (f.options !== undefined) {
      throw badRequest('invalid_custom_field', `customFields[${i}].options is only for type select`);
    }
    return { name: f.name, label: f.label === undefined ? f.name : text(f.label, `customFields[${i}].label`, 200), type, required: f.required ?? false, options };
  });
}

export function validateTrack(t: TrackInput, where: string, base?: TrackDoc): TrackDoc {
  const title = t.title !== undefined ? text(t.title, `${where}title`, 200) : base?.title;
  if (title === undefined) throw badRequest('invalid_request', `${where}title is required`);
  return {
    title,
    pricePaise: t.price !== undefined ? rupeesToPaise(t.price, `${where}price`) : (base?.pricePaise ?? 0),
    capacity: t.capacity ?? base?.capacity ?? 0,
    date: t.date === undefined ? (base?.date ?? null) : t.date === null ? null : parseEventDate(t.date, `${where}date`).text,
  };
}

/** The fields of an event row that creation and PATCH both derive from input. */
interface EventFields {
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
}

function applyInput(base: EventFields, input: EventInput): EventFields {
  const out = { ...base };
  if (input.title !== undefined) out.title = text(input.title, 'title', 200);
  if (input.description !== undefined) out.description = text(input.description, 'description', 20_000, true);
  if (input.startDate !== undefined) {
    if (input.startDate === null) throw badRequest('invalid_date', 'startDate cannot be removed');
    const d = parseEventDate(input.startDate, 'startDate');
    out.start_date = d.text;
    out.start_at = d.instant;
  }
  if (input.endDate !== undefined) out.end_date = input.endDate === null ? null : parseEventDate(input.endDate, 'endDate').text;
  if (out.end_date !== null && out.start_date !== null) {
    if (!endsOnOrAfter(parseEventDate(out.start_date, 'startDate'), parseEventDate(out.end_date, 'endDate'))) {
      throw badRequest('invalid_date', 'endDate must be on or after startDate');
    }
  }
  if (input.location !== undefined) out.location = input.location === null ? null : text(input.location, 'location', 500, true) || null;
  if (input.capacity !== undefined) out.capacity = input.capacity;
  if (input.price !== undefined) out.price_paise = rupeesToPaise(input.price, 'price');
  if (input.maxTeamSize !== undefined) out.max_team_size = input.maxTeamSize;
  if (input.requiresApproval !== undefined) out.requires_approval = input.requiresApproval;
  if (input.customFields !== undefined) out.custom_fields = validateCustomFields(input.customFields);
  if (input.specialPrices !== undefined) out.special_prices = validateTiers(input.specialPrices);
  if (input.tracks !== undefined) out.tracks = input.tracks.map((t, i) => validateTrack(t, `tracks[${i}].`));
  return out;
}

// ---------------------------------------------------------------- slugs

export function slugify(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return s === '' ? 'event' : s;
}

function slugSuffix(ids: Ids): string {
  return ids.secret(9).toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 6).padEnd(6, '0');
}

// ---------------------------------------------------------------- events

export async function loadOwnedEvent(db: Kysely<Database>, p: KeyPrincipal, id: string): Promise<EventRow> {
  const row = await repo.findEvent(db, id);
  assertOwned(p, row && { accountId: row.account_id, mode: row.mode });
  return row!;
}

/** For registration: the owned event and the seats taken on its own counter. */
export async function loadOwnedEventWithTaken(db: Kysely<Database>, p: KeyPrincipal, id: string): Promise<EventRow & { seats_taken: number }> {
  const row = await repo.findEventWithTaken(db, id);
  assertOwned(p, row && { accountId: row.account_id, mode: row.mode });
  return { ...row!, seats_taken: Number(row!.seats_taken ?? 0) };
}

export async function createEvent(deps: EventDeps, p: KeyPrincipal, input: EventInput): Promise<EventRow> {
  refuseDateField(input);
  if (input.startDate === undefined || input.startDate === null) throw badRequest('invalid_request', 'body is missing required field "startDate"');
  if (input.title === undefined) throw badRequest('invalid_request', 'body is missing required field "title"');
  if (input.description === undefined) throw badRequest('invalid_request', 'body is missing required field "description"');
  const fields = applyInput(
    {
      title: '',
      description: '',
      start_date: null,
      start_at: null,
      end_date: null,
      location: null,
      capacity: 0,
      price_paise: 0,
      max_team_size: 1,
      requires_approval: false,
      custom_fields: [],
      special_prices: [],
      tracks: [],
    },
    input,
  );
  const now = deps.clock.now();
  const base = slugify(fields.title);
  let slug = (await repo.slugTaken(deps.db, base)) ? `${base}-${slugSuffix(deps.ids)}` : base;
  for (let attempt = 0; ; attempt++) {
    const id = deps.ids.make('ev', 12);
    try {
      await deps.db.transaction().execute(async (trx) => {
        await repo.insertEvent(trx, {
          id,
          account_id: p.userId,
          mode: p.mode,
          slug,
          status: 'draft',
          ...fields,
          custom_fields: JSON.stringify(fields.custom_fields),
          special_prices: JSON.stringify(fields.special_prices),
          tracks: JSON.stringify(fields.tracks),
          currency: 'INR',
          created_at: now,
          updated_at: now,
        });
        await seats.syncCounters(trx, id, fields);
      });
      return (await repo.findEvent(deps.db, id))!;
    } catch (err) {
      // Two events with the same title created at once: the loser takes a suffix.
      if (attempt < 3 && isUniqueViolation(err)) {
        slug = `${base}-${slugSuffix(deps.ids)}`;
        continue;
      }
      throw err;
    }
  }
}

export const listEvents = (db: Kysely<Database>, p: KeyPrincipal) => repo.listEvents(db, p.userId, p.mode);

export async function patchEvent(deps: EventDeps, p: KeyPrincipal, id: string, input: EventInput): Promise<EventRow> {
  refuseDateField(input);
  const row = await loadOwnedEvent(deps.db, p, id);
  const fields = applyInput(
    {
      title: row.title,
      description: row.description,
      start_date: row.start_date,
      start_at: row.start_at,
      end_date: row.end_date,
      location: row.location,
      capacity: row.capacity,
      price_paise: Number(row.price_paise),
      max_team_size: row.max_team_size,
      requires_approval: row.requires_approval,
      custom_fields: row.custom_fields,
      special_prices: row.special_prices,
      tracks: row.tracks,
    },
    input,
  );
  if (input.status === 'published' && row.status !== 'published') {
    const user = await accounts.getUser(deps.db, p.userId);
    if (!user.can_publish) {
      throw forbidden('organiser_access_required', 'publishing needs organiser access on this account (canPublish is false)');
    }
  }
  const updated = await deps.db.transaction().execute(async (trx) => {
    const u = await repo.updateEvent(trx, id, {
      ...fields,
      custom_fields: JSON.stringify(fields.custom_fields),
      special_prices: JSON.stringify(fields.special_prices),
      tracks: JSON.stringify(fields.tracks),
      status: input.status ?? row.status,
      updated_at: deps.clock.now(),
    });
    if (u) await seats.syncCounters(trx, id, u);
    return u;
  });
  if (!updated) throw notFound('no such event', 'event_not_found');
  return updated;
}

export async function deleteEvent(deps: EventDeps, s: SessionPrincipal, id: string, force: boolean): Promise<void> {
  const row = await repo.findEvent(deps.db, id);
  if (!row) throw notFound('no such event', 'event_not_found');
  if (row.account_id !== s.userId && !s.isStaff) throw forbidden('not_your_object', 'this event belongs to another account');
  const forced = force && s.isStaff;
  if (row.mode === 'live' && !forced && (await registrations.hasPaidUnrefunded(deps.db, id))) {
    throw conflict('has_paid_registrations', 'this event holds paid registrations: refund them first (force=true is for platform staff only)');
  }
  await repo.deleteEvent(deps.db, id);
}

/** Staff: switch the service's own ticket email for one event (any account's). */
export async function setTicketEmails(deps: EventDeps, eventId: string, enabled: boolean): Promise<{ eventId: string; ticketEmailsEnabled: boolean }> {
  const r = await repo.setTicketEmails(deps.db, eventId, enabled, deps.clock.now());
  if (!r) throw notFound('no such event', 'event_not_found');
  return { eventId: r.id, ticketEmailsEnabled: r.ticket_emails_enabled };
}

// ---------------------------------------------------------------- tracks

export function parseTrackIndex(value: string, field = 'index'): number {
  if (!/^\d{1,6}$/.test(value)) throw badRequest('invalid_track_index', `${field} must be a track index: 0, 1, 2 …`);
  return Number(value);
}

export async function addTrack(deps: EventDeps, p: KeyPrincipal, id: string, input: TrackInput): Promise<{ index: number; row: EventRow }> {
  await loadOwnedEvent(deps.db, p, id);
  const track = validateTrack(input, '');
  const index = await deps.db.transaction().execute(async (trx) => {
    const i = await repo.appendTrack(trx, id, track, deps.clock.now());
    if (i !== undefined) await seats.syncCounters(trx, id, (await repo.findEvent(trx, id))!);
    return i;
  });
  if (index === undefined) throw notFound('no such event', 'event_not_found');
  return { index, row: (await repo.findEvent(deps.db, id))! };
}

export async function patchTrack(deps: EventDeps, p: KeyPrincipal, id: string, index: number, input: TrackInput): Promise<EventRow> {
  const row = await loadOwnedEvent(deps.db, p, id);
  const current = row.tracks[index];
  if (!current) throw notFound(`no track at index ${index}; this event has ${row.tracks.length}`, 'track_not_found');
  const track = validateTrack(input, '', current);
  const updated = await deps.db.transaction().execute(async (trx) => {
    const u = await repo.replaceTrack(trx, id, index, track, deps.clock.now());
    if (u) await seats.syncCounters(trx, id, u);
    return u;
  });
  if (!updated) throw notFound(`no track at index ${index}`, 'track_not_found');
  return updated;
}

// ---------------------------------------------------------------- reading

export async function availability(deps: EventDeps, row: EventRow, subEventId?: string) {
  let trackIndex: number | undefined;
  if (subEventId !== undefined) {
    trackIndex = parseTrackIndex(subEventId, 'subEventId');
    if (!row.tracks[trackIndex]) throw notFound(`no track at index ${trackIndex}`, 'track_not_found');
  }
  const usage = await seats.usage(deps.db, row.id);
  return computeAvailability(eventShape(row), usage, deps.clock.now(), trackIndex);
}

export async function analytics(deps: EventDeps, row: EventRow) {
  const counts = await registrations.eventCounts(deps.db, row.id);
  const usage = await seats.usage(deps.db, row.id);
  return {
    eventId: row.id,
    eventTitle: row.title,
    totalRegistrations: counts.total,
    confirmedCount: counts.confirmed,
    pendingCount: counts.pending,
    cancelledCount: counts.cancelled,
    refundedCount: counts.refunded,
    checkedInCount: counts.checkedIn,
    totalRevenue: paiseToRupees(counts.revenuePaise),
    capacity: row.capacity,
    seatsTaken: usage.total,
    fillRate: row.capacity === 0 ? null : Math.round((usage.total / row.capacity) * 10_000) / 10_000,
  };
}

function eventShape(row: EventRow) {
  return { capacity: row.capacity, tiers: row.special_prices, tracks: row.tracks };
}

export async function usageFor(db: Kysely<Database>, eventId: string): Promise<SeatUsage> {
  return seats.usage(db, eventId);
}

export const findEvent = repo.findEvent;
export const findEventBySlug = (db: Kysely<Database>, slug: string) => db.selectFrom('events').selectAll().where('slug', '=', slug).executeTakeFirst();
export const claimSeats = seats.claim;
export const releaseSeats = seats.release;
export { EVENT_SCOPE, PAID_SCOPE, tierScope, trackScope } from './seats.repo.js';

export function presentTrack(row: EventRow, track: TrackDoc, index: number, usage: SeatUsage) {
  const taken = usage.byTrack.get(index) ?? 0;
  return {
    index,
    title: track.title,
    price: paiseToRupees(track.pricePaise),
    capacity: track.capacity,
    date: track.date ?? row.start_date,
    taken,
    remaining: tightest(remainingOf(track.capacity, taken), remainingOf(row.capacity, usage.total)),
  };
}

export function presentEvent(row: EventRow, usage: SeatUsage) {
  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    mode: row.mode,
    title: row.title,
    description: row.description,
    startDate: row.start_date,
    date: row.start_date,
    endDate: row.end_date,
    location: row.location,
    capacity: row.capacity,
    taken: usage.total,
    remaining: remainingOf(row.capacity, usage.total),
    price: paiseToRupees(Number(row.price_paise)),
    currency: 'INR' as const,
    maxTeamSize: row.max_team_size,
    requiresApproval: row.requires_approval,
    customFields: row.custom_fields,
    specialPrices: row.special_prices.map((t) => ({
      name: t.name,
      price: paiseToRupees(t.pricePaise),
      capacity: t.capacity,
      membersOnly: t.membersOnly,
      availableFrom: t.availableFrom,
      availableUntil: t.availableUntil,
    })),
    tracks: row.tracks.map((t, i) => presentTrack(row, t, i, usage)),
    ticketEmailsEnabled: row.ticket_emails_enabled,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

