// The door (docs/decisions/15-the-door.md): passes that open one event's door to anyone holding the
// link, and who is asking at the door (the roster is in door-sync.service.ts, the sync in door-scans.service.ts).
// Entry is decided by scan (scan.service.ts) alone; this module only says who is asking and what
// they may see.
import * as audit from '../audit/audit.service.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import type { Ids } from '../../lib/ids.js';
import type { DoorPrincipal, KeyPrincipal } from '../../http/auth.js';
import { appError, badRequest, notFound } from '../../lib/errors.js';
import { parseEventDate } from '../../lib/dates.js';
import * as events from '../events/events.service.js';
import * as checkin from './checkin.service.js';
import * as repo from './door.repo.js';
import {
  listLabel,
  listOfScope,
  scopeOfList,
  WHOLE_EVENT,
  type DoorList,
  type DoorScope,
} from './door-list.js';

export interface DoorDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: { baseUrl: string; eventTimeZone: string };
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

// ---------------------------------------------------------------- passes

export const findPass = (db: Kysely<Database>, token: string) => repo.passByTokenHash(db, sha256(token));

type PassRow = {
  id: string;
  label: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  scope_track_index: number | null;
  scope_date: string | null;
};

/** The list a pass admits for, from its stored scope. */
export const listOfPass = (row: { scope_track_index: number | null; scope_date: string | null }): DoorList =>
  row.scope_track_index !== null
    ? { kind: 'track', trackIndex: row.scope_track_index }
    : row.scope_date !== null
      ? { kind: 'date', date: row.scope_date }
      : WHOLE_EVENT;

const presentPass = (row: PassRow) => ({
  id: row.id,
  label: row.label,
  scope: scopeOfList(listOfPass(row)),
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

/** A pass's scope, checked against the event: a track it has, or a real calendar day. */
function validScope(scope: DoorScope | undefined, tracks: readonly unknown[]): DoorList {
  if (scope && 'trackIndex' in scope && !tracks[scope.trackIndex]) {
    throw appError(
      'track_not_found',
      `scope.trackIndex ${scope.trackIndex}: this event has ${tracks.length} track${tracks.length === 1 ? '' : 's'}`,
      { field: 'scope.trackIndex' },
    );
  }
  if (scope && 'date' in scope) parseEventDate(scope.date, 'scope.date');
  return listOfScope(scope);
}

/** Who made a pass: the key or dashboard, or a member opening the door screen for themselves (§25). */
const memberHolder = (personId: string) => `member:${personId}`;

export async function createPass(
  deps: DoorDeps,
  p: KeyPrincipal,
  eventId: string,
  input: { label: string; expiresAt?: string | undefined; scope?: DoorScope | undefined },
  opts: { forMember?: string } = {},
) {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const label = input.label.trim();
  if (label === '') throw badRequest('invalid_field', 'label must not be empty');
  const list = validScope(input.scope, event.tracks);
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) throw badRequest('invalid_date', 'expiresAt is not a date-time');
    if (expiresAt.getTime() <= deps.clock.now().getTime())
      throw badRequest('invalid_date', 'expiresAt is in the past');
  }
  // 192 random bits; only its hash is kept.
  const token = randomBytes(24).toString('base64url');
  const row = {
    id: deps.ids.make('dp', 12),
    event_id: event.id,
    label,
    token_hash: sha256(token),
    created_by: opts.forMember ? memberHolder(opts.forMember) : checkin.actorOf(p),
    created_at: deps.clock.now(),
    expires_at: expiresAt,
    scope_track_index: list.kind === 'track' ? list.trackIndex : null,
    scope_date: list.kind === 'date' ? list.date : null,
  };
  await deps.db.transaction().execute(async (trx) => {
    await repo.insertPass(trx, row);
    await audit.recordChange(trx, deps, {
      accountId: event.account_id,
      mode: event.mode,
      actor: audit.actorOfKey(p),
      action: 'door_pass.create',
      target: { type: 'door_pass', id: row.id },
      after: { eventId: event.id, label, expiresAt, scope: scopeOfList(list) },
    });
  });
  return { ...presentPass({ ...row, revoked_at: null }), url: `${deps.config.baseUrl}/door/${token}` };
}

/**
 * Ends the door passes a member opened for themselves on the organisation's events, when their
 * role changes or they leave: the screen stops at its next call. Passes made for the door staff stay.
 */
export async function endMemberPasses(
  db: Db,
  organisationId: string,
  personId: string,
  at: Date,
): Promise<string[]> {
  const live = await repo.livePassesBy(db, memberHolder(personId));
  if (live.length === 0) return [];
  const owners = await events.findEventsById(db, [...new Set(live.map((p) => p.event_id))]);
  const ours = new Set(owners.filter((e) => e.account_id === organisationId).map((e) => e.id));
  const ids = live
    .filter((p) => ours.has(p.event_id))
    .map((p) => p.id)
    .sort();
  await repo.revokePasses(db, ids, at);
  return ids;
}

export async function listPasses(db: Kysely<Database>, p: KeyPrincipal, eventId: string) {
  const event = await events.loadOwnedEvent(db, p, eventId);
  return (await repo.passesOf(db, event.id)).map(presentPass);
}

export async function revokePass(deps: DoorDeps, p: KeyPrincipal, eventId: string, passId: string) {
  const event = await events.loadOwnedEvent(deps.db, p, eventId);
  const revoked = await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.revokePass(trx, event.id, passId, deps.clock.now()))) return false;
    await audit.recordChange(trx, deps, {
      accountId: event.account_id,
      mode: event.mode,
      actor: audit.actorOfKey(p),
      action: 'door_pass.revoke',
      target: { type: 'door_pass', id: passId },
      after: { eventId: event.id, revoked: true },
    });
    return true;
  });
  if (!revoked) throw notFound('no such door pass for this event', 'door_pass_not_found');
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
export async function doorOf(db: Kysely<Database>, caller: DoorCaller, eventId: string) {
  if (caller.kind === 'key') {
    const event = await events.loadOwnedEvent(db, caller, eventId);
    return { event, as: caller, actor: checkin.actorOf(caller), list: WHOLE_EVENT };
  }
  const event = caller.eventId === eventId ? await events.findEvent(db, eventId) : undefined;
  if (!event) throw notFound('no such event', 'event_not_found');
  const as: KeyPrincipal = {
    kind: 'key',
    userId: event.account_id,
    keyId: `door:${caller.passId}`,
    mode: event.mode,
    keyClass: 'full',
  };
  return {
    event,
    as,
    actor: `pass:${caller.passId}`,
    list: listOfPass({ scope_track_index: caller.scopeTrackIndex, scope_date: caller.scopeDate }),
  };
}

/**
 * A device as other people see it: "device 3f2a", a short hash of its id. Device ids are
 * never shown, so a pass holder cannot learn another device's id from the roster.
 */
export const deviceLabel = (deviceId: string) => `device ${sha256(deviceId).slice(0, 4)}`;

/** An actor reference as a person reads it: the pass's label (and its device's label), "API key", "Dashboard". */
export async function actorNames(
  db: Kysely<Database>,
  actors: Iterable<string | null>,
): Promise<(actor: string | null) => string | null> {
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
      return device ? `${label} · ${deviceLabel(device)}` : label;
    }
    return actor;
  };
}

/** The event a pass opens and the list it admits for (the door page's heading). */
export async function doorEvent(deps: Pick<DoorDeps, 'db' | 'config'>, p: DoorPrincipal) {
  const event = await events.findEvent(deps.db, p.eventId);
  if (!event) throw notFound('no such event', 'event_not_found');
  const list = listOfPass({ scope_track_index: p.scopeTrackIndex, scope_date: p.scopeDate });
  return { id: event.id, title: event.title, list: listLabel(list, event.tracks, deps.config.eventTimeZone) };
}
