// Door check-in. A scan resolves a QR value to a booking and
// the people it covers: the booking id (whole booking, or one member by index), a
// member's own id (that member alone), or the ticketCode after a transfer.
//
// Doors are where slowness shows. A lookup is answered from the event's in-memory roster
// when it is known current (rosters.ts), else by one query (the ticket, its booking, its
// event and everyone on it). An admit is always decided by the database: the conditional
// UPDATE, written with the admits queued beside it in one statement (admits.ts); the roster
// only refuses what can never become an admit (a cancelled, refunded or transferred ticket).
// The UPDATE only touches people not yet in, so two devices scanning the same ticket at
// once, on any instances, cannot both change it: exactly one answer says `changed: true`.
import type { Kysely } from 'kysely';
import type { Database, RegistrationStatus } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { appError, AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import * as events from '../events/events.service.js';
import * as registrations from '../registrations/registrations.service.js';
import * as repo from './checkin.repo.js';
import type { FastRow, PersonRow } from './checkin.repo.js';
import type { DoorRuntime } from './door-runtime.js';
import type { EventRoster, RosterHit } from './roster.js';

export interface CheckinDeps {
  db: Kysely<Database>;
  clock: Clock;
  door: DoorRuntime;
  config: { eventTimeZone: string };
}

import { isRetiredQr, refusalOf, type RefusalReason } from './entry-rule.js';
export type { RefusalReason };

interface Booking {
  id: string;
  event_id: string;
  status: RegistrationStatus;
  ticket_type: string;
  ticket_code: string | null;
  sub_event_id: number | null;
}

interface Person {
  id: string;
  idx: number;
  name: string;
  email: string;
  checked_in_at: Date | null;
  checked_in_by?: string | null;
  /** Their seat in words ("Stalls · Row C, seat 12"); null without one. */
  seat: string | null;
}

export interface Scan {
  booking: Booking;
  people: Person[];
  /** The one person a member's own QR (or memberIndex) names; undefined for the whole booking. */
  only: number | undefined;
  transferred: boolean;
}

/** The longest QR value the door reads: ids and codes are far shorter; anything longer is not a ticket. */
const MAX_QR_VALUE = 200;

/**
 * The QR value as scanned: a bare id, or a JSON payload such as {"registrationId":"…"}. A
 * value the door cannot read (empty, too long, control characters, a lone surrogate) is
 * 400 `invalid_qr`, which a device's sync answers as that one scan's refusal.
 */
export function parseQrValue(raw: string): string {
  const value = raw.trim();
  // A payload far past any ticket's is refused before it is parsed.
  if (value.length > 20 * MAX_QR_VALUE) throw badRequest('invalid_qr', 'registrationId must be the QR value');
  let id: string = value;
  if (value.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest('invalid_qr', 'the QR value looks like JSON but does not parse');
    }
    const obj = parsed as Record<string, unknown>;
    const found = obj.registrationId ?? obj.ticketCode ?? obj.qr ?? obj.id;
    if (typeof found !== 'string' || found === '')
      throw badRequest('invalid_qr', 'the QR JSON carries no registrationId');
    id = found.trim();
  }
  if (id === '' || id.length > MAX_QR_VALUE)
    throw badRequest('invalid_qr', 'registrationId must be the QR value');
  if (
    /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(
      id,
    )
  )
    throw badRequest('invalid_qr', 'the QR value holds characters no ticket has');
  return id;
}

const personOf = (r: PersonRow): Person => ({
  id: r.p_id,
  idx: r.p_idx,
  name: r.p_name,
  email: r.p_email,
  checked_in_at: r.p_checked_in_at,
  checked_in_by: r.p_checked_in_by,
  seat: r.p_seat,
});

export function toScan(rows: FastRow[]): Scan {
  const row = rows[0]!;
  return {
    booking: {
      id: row.id,
      event_id: row.event_id,
      status: row.status,
      ticket_type: row.ticket_type,
      ticket_code: row.ticket_code,
      sub_event_id: row.sub_event_id,
    },
    people: rows.map(personOf),
    only: row.scanned_idx > 0 ? row.scanned_idx : undefined,
    // The booking id stops being a ticket once the booking is transferred.
    transferred: isRetiredQr(row.scanned_idx, row.ticket_code),
  };
}

/** The URL's event must be the caller's: another mode's is 404, another account's 403. */
export async function assertEventForScan(
  db: Kysely<Database>,
  p: KeyPrincipal,
  eventId: string,
  row: FastRow | undefined,
): Promise<void> {
  if (row && row.event_id === eventId) {
    if (row.mode !== p.mode) throw notFound('no such event', 'event_not_found');
    if (row.account_id !== p.userId)
      throw forbidden('not_your_object', 'this event belongs to another account');
    return;
  }
  await events.loadOwnedEvent(db, p, eventId);
  if (row) throw notFound('no ticket with this id for this event', 'ticket_not_found');
}

/** Tickets addressed by ticketCode (after a transfer) or by an old, transferred code. */
export async function resolveByCode(db: Kysely<Database>, eventId: string, value: string): Promise<Scan> {
  let booking: Booking | undefined = await registrations.findByTicketCode(db, value);
  let transferred = false;
  if (!booking) {
    booking = await registrations.findByPreviousTicketCode(db, eventId, value);
    transferred = booking !== undefined;
  }
  if (!booking || booking.event_id !== eventId)
    throw notFound('no ticket with this id for this event', 'ticket_not_found');
  const people = (await repo.bookingPeople(db, booking.id)).rows.map(personOf);
  return { booking, people, only: undefined, transferred };
}

/** Why the door refuses a scan, if it does: an old QR of a transferred ticket first, then the booking's status. */
export function refusal(scan: Scan): RefusalReason | undefined {
  return refusalOf(scan.booking.status, scan.transferred);
}

/** A refusal at the door: the booking's own, or (on a track's or a day's list) another session's ticket. */
export type DoorRefusal = RefusalReason | 'wrong_session';

export function status(scan: Scan, otherSession = false) {
  const reason: DoorRefusal | undefined = refusal(scan) ?? (otherSession ? 'wrong_session' : undefined);
  const targets = scan.only === undefined ? scan.people : scan.people.filter((p) => p.idx === scan.only);
  const shown = targets[0] ?? scan.people[0]!;
  return {
    registrationId: scan.booking.id,
    name: shown.name,
    seat: shown.seat,
    email: shown.email,
    ticketType: scan.booking.ticket_type,
    admissible: reason === undefined,
    checkedIn: targets.length > 0 && targets.every((p) => p.checked_in_at !== null),
    arrived: scan.people.filter((p) => p.checked_in_at !== null).length,
    expected: scan.people.length,
    memberIndex: scan.only ?? null,
    members: scan.people.map((p) => ({
      index: p.idx,
      id: p.idx === 0 ? (scan.booking.ticket_code ?? p.id) : p.id,
      name: p.name,
      seat: p.seat,
      checkedIn: p.checked_in_at !== null,
      checkedInAt: p.checked_in_at?.toISOString() ?? null,
      /** Who admitted them (an actor reference; not part of the API's answer). */
      checkedInBy: p.checked_in_by ?? null,
    })),
    ...(reason ? { refusalReason: reason } : {}),
  };
}

export type CheckInStatus = ReturnType<typeof status>;

/** What a scan answers: whether it changed anyone, and the booking as it left it. */
export type ScanAnswer = { changed: boolean; alreadyCheckedIn: boolean; data: CheckInStatus };

/** The roster's view of a QR value, as a scan; the caller must own the event (403/404 as the database would say). */
function fromRoster(roster: EventRoster, p: KeyPrincipal, hit: RosterHit): Scan {
  if (roster.mode !== p.mode) throw notFound('no such event', 'event_not_found');
  if (roster.accountId !== p.userId)
    throw forbidden('not_your_object', 'this event belongs to another account');
  const b = hit.booking;
  return {
    booking: {
      id: b.id,
      event_id: roster.eventId,
      status: b.status,
      ticket_type: b.ticketType,
      ticket_code: b.ticketCode,
      sub_event_id: b.subEventId,
    },
    people: b.people.map((x) => ({
      id: x.id,
      idx: x.idx,
      name: x.name,
      email: x.email,
      checked_in_at: x.checkedInAt,
      checked_in_by: x.checkedInBy,
      seat: x.seat,
    })),
    only: hit.only,
    transferred: hit.transferred,
  };
}

/** The scan as the current roster knows it, when it knows the value. */
export function rosterScan(
  deps: CheckinDeps,
  p: KeyPrincipal,
  eventId: string,
  value: string,
): Scan | undefined {
  const roster = deps.door.rosters.current(eventId);
  const hit = roster?.hit(value);
  return roster && hit ? fromRoster(roster, p, hit) : undefined;
}

export async function lookup(
  deps: CheckinDeps,
  p: KeyPrincipal,
  eventId: string,
  rawValue: string,
): Promise<CheckInStatus> {
  const value = parseQrValue(rawValue);
  const known = rosterScan(deps, p, eventId, value);
  if (known) {
    deps.door.rosters.answered('roster');
    return status(known);
  }
  deps.door.rosters.answered('database');
  const rows = (await repo.lookupRows(deps.db, value)).rows;
  await assertEventForScan(deps.db, p, eventId, rows[0]);
  const answer = status(rows.length > 0 ? toScan(rows) : await resolveByCode(deps.db, eventId, value));
  await deps.door.rosters.warm(eventId);
  return answer;
}

export function applyMemberIndex(scan: Scan, memberIndex: number | undefined): void {
  if (memberIndex === undefined) return;
  if (!scan.people.some((x) => x.idx === memberIndex)) {
    throw notFound(
      `no person at memberIndex ${memberIndex}; this booking has ${scan.people.length}`,
      'member_not_found',
    );
  }
  if (scan.only !== undefined && scan.only !== memberIndex)
    throw badRequest('member_mismatch', 'this QR belongs to one team member; memberIndex names another');
  scan.only = memberIndex;
}

export function refuse(scan: Scan, reason: RefusalReason): AppError {
  return appError(reason === 'transferred' ? 'transferred' : 'not_admissible', refusalMessage(reason), {
    refusalReason: reason,
    ...(reason === 'transferred' ? { reason: 'transferred' } : {}),
    data: status(scan),
  });
}

/** Who a key principal is at the door: `key:<id>`, or `dashboard` for the signed-in organiser. */
export const actorOf = (p: KeyPrincipal) => (p.keyId === 'dashboard' ? 'dashboard' : `key:${p.keyId}`);

export function refusalMessage(reason: RefusalReason): string {
  switch (reason) {
    case 'transferred':
      return 'this QR belonged to a ticket that was transferred; scan the new holder’s QR';
    case 'not_confirmed':
      return 'this booking is not confirmed (payment or approval pending)';
    case 'cancelled':
      return 'this booking was cancelled';
    case 'refunded':
      return 'this booking was refunded';
  }
}
