// Door check-in (product-decisions §6). A scan resolves a QR value to a booking and
// the people it covers: the booking id (whole booking, or one member by index), a
// member's own id (that member alone), or the ticketCode after a transfer. Admitting
// is one conditional UPDATE per scan: two devices scanning the same ticket at once
// cannot both change it, so exactly one answer says `changed: true`.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { KeyPrincipal } from '../../shared/auth.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, badRequest, notFound } from '../../shared/errors.js';
import * as events from '../events/events.service.js';

export type RefusalReason = 'cancelled' | 'refunded' | 'not_confirmed' | 'transferred';

interface Booking {
  id: string;
  event_id: string;
  status: 'pending' | 'confirmed' | 'cancelled' | 'refunded';
  ticket_type: string;
  ticket_code: string | null;
  quantity: number;
}

interface Person {
  id: string;
  idx: number;
  name: string;
  email: string;
  checked_in_at: Date | null;
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

async function resolve(db: Kysely<Database>, eventId: string, value: string): Promise<Scan> {
  const bookingColumns = ['r.id', 'r.event_id', 'r.status', 'r.ticket_type', 'r.ticket_code', 'r.quantity'] as const;
  let booking: Booking | undefined;
  let only: number | undefined;
  let transferred = false;

  const byPerson = await db
    .selectFrom('attendees as a')
    .innerJoin('registrations as r', 'r.id', 'a.registration_id')
    .select([...bookingColumns, 'a.idx'])
    .where('a.id', '=', value)
    .executeTakeFirst();
  if (byPerson) {
    booking = byPerson;
    if (byPerson.idx > 0) only = byPerson.idx;
    // The booking id stops being a ticket once the booking is transferred.
    else if (byPerson.ticket_code !== null) transferred = true;
  } else {
    booking = await db.selectFrom('registrations as r').select(bookingColumns).where('r.ticket_code', '=', value).executeTakeFirst();
    if (!booking) {
      booking = await db
        .selectFrom('registrations as r')
        .select(bookingColumns)
        .where(sql<boolean>`r.previous_ticket_codes @> ${JSON.stringify([value])}::jsonb`)
        .where('r.event_id', '=', eventId)
        .executeTakeFirst();
      if (booking) transferred = true;
    }
  }
  if (!booking || booking.event_id !== eventId) throw notFound('no ticket with this id for this event', 'ticket_not_found');
  const people = await db
    .selectFrom('attendees')
    .select(['id', 'idx', 'name', 'email', 'checked_in_at'])
    .where('registration_id', '=', booking.id)
    .orderBy('idx')
    .execute();
  return { booking, people, only, transferred };
}

function refusal(scan: Scan): RefusalReason | undefined {
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
    })),
    ...(reason ? { refusalReason: reason } : {}),
  };
}

export type CheckInStatus = ReturnType<typeof status>;

export async function lookup(db: Kysely<Database>, p: KeyPrincipal, eventId: string, rawValue: string): Promise<CheckInStatus> {
  const event = await events.loadOwnedEvent(db, p, eventId);
  return status(await resolve(db, event.id, parseQrValue(rawValue)));
}

export async function scan(
  deps: { db: Kysely<Database>; clock: Clock },
  p: KeyPrincipal,
  eventId: string,
  input: { value: string; memberIndex?: number | undefined; undo?: boolean | undefined },
): Promise<{ changed: boolean; alreadyCheckedIn: boolean; data: CheckInStatus }> {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const found = await resolve(deps.db, event.id, parseQrValue(input.value));
  if (input.memberIndex !== undefined) {
    if (!found.people.some((x) => x.idx === input.memberIndex)) {
      throw notFound(`no person at memberIndex ${input.memberIndex}; this booking has ${found.people.length}`, 'member_not_found');
    }
    if (found.only !== undefined && found.only !== input.memberIndex) {
      throw badRequest('member_mismatch', 'this QR belongs to one team member; memberIndex names another');
    }
    found.only = input.memberIndex;
  }
  const reason = refusal(found);
  if (reason !== undefined && !(input.undo && reason !== 'transferred')) {
    throw new AppError(409, reason === 'transferred' ? 'transferred' : 'not_admissible', refusalMessage(reason), {
      refusalReason: reason,
      ...(reason === 'transferred' ? { reason: 'transferred' } : {}),
      data: status(found),
    });
  }
  const indexes = found.only === undefined ? found.people.map((x) => x.idx) : [found.only];
  const now = deps.clock.now();
  let changed: number[];
  if (!input.undo) {
    // One statement: admit whoever is not in yet, and stamp the booking's first arrival.
    const rows = await sql<{ idx: number }>`
      with admitted as (
        update attendees set checked_in_at = ${now}
        where registration_id = ${found.booking.id} and idx in (${sql.join(indexes)}) and checked_in_at is null
        returning idx
      ), booking as (
        update registrations set checked_in_at = coalesce(checked_in_at, ${now})
        where id = ${found.booking.id} and exists (select 1 from admitted)
        returning id
      )
      select idx from admitted`.execute(deps.db);
    changed = rows.rows.map((r) => r.idx);
  } else {
    changed = await deps.db.transaction().execute(async (trx) => {
      const undone = await trx
        .updateTable('attendees')
        .set({ checked_in_at: null })
        .where('registration_id', '=', found.booking.id)
        .where('idx', 'in', indexes)
        .where('checked_in_at', 'is not', null)
        .returning('idx')
        .execute();
      if (undone.length > 0) {
        await trx
          .updateTable('registrations')
          .set({
            checked_in_at: sql`(select min(checked_in_at) from attendees where registration_id = ${found.booking.id})`,
          })
          .where('id', '=', found.booking.id)
          .execute();
      }
      return undone.map((r) => r.idx);
    });
  }
  const after = await resolve(deps.db, event.id, parseQrValue(input.value));
  after.only = found.only;
  // An admit that changed nobody found everyone it names already in (perhaps by a
  // scan a moment earlier on another device).
  return { changed: changed.length > 0, alreadyCheckedIn: !input.undo && changed.length === 0, data: status(after) };
}

function refusalMessage(reason: RefusalReason): string {
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
