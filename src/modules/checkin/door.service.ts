// The door (decisions §15): passes that open one event's door to anyone holding the
// link, the offline roster, and the sync of a device's queued scans. Entry is decided
// by checkin.scan alone; this module only says who is asking and what they may see.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { pgCode } from '../../shared/pg-errors.js';
import type { Clock } from '../../shared/clock.js';
import type { Ids } from '../../shared/ids.js';
import type { DoorPrincipal, KeyPrincipal } from '../../shared/auth.js';
import { AppError, badRequest, notFound } from '../../shared/errors.js';
import * as events from '../events/events.service.js';
import * as registrations from '../registrations/registrations.service.js';
import * as checkin from './checkin.service.js';
import * as checkinRepo from './checkin.repo.js';
import * as repo from './door.repo.js';

export interface DoorDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: { baseUrl: string };
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

// ---------------------------------------------------------------- passes

export const findPass = (db: Kysely<Database>, token: string) => repo.passByTokenHash(db, sha256(token));

const presentPass = (row: { id: string; label: string; created_at: Date; expires_at: Date | null; revoked_at: Date | null }) => ({
  id: row.id,
  label: row.label,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

export async function createPass(deps: DoorDeps, p: KeyPrincipal, eventId: string, input: { label: string; expiresAt?: string | undefined }) {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const label = input.label.trim();
  if (label === '') throw badRequest('invalid_field', 'label must not be empty');
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) throw badRequest('invalid_date', 'expiresAt is not a date-time');
    if (expiresAt.getTime() <= deps.clock.now().getTime()) throw badRequest('invalid_date', 'expiresAt is in the past');
  }
  // 192 random bits; only its hash is kept.
  const token = randomBytes(24).toString('base64url');
  const row = { id: deps.ids.make('dp', 12), event_id: event.id, label, token_hash: sha256(token), created_by: checkin.actorOf(p), created_at: deps.clock.now(), expires_at: expiresAt };
  await repo.insertPass(deps.db, row);
  return { ...presentPass({ ...row, revoked_at: null }), url: `${deps.config.baseUrl}/door/${token}` };
}

export async function listPasses(db: Kysely<Database>, p: KeyPrincipal, eventId: string) {
  const event = await events.loadOwnedEvent(db, p, eventId);
  return (await repo.passesOf(db, event.id)).map(presentPass);
}

export async function revokePass(deps: DoorDeps, p: KeyPrincipal, eventId: string, passId: string) {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  if (!(await repo.revokePass(deps.db, event.id, passId, deps.clock.now()))) throw notFound('no such door pass for this event', 'door_pass_not_found');
  const pass = (await repo.passesOf(deps.db, event.id)).find((x) => x.id === passId)!;
  return presentPass(pass);
}

// ---------------------------------------------------------------- who is at the door

export type DoorCaller = KeyPrincipal | DoorPrincipal;

/**
 * The event this caller may work the door of, and the principal entry is decided as:
 * a pass acts for the event's organiser at this one event. A key must own the event
 * (another account's is 403, another mode's 404); the auth hook has already held a
 * pass to its own event.
 */
async function doorOf(db: Kysely<Database>, caller: DoorCaller, eventId: string) {
  if (caller.kind === 'key') {
    const event = await events.loadOwnedEvent(db, caller, eventId);
    return { event, as: caller, actor: checkin.actorOf(caller) };
  }
  const event = caller.eventId === eventId ? await events.findEvent(db, eventId) : undefined;
  if (!event) throw notFound('no such event', 'event_not_found');
  const as: KeyPrincipal = { kind: 'key', userId: event.account_id, keyId: `door:${caller.passId}`, mode: event.mode, keyClass: 'full' };
  return { event, as, actor: `pass:${caller.passId}` };
}

/** An actor reference as a person reads it: the pass's label (and device), "API key", "Dashboard". */
async function actorNames(db: Kysely<Database>, actors: Iterable<string | null>): Promise<(actor: string | null) => string | null> {
  const passIds = new Set<string>();
  for (const a of actors) if (a?.startsWith('pass:')) passIds.add(a.slice(5).split('/')[0]!);
  const labels = new Map((await repo.passLabels(db, [...passIds])).map((r) => [r.id, r.label]));
  return (actor) => {
    if (actor === null) return null;
    if (actor === 'dashboard') return 'Dashboard';
    if (actor.startsWith('key:')) return 'API key';
    if (actor.startsWith('pass:')) {
      const [id, device] = actor.slice(5).split('/');
      const label = labels.get(id!) ?? 'Door pass';
      return device ? `${label} · device ${device}` : label;
    }
    return actor;
  };
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
  refusal: checkin.RefusalReason | null;
  ticketType: string;
  track: string | null;
  members: RosterMember[];
}

/** The QR value a person shows: the booking's (its ticketCode after a transfer) for the primary, their own id for a member. */
const qrValue = (row: checkinRepo.RosterRow) => (row.idx === 0 ? (row.ticket_code ?? row.registration_id!) : row.attendee_id);

export function refusalOf(status: string): checkin.RefusalReason | null {
  if (status === 'confirmed') return null;
  return status === 'pending' ? 'not_confirmed' : (status as checkin.RefusalReason);
}

async function buildRoster(db: Kysely<Database>, event: events.EventRow, since: string | null) {
  let rows: checkinRepo.RosterRow[];
  try {
    rows = (await checkinRepo.rosterRows(db, event.id, since)).rows;
  } catch (err) {
    // A cursor of the right shape that PostgreSQL still refuses as a snapshot.
    if (since !== null && pgCode(err)?.startsWith('22')) throw badRequest('invalid_roster_cursor', 'since is not a cursor the roster gave');
    throw err;
  }
  const cursor = rows[0]!.cursor;
  const people = rows.filter((r) => r.registration_id !== null);
  const name = await actorNames(db, people.map((r) => r.checked_in_by));
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
        refusal: refusalOf(r.status),
        ticketType: r.ticket_type,
        track: r.sub_event_id === null ? null : (tracks[r.sub_event_id]?.title ?? null),
        members: [],
      };
      entries.set(r.registration_id!, entry);
    }
    entry.members.push({ index: r.idx, key, name: r.name, checkedIn: r.checked_in_at !== null, checkedInAt: r.checked_in_at?.toISOString() ?? null, checkedInBy: name(r.checked_in_by) });
  }
  return { cursor, entries: [...entries.values()], values };
}

export async function roster(deps: Pick<DoorDeps, 'db'>, caller: DoorCaller, eventId: string, since: string | undefined) {
  if (since !== undefined && !/^[0-9]{1,20}:[0-9]{1,20}:[0-9,]{0,1900}$/.test(since)) throw badRequest('invalid_roster_cursor', 'since is not a cursor the roster gave');
  const { event } = await doorOf(deps.db, caller, eventId);
  const built = await buildRoster(deps.db, event, since ?? null);
  const counts = await registrations.doorProgress(deps.db, event.id);
  return { event: { id: event.id, title: event.title }, cursor: built.cursor, full: since === undefined, counts, entries: built.entries };
}

// ---------------------------------------------------------------- sync

export type SyncResult =
  | { seq: number; status: 'admitted' | 'undone' }
  | { seq: number; status: 'already_admitted'; by: string | null; at: string | null }
  | { seq: number; status: 'refused'; reason: string; message: string };

export interface SyncScan {
  seq: number;
  ticketId?: string | undefined;
  ticketKey?: string | undefined;
  memberIndex?: number | undefined;
  action: 'admit' | 'undo';
  at?: string | undefined;
}

const REFUSED_CODES = new Set(['not_admissible', 'transferred', 'ticket_not_found', 'member_not_found', 'member_mismatch', 'invalid_qr']);

/**
 * Applies a device's scans in order, each through checkin.scan; a (device, seq) seen
 * before answers what it answered then and changes nothing.
 */
export async function sync(deps: DoorDeps, caller: DoorCaller, eventId: string, input: { deviceId: string; scans: SyncScan[] }) {
  const { event, as, actor } = await doorOf(deps.db, caller, eventId);
  const seen = new Map((await repo.syncedScans(deps.db, event.id, input.deviceId, input.scans.map((s) => s.seq))).map((r) => [r.seq, r.result as unknown as SyncResult]));
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
      values ??= (await buildRoster(deps.db, event, null)).values;
      value = values.get(s.ticketKey);
    }
    let result: SyncResult;
    if (value === undefined) {
      result = { seq: s.seq, status: 'refused', reason: s.ticketKey === undefined ? 'invalid_qr' : 'ticket_not_found', message: 'no ticket with this id for this event' };
    } else {
      result = await applyScan(deps, as, event.id, s, value, caller.kind === 'door' ? `${actor}/${input.deviceId}` : actor);
      if (result.status === 'already_admitted') result.by = (await actorNames(deps.db, [result.by]))(result.by);
    }
    const kept = (await repo.keepSyncedScan(deps.db, { event_id: event.id, device_id: input.deviceId, seq: s.seq, result, created_at: deps.clock.now() })) as unknown as SyncResult;
    seen.set(s.seq, kept);
    results.push(kept);
  }
  return {
    results,
    counts: await registrations.doorProgress(deps.db, event.id),
  };
}

async function applyScan(deps: DoorDeps, as: KeyPrincipal, eventId: string, s: SyncScan, value: string, actor: string): Promise<SyncResult> {
  try {
    const r = await checkin.scan(deps, as, eventId, { value, memberIndex: s.memberIndex, undo: s.action === 'undo', actor });
    if (s.action === 'undo') return { seq: s.seq, status: 'undone' };
    if (r.changed) return { seq: s.seq, status: 'admitted' };
    const targets = r.data.memberIndex === null ? r.data.members : r.data.members.filter((m) => m.index === r.data.memberIndex);
    const first = targets.find((m) => m.checkedInAt !== null) ?? targets[0];
    // Kept as the actor reference; named when answered.
    return { seq: s.seq, status: 'already_admitted', by: first?.checkedInBy ?? null, at: first?.checkedInAt ?? null };
  } catch (err) {
    if (err instanceof AppError && REFUSED_CODES.has(err.code)) {
      const reason = (err.extra?.refusalReason as string | undefined) ?? (err.code === 'not_admissible' ? 'not_admissible' : err.code);
      return { seq: s.seq, status: 'refused', reason, message: err.message };
    }
    throw err;
  }
}

/** The event a pass opens (the door page's title). */
export async function doorEvent(db: Kysely<Database>, p: DoorPrincipal) {
  const event = await events.findEvent(db, p.eventId);
  if (!event) throw notFound('no such event', 'event_not_found');
  return { id: event.id, title: event.title };
}
