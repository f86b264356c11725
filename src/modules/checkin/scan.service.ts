// The scan: the one function that decides entry (the API's check-in, the door screen and a
// device's offline scans). An admit goes by the roster's refusals and the grouped admit
// statement (admits.ts); an undo, or a ticket addressed by its ticketCode, by the database's
// lookup and a conditional update (checkin.service.ts has the rules it shares).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import * as repo from './checkin.repo.js';
import type { GroupRow } from './checkin.repo.js';
import {
  actorOf,
  applyMemberIndex,
  assertEventForScan,
  parseQrValue,
  refusal,
  refuse,
  resolveByCode,
  rosterScan,
  status,
  toScan,
  type CheckInStatus,
  type CheckinDeps,
  type Scan,
  type ScanAnswer,
} from './checkin.service.js';

/**
 * The one function that decides entry: the API's check-in, the door screen and a
 * device's offline scans all come here. `actor` is recorded with every admit and undo.
 */
export async function scan(
  deps: CheckinDeps,
  p: KeyPrincipal,
  eventId: string,
  input: {
    value: string;
    memberIndex?: number | undefined;
    undo?: boolean | undefined;
    actor?: string | undefined;
  },
): Promise<ScanAnswer> {
  const value = parseQrValue(input.value);
  const now = deps.clock.now();
  const actor = input.actor ?? actorOf(p);

  if (!input.undo) {
    const answer = await fastAdmit(deps, p, eventId, { value, memberIndex: input.memberIndex, actor, now });
    if (answer) return answer;
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
  const written = await repo.setPeople(deps.db, {
    eventId,
    registrationId: found.booking.id,
    indexes,
    at,
    actor,
    now,
  });
  const changed = new Set(written.indexes);
  if (written.version !== null) {
    const changes = [...changed].map((idx) => ({ registrationId: found.booking.id, idx, at, by: actor }));
    deps.door.rosters.wrote(eventId, written.version, Number(written.xid), changes);
  }
  for (const person of found.people)
    if (changed.has(person.idx))
      Object.assign(person, { checked_in_at: at, checked_in_by: at === null ? null : actor });
  await deps.door.rosters.warm(eventId);
  return {
    changed: changed.size > 0,
    alreadyCheckedIn: !input.undo && changed.size === 0,
    data: status(found),
  };
}

/**
 * An admit by the roster and the grouped admit statement: a refusal the roster knows for good,
 * else the answer of the admit; undefined when the statement found no ticket by that value
 * (a ticketCode), for the database's path.
 */
async function fastAdmit(
  deps: CheckinDeps,
  p: KeyPrincipal,
  eventId: string,
  input: { value: string; memberIndex: number | undefined; actor: string; now: Date },
): Promise<ScanAnswer | undefined> {
  const { value, actor, now } = input;
  const memberIndex = input.memberIndex ?? null;
  // A refusal that can never become an admit needs no database.
  const known = rosterScan(deps, p, eventId, value);
  if (known) {
    applyMemberIndex(known, input.memberIndex);
    const reason = refusal(known);
    if (reason !== undefined && reason !== 'not_confirmed') {
      deps.door.rosters.answered('roster');
      throw refuse(known, reason);
    }
  }
  // The common admit: resolve, check and update in one statement, with the admits queued
  // beside it. The UPDATE's conditions are the refusal rules (entry-rule.ts), so a refused scan
  // changes nothing.
  const rows = await deps.door.admits.admit(eventId, {
    value,
    memberIndex,
    accountId: p.userId,
    mode: p.mode,
    actor,
    at: now,
  });
  if (rows.length > 0) {
    await assertEventForScan(deps.db, p, eventId, rows[0]);
    const answer = await admitted(deps.db, rows, input.memberIndex);
    await deps.door.rosters.warm(eventId);
    return answer;
  }
  return undefined;
}

/** The answer to one admit of a group: its people as the group left them. */
async function admitted(
  db: Kysely<Database>,
  rows: GroupRow[],
  memberIndex: number | undefined,
): Promise<{ changed: boolean; alreadyCheckedIn: boolean; data: CheckInStatus }> {
  let found = toScan(rows);
  applyMemberIndex(found, memberIndex);
  const reason = refusal(found);
  if (reason !== undefined) throw refuse(found, reason);
  // The people were read before the update: stamp those the group admitted (this scan, or
  // another scan of the same booking written with it).
  const mine = Number(rows[0]!.n);
  let changed = 0;
  for (const r of rows) {
    if (r.p_changed_n === null) continue;
    const person = found.people.find((x) => x.idx === r.p_idx)!;
    Object.assign(person, { checked_in_at: r.p_changed_at, checked_in_by: r.p_changed_by });
    if (Number(r.p_changed_n) === mine) changed++;
  }
  // An admit that changed nobody found everyone it names already in, perhaps by a scan on
  // another instance that committed after this statement's read: then read them again.
  if (changed === 0 && !status(found).checkedIn) {
    const asScanned = found;
    found = {
      ...toScan((await repo.lookupRows(db, rows[0]!.p_id)).rows),
      only: asScanned.only,
      transferred: asScanned.transferred,
    };
  }
  return { changed: changed > 0, alreadyCheckedIn: changed === 0, data: status(found) };
}
