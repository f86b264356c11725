// The door screen's roster and the sync of a device's queued scans (docs/decisions/15-the-door.md). The
// roster is answered from the event's in-memory roster when it is known current (its
// bookings written since a cursor found by the transactions that wrote them, as PostgreSQL
// would), else read from the database. Entry is decided by checkin.scan alone.
import type { Kysely } from 'kysely';
import type { Database, RegistrationStatus, TrackDoc } from '../../db/database.js';
import * as entry from './entry-rule.js';
import { pgCode } from '../../lib/pg-errors.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type * as events from '../events/events.service.js';
import * as registrations from '../registrations/registrations.service.js';
import * as checkin from './checkin.service.js';
import * as checkinRepo from './checkin.repo.js';
import { countsOnList, scanOnList, type OnList } from './list-scan.js';
import type { DoorRuntime } from './door-runtime.js';
import * as repo from './door.repo.js';
import { actorNames, doorOf, sha256, type DoorCaller, type DoorDeps } from './door.service.js';
import { parseSnapshot, qrValueOf, type EventRoster, type Snapshot } from './roster.js';
import {
  isScoped,
  listKey,
  listLabel,
  scopeOfList,
  sessionText,
  validOn,
  WHOLE_EVENT,
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
interface Judge {
  on: OnList | undefined;
  tracks: readonly TrackDoc[];
  timeZone: string;
}

function judgeOf(event: events.EventRow, list: DoorList, timeZone: string): Judge {
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

async function buildRoster(db: Kysely<Database>, event: events.EventRow, since: string | null, j: Judge) {
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
      checkedIn: r.checked_in_at !== null,
      checkedInAt: r.checked_in_at?.toISOString() ?? null,
      checkedInBy: name(r.checked_in_by),
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

// ---------------------------------------------------------------- sync

export type SyncResult =
  | { seq: number; status: 'admitted' | 'undone' }
  | { seq: number; status: 'already_admitted'; by: string | null; at: string | null }
  | { seq: number; status: 'refused'; reason: string; message: string; session?: string | null };

export interface SyncScan {
  seq: number;
  ticketId?: string | undefined;
  ticketKey?: string | undefined;
  memberIndex?: number | undefined;
  action: 'admit' | 'undo';
  at?: string | undefined;
}

const REFUSED_CODES = new Set([
  'not_admissible',
  'transferred',
  'ticket_not_found',
  'member_not_found',
  'member_mismatch',
  'invalid_qr',
  'invalid_characters',
]);

/**
 * Applies a device's scans in order, each through checkin.scan, each on its own: a scan the
 * door cannot read (too long, control characters, no such ticket) is answered `refused` and
 * the scans after it still apply. A (holder, device, seq) seen before answers what it
 * answered then and changes nothing.
 */
export async function sync(
  deps: DoorSyncDeps,
  caller: DoorCaller,
  eventId: string,
  input: { deviceId: string; scans: SyncScan[] },
) {
  const { event, as, actor, list } = await doorOf(deps.db, caller, eventId);
  const j = judgeOf(event, list, deps.config.eventTimeZone);
  // A device's scans are its holder's: another pass (or key) using the same device id has records of its own.
  const holder = caller.kind === 'door' ? actor : checkin.actorOf(caller);
  const seen = new Map(
    (
      await repo.syncedScans(
        deps.db,
        event.id,
        holder,
        input.deviceId,
        input.scans.map((s) => s.seq),
      )
    ).map((r) => [r.seq, r.result as unknown as SyncResult]),
  );
  let values: Map<string, string> | undefined;
  const results: SyncResult[] = [];
  for (const s of input.scans) {
    const before = seen.get(s.seq);
    if (before) {
      results.push(before);
      continue;
    }
    let value = s.ticketId;
    if (value === undefined && s.ticketKey !== undefined) {
      // Found on the device by name: the roster's key stands for the ticket.
      value = deps.door.rosters.current(event.id)?.valueOfKey(s.ticketKey);
      if (value === undefined) {
        values ??= (
          await buildRoster(deps.db, event, null, judgeOf(event, WHOLE_EVENT, deps.config.eventTimeZone))
        ).values;
        value = values.get(s.ticketKey);
      }
    }
    let result: SyncResult;
    if (value === undefined) {
      result = {
        seq: s.seq,
        status: 'refused',
        reason: s.ticketKey === undefined ? 'invalid_qr' : 'ticket_not_found',
        message: 'no ticket with this id for this event',
      };
    } else {
      result = await applyScan(
        deps,
        as,
        event.id,
        s,
        value,
        caller.kind === 'door' ? `${actor}/${input.deviceId}` : actor,
        j.on,
      );
      if (result.status === 'already_admitted')
        result.by = (await actorNames(deps.db, [result.by]))(result.by);
    }
    const kept = (await repo.keepSyncedScan(deps.db, {
      event_id: event.id,
      holder,
      device_id: input.deviceId,
      seq: s.seq,
      result,
      created_at: deps.clock.now(),
    })) as unknown as SyncResult;
    seen.set(s.seq, kept);
    results.push(kept);
  }
  if (j.on) return { results, counts: await countsOnList(deps, event.id, j.on) };
  const memory = deps.door.rosters.current(event.id);
  return { results, counts: memory ? memory.counts() : await registrations.doorProgress(deps.db, event.id) };
}

async function applyScan(
  deps: DoorSyncDeps,
  as: KeyPrincipal,
  eventId: string,
  s: SyncScan,
  value: string,
  actor: string,
  on: OnList | undefined,
): Promise<SyncResult> {
  try {
    const input = { value, memberIndex: s.memberIndex, undo: s.action === 'undo', actor };
    const r = on
      ? await scanOnList(deps, as, eventId, on, input)
      : await checkin.scan(deps, as, eventId, input);
    if (s.action === 'undo') return { seq: s.seq, status: 'undone' };
    if (r.changed) return { seq: s.seq, status: 'admitted' };
    const targets =
      r.data.memberIndex === null
        ? r.data.members
        : r.data.members.filter((m) => m.index === r.data.memberIndex);
    const first = targets.find((m) => m.checkedInAt !== null) ?? targets[0];
    // Kept as the actor reference; named when answered.
    return {
      seq: s.seq,
      status: 'already_admitted',
      by: first?.checkedInBy ?? null,
      at: first?.checkedInAt ?? null,
    };
  } catch (err) {
    if (err instanceof AppError && REFUSED_CODES.has(err.code)) {
      const reason =
        (err.extra?.refusalReason as string | undefined) ??
        (err.code === 'invalid_characters' ? 'invalid_qr' : err.code);
      return {
        seq: s.seq,
        status: 'refused',
        reason,
        message: err.message,
        ...(reason === 'wrong_session'
          ? { session: (err.extra?.session as string | null | undefined) ?? null }
          : {}),
      };
    }
    throw err;
  }
}
