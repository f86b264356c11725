// The door screen's roster (docs/decisions/15-the-door.md; the sync of a device's queued scans
// is in door-scans.service.ts). The roster is answered from the event's in-memory roster when
// it is known current (its bookings written since a cursor found by the transactions that
// wrote them, as PostgreSQL would), else read from the database. Entry is decided by scan
// (scan.service.ts) alone.
import type { Kysely } from 'kysely';
import type { Database, RegistrationStatus, TrackDoc } from '../../db/database.js';
import * as entry from './entry-rule.js';
import { pgCode } from '../../lib/pg-errors.js';
import { badRequest } from '../../lib/errors.js';
import type * as events from '../events/events.service.js';
import * as registrations from '../registrations/registrations.service.js';
import * as checkin from './checkin.service.js';
import * as checkinRepo from './checkin.repo.js';
import { countsOnList, type OnList } from './list-scan.js';
import type { DoorRuntime } from './door-runtime.js';
import { actorNames, doorOf, sha256, type DoorCaller, type DoorDeps } from './door.service.js';
import { parseSnapshot, qrValueOf, type EventRoster, type Snapshot } from './roster.js';
import {
  isScoped,
  listKey,
  listLabel,
  scopeOfList,
  sessionText,
  validOn,
  type DoorList,
  type ListEvent,
} from './door-list.js';

export interface DoorSyncDeps extends DoorDeps {
  door: DoorRuntime;
}

// ---------------------------------------------------------------- roster

export interface RosterMember {
  index: number;
  key: string;
  name: string;
  seat: string | null;
  checkedIn: boolean;
  checkedInAt: string | null;
  checkedInBy: string | null;
}

export interface RosterEntry {
  key: string;
  refusal: checkin.DoorRefusal | null;
  ticketType: string;
  track: string | null;
  session: string | null;
  retired: string[];
  members: RosterMember[];
}

/** What a roster's entries are judged by: the list, and the event facts its rule needs. */
export interface Judge {
  on: OnList | undefined;
  tracks: readonly TrackDoc[];
  timeZone: string;
}

export function judgeOf(event: events.EventRow, list: DoorList, timeZone: string): Judge {
  return {
    on: isScoped(list) ? { list, event: listEvent(event) } : undefined,
    tracks: event.tracks,
    timeZone,
  };
}

export const listEvent = (event: Pick<events.EventRow, 'tracks' | 'start_date' | 'end_date'>): ListEvent => ({
  tracks: event.tracks,
  startDate: event.start_date,
  endDate: event.end_date,
});

/** An entry's refusal on the list: the booking's own, else another session's ticket. */
function entryRefusal(
  j: Judge,
  status: RegistrationStatus,
  subEventId: number | null,
): checkin.DoorRefusal | null {
  const own = refusalOf(status);
  if (own !== null || !j.on) return own;
  return validOn(j.on.list, subEventId, j.on.event, j.timeZone) ? null : 'wrong_session';
}

/** The QR values a booking no longer answers to: its id once it has a ticketCode, and every code before the current one. */
function retiredKeys(id: string, ticketCode: string | null, previous: readonly string[] | null): string[] {
  if (ticketCode === null) return [];
  return [...new Set([id, ...(previous ?? [])])].filter((v) => v !== ticketCode).map(sha256);
}

/** The QR value a person shows: the booking's (its ticketCode after a transfer) for the primary, their own id for a member. */
const qrValue = (row: checkinRepo.RosterRow) =>
  row.idx === 0 ? (row.ticket_code ?? row.registration_id!) : row.attendee_id;

export function refusalOf(status: RegistrationStatus): checkin.RefusalReason | null {
  return entry.refusalOf(status, false) ?? null;
}

export async function buildRoster(
  db: Kysely<Database>,
  event: events.EventRow,
  since: string | null,
  j: Judge,
) {
  let rows: checkinRepo.RosterRow[];
  try {
    rows = (await checkinRepo.rosterRows(db, event.id, since, j.on ? listKey(j.on.list) : null)).rows;
  } catch (err) {
    // A cursor of the right shape that PostgreSQL still refuses as a snapshot.
    if (since !== null && pgCode(err)?.startsWith('22'))
      throw badRequest('invalid_roster_cursor', 'since is not a cursor the roster gave');
    throw err;
  }
  const cursor = rows[0]!.cursor;
  const people = rows.filter((r) => r.registration_id !== null);
  const name = await actorNames(
    db,
    people.map((r) => r.checked_in_by),
  );
  const tracks = event.tracks;
  const entries = new Map<string, RosterEntry>();
  const values = new Map<string, string>();
  for (const r of people) {
    let entry = entries.get(r.registration_id!);
    const key = sha256(qrValue(r));
    values.set(key, qrValue(r));
    if (!entry) {
      entry = {
        key,
        refusal: entryRefusal(j, r.status, r.sub_event_id),
        ticketType: r.ticket_type,
        track: r.sub_event_id === null ? null : (tracks[r.sub_event_id]?.title ?? null),
        session: sessionText(r.sub_event_id, tracks, j.timeZone),
        retired: retiredKeys(r.registration_id!, r.ticket_code, r.previous_ticket_codes),
        members: [],
      };
      entries.set(r.registration_id!, entry);
    }
    entry.members.push({
      index: r.idx,
      key,
      name: r.name,
      seat: r.seat,
      checkedIn: r.checked_in_at !== null,
      checkedInAt: r.checked_in_at?.toISOString() ?? null,
      // Who admitted them only while they are in: a transfer clears `checked_in_at` and leaves `checked_in_by` (as the in-memory roster reads it).
      checkedInBy: r.checked_in_at === null ? null : name(r.checked_in_by),
    });
  }
  return { cursor, entries: [...entries.values()], values };
}

/** The same entries from the in-memory roster: every booking, or those written since `since`. */
async function entriesInMemory(
  db: Kysely<Database>,
  roster: EventRoster,
  since: Snapshot | undefined,
  j: Judge,
): Promise<RosterEntry[]> {
  const bookings = [...roster.bookings(since)];
  const name = await actorNames(
    db,
    bookings.flatMap((b) => b.people.map((p) => p.checkedInBy)),
  );
  return bookings.map((b) => ({
    key: sha256(qrValueOf(b, b.people[0]!)),
    refusal: entryRefusal(j, b.status, b.subEventId),
    ticketType: b.ticketType,
    track: b.subEventId === null ? null : (roster.tracks[b.subEventId]?.title ?? null),
    session: sessionText(b.subEventId, roster.tracks, j.timeZone),
    retired: retiredKeys(b.id, b.ticketCode, b.previousCodes),
    members: b.people.map((p) => ({
      index: p.idx,
      key: sha256(qrValueOf(b, p)),
      name: p.name,
      seat: p.seat,
      checkedIn: p.checkedInAt !== null,
      checkedInAt: p.checkedInAt?.toISOString() ?? null,
      checkedInBy: name(p.checkedInBy),
    })),
  }));
}

export async function roster(
  deps: Pick<DoorSyncDeps, 'db' | 'door' | 'config'>,
  caller: DoorCaller,
  eventId: string,
  since: string | undefined,
) {
  if (since !== undefined && !/^[0-9]{1,20}:[0-9]{1,20}:[0-9,]{0,1900}$/.test(since))
    throw badRequest('invalid_roster_cursor', 'since is not a cursor the roster gave');
  const { event, list } = await doorOf(deps.db, caller, eventId);
  const timeZone = deps.config.eventTimeZone;
  const j = judgeOf(event, list, timeZone);
  const head = {
    event: { id: event.id, title: event.title },
    list: { scope: scopeOfList(list), label: listLabel(list, event.tracks, timeZone) },
    full: since === undefined,
  };
  if (j.on) {
    // A track's or a day's list: its admissions are not in the in-memory roster.
    deps.door.rosters.answered('database');
    const built = await buildRoster(deps.db, event, since ?? null, j);
    return {
      ...head,
      cursor: built.cursor,
      counts: await countsOnList(deps, event.id, j.on),
      entries: built.entries,
    };
  }
  const memory = deps.door.rosters.current(event.id);
  const snapshot = since === undefined ? undefined : parseSnapshot(since);
  if (memory && (since === undefined || snapshot)) {
    deps.door.rosters.answered('roster');
    return {
      ...head,
      cursor: memory.cursor,
      counts: memory.counts(),
      entries: await entriesInMemory(deps.db, memory, snapshot, j),
    };
  }
  deps.door.rosters.answered('database');
  const built = await buildRoster(deps.db, event, since ?? null, j);
  const answer = {
    ...head,
    cursor: built.cursor,
    counts: await registrations.doorProgress(deps.db, event.id),
    entries: built.entries,
  };
  await deps.door.rosters.warm(event.id);
  return answer;
}
