// The sync of a device's queued scans (docs/decisions/15-the-door.md): each applied in order,
// on its own, through the scan that decides entry (scan.service.ts, or list-scan.ts at a track's
// or a day's door); a (holder, device, seq) seen before answers what it answered then.
import type * as events from '../events/events.service.js';
import { AppError } from '../../lib/errors.js';
import type { KeyPrincipal } from '../../http/auth.js';
import * as registrations from '../registrations/registrations.service.js';
import * as checkin from './checkin.service.js';
import { buildRoster, judgeOf, type DoorSyncDeps } from './door-sync.service.js';
import { WHOLE_EVENT } from './door-list.js';
import * as repo from './door.repo.js';
import { actorNames, doorOf, type DoorCaller } from './door.service.js';
import { countsOnList, scanOnList, type OnList } from './list-scan.js';
import { scan } from './scan.service.js';

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
 * Applies a device's scans in order, each through scan (scan.service.ts), each on its own: a scan the
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
  const seen = await syncedBefore(deps, event.id, holder, input);
  const byKey = keyValues(deps, event);
  const results: SyncResult[] = [];
  for (const s of input.scans) {
    const before = seen.get(s.seq);
    if (before) {
      results.push(before);
      continue;
    }
    const value = s.ticketId ?? (s.ticketKey === undefined ? undefined : await byKey(s.ticketKey));
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

/** What this holder's device was answered for these seqs before. */
async function syncedBefore(
  deps: DoorSyncDeps,
  eventId: string,
  holder: string,
  input: { deviceId: string; scans: SyncScan[] },
): Promise<Map<number, SyncResult>> {
  return new Map(
    (
      await repo.syncedScans(
        deps.db,
        eventId,
        holder,
        input.deviceId,
        input.scans.map((s) => s.seq),
      )
    ).map((r) => [r.seq, r.result as unknown as SyncResult]),
  );
}

/**
 * The ticket a roster key stands for (a person found on the device by name): from the
 * in-memory roster, else from the whole event's roster, read once per sync.
 */
function keyValues(deps: DoorSyncDeps, event: events.EventRow): (key: string) => Promise<string | undefined> {
  let values: Map<string, string> | undefined;
  return async (key) => {
    const value = deps.door.rosters.current(event.id)?.valueOfKey(key);
    if (value !== undefined) return value;
    values ??= (
      await buildRoster(deps.db, event, null, judgeOf(event, WHOLE_EVENT, deps.config.eventTimeZone))
    ).values;
    return values.get(key);
  };
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
    const r = on ? await scanOnList(deps, as, eventId, on, input) : await scan(deps, as, eventId, input);
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
