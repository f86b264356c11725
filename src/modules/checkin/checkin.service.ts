// Door check-in. A scan resolves a QR value to a booking and
// the people it covers: the booking id (whole booking, or one member by index), a
// member's own id (that member alone), or the ticketCode after a transfer.
//
// Doors are where slowness shows, so the common scans are one statement each: a
// lookup reads the ticket, its booking, its event and everyone on it in one query;
// an admit does that and the conditional UPDATE in one CTE. The UPDATE only touches
// people not yet in, so two devices scanning the same ticket at once cannot both
// change it: exactly one answer says `changed: true`.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { KeyPrincipal } from '../../shared/auth.js';
import type { Clock } from '../../shared/clock.js';
import { appError, AppError, badRequest, forbidden, notFound } from '../../shared/errors.js';
import * as events from '../events/events.service.js';
import * as registrations from '../registrations/registrations.service.js';
import * as repo from './checkin.repo.js';
import type { FastRow } from './checkin.repo.js';

export type RefusalReason = 'cancelled' | 'refunded' | 'not_confirmed' | 'transferred';

interface Booking {
  id: string;
  event_id: string;
  status: 'pending' | 'confirmed' | 'cancelled' | 'refunded';
  ticket_type: string;
  ticket_code: string | null;
}

interface Person {
  id: string;
  idx: number;
  name: string;
  email: string;
  checked_in_at: Date | null;
  checked_in_by?: string | null;
}

interface Scan {
  booking: Booking;
  people: Person[];
  /** The one person a member's own QR (or memberIndex) names; undefined for the whole booking. */
  only: number | undefined;
  transferred: boolean;
}

/** The QR value as scanned: a bare id, or a JSON payload such as {"registrationId":"…"}. */
export function parseQrValue(raw: string): string {
  const value = raw.trim();
  if (value.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest('invalid_qr', 'the QR value looks like JSON but does not parse');
    }
    const obj = parsed as Record<string, unknown>;
    const id = obj.registrationId ?? obj.ticketCode ?? obj.qr ?? obj.id;
    if (typeof id !== 'string' || id === '') throw badRequest('invalid_qr', 'the QR JSON carries no registrationId');
    return id.trim();
  }
  if (value === '' || value.length > 200) throw badRequest('invalid_qr', 'registrationId must be the QR value');
  return value;
}

function toScan(rows: FastRow[]): Scan {
  const row = rows[0]!;
  return {
    booking: { id: row.id, event_id: row.event_id, status: row.status, ticket_type: row.ticket_type, ticket_code: row.ticket_code },
    people: rows.map((r) => ({ id: r.p_id, idx: r.p_idx, name: r.p_name, email: r.p_email, checked_in_at: r.p_checked_in_at, checked_in_by: r.p_checked_in_by })),
    only: row.scanned_idx > 0 ? row.scanned_idx : undefined,
    // The booking id stops being a ticket once the booking is transferred.
    transferred: row.scanned_idx === 0 && row.ticket_code !== null,
  };
}

/** The URL's event must be the caller's: another mode's is 404, another account's 403. */
async function assertEventForScan(db: Kysely<Database>, p: KeyPrincipal, eventId: string, row: FastRow | undefined): Promise<void> {
  if (row && row.event_id === eventId) {
    if (row.mode !== p.mode) throw notFound('no such event', 'event_not_found');
    if (row.account_id !== p.userId) throw forbidden('not_your_object', 'this event belongs to another account');
    return;
  }
  await events.loadOwnedEvent(db, p, eventId);
  if (row) throw notFound('no ticket with this id for this event', 'ticket_not_found');
}

/** Tickets addressed by ticketCode (after a transfer) or by an old, transferred code. */
async function resolveByCode(db: Kysely<Database>, eventId: string, value: string): Promise<Scan> {
  let booking: Booking | undefined = await registrations.findByTicketCode(db, value);
  let transferred = false;
  if (!booking) {
    booking = await registrations.findByPreviousTicketCode(db, eventId, value);
    transferred = booking !== undefined;
  }
  if (!booking || booking.event_id !== eventId) throw notFound('no ticket with this id for this event', 'ticket_not_found');
  const people: Person[] = (await registrations.attendeesOf(db, [booking.id])).get(booking.id) ?? [];
  return { booking, people, only: undefined, transferred };
}

/** Why the door refuses a scan, if it does: an old QR of a transferred ticket first, then the booking's status. */
export function refusal(scan: Scan): RefusalReason | undefined {
  if (scan.transferred) return 'transferred';
  switch (scan.booking.status) {
    case 'confirmed':
      return undefined;
    case 'pending':
      return 'not_confirmed';
    default:
      return scan.booking.status;
  }
}

function status(scan: Scan) {
  const reason = refusal(scan);
  const targets = scan.only === undefined ? scan.people : scan.people.filter((p) => p.idx === scan.only);
  const shown = targets[0] ?? scan.people[0]!;
  return {
    registrationId: scan.booking.id,
    name: shown.name,
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
      checkedIn: p.checked_in_at !== null,
      checkedInAt: p.checked_in_at?.toISOString() ?? null,
      /** Who admitted them (an actor reference; not part of the API's answer). */
      checkedInBy: p.checked_in_by ?? null,
    })),
    ...(reason ? { refusalReason: reason } : {}),
  };
}

export type CheckInStatus = ReturnType<typeof status>;

export async function lookup(db: Kysely<Database>, p: KeyPrincipal, eventId: string, rawValue: string): Promise<CheckInStatus> {
  const value = parseQrValue(rawValue);
  const rows = (await repo.lookupRows(db, value)).rows;
  await assertEventForScan(db, p, eventId, rows[0]);
  return status(rows.length > 0 ? toScan(rows) : await resolveByCode(db, eventId, value));
}

function applyMemberIndex(scan: Scan, memberIndex: number | undefined): void {
  if (memberIndex === undefined) return;
  if (!scan.people.some((x) => x.idx === memberIndex)) {
    throw notFound(`no person at memberIndex ${memberIndex}; this booking has ${scan.people.length}`, 'member_not_found');
  }
  if (scan.only !== undefined && scan.only !== memberIndex) throw badRequest('member_mismatch', 'this QR belongs to one team member; memberIndex names another');
  scan.only = memberIndex;
}

function refuse(scan: Scan, reason: RefusalReason): AppError {
  return appError(reason === 'transferred' ? 'transferred' : 'not_admissible', refusalMessage(reason), {
    refusalReason: reason,
    ...(reason === 'transferred' ? { reason: 'transferred' } : {}),
    data: status(scan),
  });
}

/** Who a key principal is at the door: `key:<id>`, or `dashboard` for the signed-in organiser. */
export const actorOf = (p: KeyPrincipal) => (p.keyId === 'dashboard' ? 'dashboard' : `key:${p.keyId}`);

/**
 * The one function that decides entry: the API's check-in, the door screen and a
 * device's offline scans all come here. `actor` is recorded with every admit and undo.
 */
export async function scan(
  deps: { db: Kysely<Database>; clock: Clock },
  p: KeyPrincipal,
  eventId: string,
  input: { value: string; memberIndex?: number | undefined; undo?: boolean | undefined; actor?: string | undefined },
): Promise<{ changed: boolean; alreadyCheckedIn: boolean; data: CheckInStatus }> {
  const value = parseQrValue(input.value);
  const now = deps.clock.now();
  const memberIndex = input.memberIndex ?? null;
  const actor = input.actor ?? actorOf(p);

  if (!input.undo) {
    // The common admit: resolve, check and update in one statement. The UPDATE's
    // conditions are the refusal rules below, so a refused scan changes nothing.
    const rows = (await repo.admitRows(deps.db, value, { eventId, accountId: p.userId, mode: p.mode, memberIndex, now, actor })).rows;
    if (rows.length > 0) {
      await assertEventForScan(deps.db, p, eventId, rows[0]);
      const found = toScan(rows);
      applyMemberIndex(found, input.memberIndex);
      const reason = refusal(found);
      if (reason !== undefined) throw refuse(found, reason);
      // The people were read before the update: stamp those it admitted.
      const changed = new Set(rows.filter((r) => r.p_changed).map((r) => r.p_idx));
      for (const person of found.people) if (changed.has(person.idx)) Object.assign(person, { checked_in_at: now, checked_in_by: actor });
      // An admit that changed nobody found everyone it names already in (perhaps by a
      // scan a moment earlier on another device).
      return { changed: changed.size > 0, alreadyCheckedIn: changed.size === 0, data: status(found) };
    }
  }

  // Undo, and tickets addressed by ticketCode.
  const people = (await repo.lookupRows(deps.db, value)).rows;
  await assertEventForScan(deps.db, p, eventId, people[0]);
  const found: Scan = people.length > 0 ? toScan(people) : await resolveByCode(deps.db, eventId, value);
  applyMemberIndex(found, input.memberIndex);
  const reason = refusal(found);
  if (reason !== undefined && !(input.undo && reason !== 'transferred')) throw refuse(found, reason);
  const indexes = found.only === undefined ? found.people.map((x) => x.idx) : [found.only];
  const at = input.undo ? null : now;
  const changed = new Set(await repo.setPeople(deps.db, { eventId, registrationId: found.booking.id, indexes, at, actor, now }));
  for (const person of found.people) if (changed.has(person.idx)) Object.assign(person, { checked_in_at: at, checked_in_by: at === null ? null : actor });
  return { changed: changed.size > 0, alreadyCheckedIn: !input.undo && changed.size === 0, data: status(found) };
}

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
